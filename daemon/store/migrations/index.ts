// Versioned migrations, applied in order. Each capability owns one file; never edit a shipped one,
// add a new version instead. A new version is always above the highest one (never a gap below it, 24
// and 25 stay unused): a home already at the highest version applies only the versions above it.
import { CORE } from './001_core.js';
import { INVESTORS } from './002_investors.js';
import { ONBOARDING } from './003_onboarding.js';
import { LEDGER } from './004_ledger.js';
import { TRANSFERS } from './005_transfers.js';
import { TRADING } from './006_trading.js';
import { JOURNAL } from './008_journal.js';
import { FUNDS } from './007_funds.js';
import { ORDERS_WITHOUT_HOLDS } from './009_orders_without_holds.js';
import { POSTING_CHECK } from './010_posting_check.js';
import { IDEMPOTENCY_WALL } from './011_idempotency_wall.js';
import { REPLAY_SESSION } from './012_replay_session.js';
import { BRANDING } from './013_branding.js';
import { REPORTS } from './014_reports.js';
import { RECONCILIATION } from './018_reconciliation.js';
import { SURVEILLANCE } from './019_surveillance.js';
import { COMPLAINTS } from './020_complaints.js';
import { BACKOFFICE } from './015_backoffice.js';
import { ACCESS } from './022_access.js';
import { BACKOFFICE_BASES } from './021_backoffice_bases.js';
import { CONSOLE_PASSKEYS } from './023_console_passkeys.js';
import { CONSOLE_CHALLENGES } from './027_console_challenges.js';
import { CONSOLE_USERS } from './026_console_users.js';
import { SPLITS_MIGRATION } from './028_splits.js';
import { CHECKS_WITHOUT_LISTS } from './029_checks_without_lists.js';
import { JOURNAL_ONE_SEAL } from './030_journal_one_seal.js';
import { ROW_MACS } from './035_row_macs.js';
import { KEY_ROTATION_SLICES } from './037_key_rotation_slices.js';
import { IDENTITY_RULES } from './038_identity_rules.js';
import { STEP_UP_WINDOWS } from './041_step_up_windows.js';
import { JOURNAL_FAULTS } from './042_journal_faults.js';
import type { Migration } from './migration.js';

export type { Migration };

export const MIGRATIONS: Migration[] = [
  CORE,
  INVESTORS,
  ONBOARDING,
  LEDGER,
  TRANSFERS,
  TRADING,
  FUNDS,
  JOURNAL,
  ORDERS_WITHOUT_HOLDS,
  POSTING_CHECK,
  IDEMPOTENCY_WALL,
  REPLAY_SESSION,
  BRANDING,
  REPORTS,
  RECONCILIATION,
  BACKOFFICE,
  SURVEILLANCE,
  COMPLAINTS,
  ACCESS,
  BACKOFFICE_BASES,
  CONSOLE_PASSKEYS,
  CONSOLE_CHALLENGES,
  CONSOLE_USERS,
  SPLITS_MIGRATION,
  CHECKS_WITHOUT_LISTS,
  JOURNAL_ONE_SEAL,
  ROW_MACS,
  KEY_ROTATION_SLICES,
  IDENTITY_RULES,
  STEP_UP_WINDOWS,
  JOURNAL_FAULTS,
].sort((a, b) => a.version - b.version);
