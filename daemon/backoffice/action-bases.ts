// The strict-split bases of maker-checker: for each, the params schema a proposal is validated with
// (the full payload is stored at proposal) and what approving it does, run inside the transaction that
// records the approval (docs/backoffice.md has the table). Every base executes; an executor's result
// key answered_once (a one-time enrolment code) is answered to the approver and never stored.
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { ok, refuse } from '../contract/outcome.js';
import { STRICT_BASES, type StrictBase } from '../contract/grants.js';
import { drawableText } from '../contract/font-coverage.js';
import { adjustableBreak, resolveAdjusted } from '../reconciliation/adjust.js';
import type { Exec } from './bases/exec.js';
import { feeScheduleParams, updateFeeSchedule } from './bases/fee-schedule.js';
import { rotateKek } from './bases/rotate-kek.js';
import { rotateDek, rotateDekParams } from './bases/rotate-dek.js';
import { replayMarketData, replayParams } from './bases/marketdata-replay.js';
import { corpActionParams, processCorpAction } from './bases/corp-action.js';
import { manageConsoleUser, manageParams } from './bases/console-users-manage.js';
import { disableConsoleUser, disableParams } from './bases/console-users-disable.js';
import { assignConsoleRole, assignParams } from './bases/console-roles-assign.js';
import { unlockParams, unlockPasskeys } from './bases/passkey-unlock.js';
import { idpParams, updateIdpConfig } from './bases/idp-config.js';

const id = z.string().regex(/^[A-Za-z0-9_]{3,64}$/);
const micros = z
  .number()
  .int()
  .refine((n) => Number.isSafeInteger(n) && n !== 0, 'a non-zero safe integer');

export const BASE_PARAMS = {
  'ledger:adjust': z.strictObject({
    tenant_id: id,
    investor_id: id,
    amount_micros: micros,
    asset: z.literal('cash:EGP').default('cash:EGP'),
    break_id: id.optional(),
  }),
  'broker:create': z.strictObject({
    name: drawableText(z.string().trim().min(1).max(120)),
    name_ar: drawableText(z.string().trim().min(1).max(120)),
    fra_license_no: z.string().trim().min(1).max(40),
    contact_email: z.email().max(200),
    contact_phone: z.string().regex(/^\+?[0-9]{6,20}$/),
  }),
  'fee-schedule:update': feeScheduleParams,
  'binding:update': z.strictObject({ tenant_id: id, investor_id: id, broker_id: id }),
  'keys:rotate-kek': z.strictObject({}),
  'keys:rotate-dek': rotateDekParams,
  'console-users:manage': manageParams,
  'console-users:disable': disableParams,
  'console-roles:assign': assignParams,
  'passkey:unlock': unlockParams,
  'break-glass': z.strictObject({ identity_id: id, minutes: z.number().int().min(1).max(240) }),
  'idp-config:update': idpParams,
  'corp-action:process': corpActionParams,
  'marketdata:replay': replayParams,
} as const satisfies Record<StrictBase, z.ZodType>;

export const isBase = (s: string): s is StrictBase => (STRICT_BASES as readonly string[]).includes(s);

export type { ExecCtx } from './bases/exec.js';

const investorOf = (deps: Deps, tenantId: string, investorId: string) =>
  deps.db
    .prepare<[string, string], { id: string; broker_id: string }>(
      'SELECT id, broker_id FROM investors WHERE id = ? AND tenant_id = ?',
    )
    .get(investorId, tenantId);

/**
 * A balanced cash adjustment between the tenant's adjustments account and the investor, in the feed as
 * JNLC. With `break_id`, the reconciliation break it fixes is resolved `adjusted` in the same unit.
 */
