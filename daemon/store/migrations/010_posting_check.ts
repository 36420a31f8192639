import type { Migration } from './migration.js';

// The check every posting passes before it is written (migration 004's ledger_entries_check), as one
// query: it reads each of the two accounts once, where 004's three statements read them six times
// (a posting is the commonest write of the daemon: four per filled order). Same rules, same messages:
// both accounts belong to the posting's tenant, they hold the same asset, and a reserved balance moves
// only with a pending hold of its investor and asset.
export const POSTING_CHECK: Migration = {
  version: 10,
  name: 'posting-check',
  sql: `
DROP TRIGGER ledger_entries_check;

CREATE TRIGGER ledger_entries_check BEFORE INSERT ON ledger_entries
BEGIN
  SELECT CASE
    WHEN d.id IS NULL OR c.id IS NULL OR d.tenant_id <> NEW.tenant_id OR c.tenant_id <> NEW.tenant_id
      THEN RAISE(ABORT, 'ledger: a posting needs two accounts of its tenant')
    WHEN d.asset <> c.asset
      THEN RAISE(ABORT, 'ledger: a posting moves one asset: the two accounts hold different assets')
    WHEN (d.bucket = 'reserved' AND NOT EXISTS (SELECT 1 FROM ledger_holds h
            WHERE h.id = NEW.hold_id AND h.state = 'pending' AND h.tenant_id = d.tenant_id AND h.investor_id = d.owner AND h.asset = d.asset))
      OR (c.bucket = 'reserved' AND NOT EXISTS (SELECT 1 FROM ledger_holds h
            WHERE h.id = NEW.hold_id AND h.state = 'pending' AND h.tenant_id = c.tenant_id AND h.investor_id = c.owner AND h.asset = c.asset))
      THEN RAISE(ABORT, 'ledger: a reserved balance moves only with a pending hold of its investor and asset')
  END
  FROM (SELECT 1)
  LEFT JOIN ledger_accounts d ON d.id = NEW.debit_account_id
  LEFT JOIN ledger_accounts c ON c.id = NEW.credit_account_id;
END;
`,
};