const ledgerAdjust: Exec = ({ deps, actionId, reason }, p) => {
  const {
    tenant_id: tenantId,
    investor_id: investorId,
    amount_micros: amount,
    asset,
    break_id: breakId,
  } = p as z.infer<(typeof BASE_PARAMS)['ledger:adjust']>;
  if (!investorOf(deps, tenantId, investorId))
    return refuse('ACTION_NOT_EXECUTABLE', `No investor ${investorId} in tenant ${tenantId}.`);
  if (breakId !== undefined) {
    const b = adjustableBreak(deps, breakId, { tenantId, investorId, asset });
    if (!b.ok) return b;
  }
  const investor = { investorId, asset, bucket: 'settled' as const };
  const system = { system: 'adjustments' as const, asset };
  const posted = deps.ledger.unit(() =>
    deps.ledger.transfer({
      tenantId,
      debit: amount > 0 ? system : investor,
      credit: amount > 0 ? investor : system,
      amount: Math.abs(amount),
      kind: 'adjustment',
      ref: actionId,
    }),
  );
  if (!posted.ok) return refuse('ACTION_NOT_EXECUTABLE', `The ledger refused the adjustment: ${posted.code}.`);
  const activity = deps.ledger.recordActivity({
    tenantId,
    investorId,
    type: 'JNLC',
    netAmountMicros: amount,
    description: `Adjustment: ${reason}`,
    ref: { type: 'journal', id: actionId },
  });
  if (breakId !== undefined && !resolveAdjusted(deps, breakId, actionId, deps.nowIso(), reason))
    return refuse('BREAK_STATE_CONFLICT', `Break ${breakId} was resolved meanwhile.`);
  return ok({
    posting_id: posted.value,
    activity_id: activity.id,
    ...(breakId !== undefined ? { break_id: breakId, break_resolution: 'adjusted' } : {}),
  });
};

const bindingUpdate: Exec = ({ deps }, p) => {
  const {
    tenant_id: tenantId,
    investor_id: investorId,
    broker_id: brokerId,
  } = p as z.infer<(typeof BASE_PARAMS)['binding:update']>;
  const inv = investorOf(deps, tenantId, investorId);
  if (!inv) return refuse('ACTION_NOT_EXECUTABLE', `No investor ${investorId} in tenant ${tenantId}.`);
  if (!deps.db.prepare('SELECT 1 FROM brokers WHERE id = ?').get(brokerId))
    return refuse('ACTION_NOT_EXECUTABLE', `No broker ${brokerId}.`);
  deps.db.prepare('UPDATE investors SET broker_id = ? WHERE id = ?').run(brokerId, investorId);
  return ok({ investor_id: investorId, previous_broker_id: inv.broker_id, broker_id: brokerId });
};

const brokerCreate: Exec = ({ deps }, p) => {
  const b = p as z.infer<(typeof BASE_PARAMS)['broker:create']>;
  if (deps.db.prepare('SELECT 1 FROM brokers WHERE fra_license_no = ?').get(b.fra_license_no))
    return refuse('ACTION_NOT_EXECUTABLE', `A broker with licence ${b.fra_license_no} exists.`);
  const brokerId = deps.ids.next('brk');
  deps.db
    .prepare(
      'INSERT INTO brokers (id, name, name_ar, fra_license_no, contact_email, contact_phone) VALUES (?,?,?,?,?,?)',
    )
    .run(brokerId, b.name, b.name_ar, b.fra_license_no, b.contact_email, b.contact_phone);
  return ok({ broker_id: brokerId });
};

/** A time-boxed superuser role for one identity (sandbox clock), flagged for review after. */
const breakGlass: Exec = ({ deps }, p) => {
  const { identity_id: identityId, minutes } = p as z.infer<(typeof BASE_PARAMS)['break-glass']>;
  const row = deps.db.prepare<[string], { realm: string }>('SELECT realm FROM operators WHERE id = ?').get(identityId);
  if (row?.realm !== 'admin') return refuse('ACTION_NOT_EXECUTABLE', `No back-office identity ${identityId}.`);
  const expiresAt = deps.market.calendar.toIso(deps.clock.now() + minutes * 60_000);
  deps.keys.identities.assignRole(identityId, 'superuser', 'global', { expiresAt, review: true });
  return ok({ identity_id: identityId, role: 'superuser', expires_at: expiresAt, review_required: true });
};

export const BASE_EXEC: Record<StrictBase, Exec> = {
  'ledger:adjust': ledgerAdjust,
  'binding:update': bindingUpdate,
  'broker:create': brokerCreate,
  'break-glass': breakGlass,
  'fee-schedule:update': updateFeeSchedule,
  'keys:rotate-kek': rotateKek,
  'keys:rotate-dek': rotateDek,
  'console-users:manage': manageConsoleUser,
  'console-users:disable': disableConsoleUser,
  'console-roles:assign': assignConsoleRole,
  'passkey:unlock': unlockPasskeys,
  'idp-config:update': updateIdpConfig,
  'corp-action:process': processCorpAction,
  'marketdata:replay': replayMarketData,
};
