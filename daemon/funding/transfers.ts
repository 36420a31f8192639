// Tenant-facing transfers: create one (validated in the documented precedence), read one, list them
// (docs/funding.md "Transfers"). A refusal is decided before anything is written.
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { CASH_EGP } from '../ledger/assets.js';
import { DAILY_TRANSFER_LIMIT_MICROS, TRANSFER_LIMIT_MICROS } from '../contract/funding.js';
import { egpHeld, egpNeeded } from '../contract/money.js';
import type { FundingCtx } from './context.js';
import { scheduleStep } from './rail.js';
import type { TransferApproval, TransferDirection, TransferState } from './repo.js';
import { transferView, type Transfer } from './views.js';

export interface TransferInput {
  investor_id: string;
  direction: TransferDirection;
  amount_micros: number;
}

export interface TransferFilter {
  investor_id?: string;
  state?: TransferState;
  limit: number;
  before?: string;
}

/** Per-transfer and daily limits; the Cairo day is the simulated clock's (docs/funding.md "The daily limit"). */
function checkLimits(
  ctx: FundingCtx,
  tenantId: string,
  investorId: string,
  amount: number,
  localDate: string,
): Outcome<void> {
  if (amount > TRANSFER_LIMIT_MICROS) {
    return refuse(
      'TRANSFER_LIMIT_EXCEEDED',
      `amount_micros ${amount} is above the per-transfer limit of ${TRANSFER_LIMIT_MICROS} (70,000 EGP).`,
    );
  }
  const used = ctx.repo.dailyTotal(tenantId, investorId, localDate);
  if (used + amount > DAILY_TRANSFER_LIMIT_MICROS) {
    return refuse(
      'DAILY_TRANSFER_LIMIT_EXCEEDED',
      `Transfers of ${investorId} on ${localDate} (Africa/Cairo) total ${used} micros of ` +
        `${DAILY_TRANSFER_LIMIT_MICROS}; at most ${DAILY_TRANSFER_LIMIT_MICROS - used} more today.`,
    );
  }
  return ok(undefined);
}

/** A withdrawal's cash is held at creation, so it cannot also be spent while on the rail. */
function holdWithdrawal(
  ctx: FundingCtx,
  tenantId: string,
  investorId: string,
  amount: number,
  transferId: string,
): Outcome<string> {
  const held = ctx.ledger.hold({ tenantId, investorId, asset: CASH_EGP, amount, ref: transferId });
  if (held.ok) return held;
  const settled = ctx.ledger.balance(tenantId, { investorId, asset: CASH_EGP, bucket: 'settled' });
  return refuse(held.code, `Settled cash is ${egpHeld(settled)}; the withdrawal needs ${egpNeeded(amount)}.`);
}

/**
 * Validation in precedence order (after the schema): investor exists, is approved and open;
 * per-transfer limit; daily limit of the Cairo day; for a withdrawal, settled cash covers it.
 */
export function createTransfer(ctx: FundingCtx, tenantId: string, input: TransferInput): Outcome<Transfer> {
  const found = ctx.investors.lookupForMoney(tenantId, input.investor_id);
  if (!found.ok) return found;
  const investor = found.value;
  const amount = input.amount_micros;
  const now = ctx.clock.now();
  const localDate = ctx.market.calendar.localDate(now);
  const limits = checkLimits(ctx, tenantId, investor.id, amount, localDate);
  if (!limits.ok) return limits;
  const id = ctx.ids.next('trf');
  let holdId: string | null = null;
  if (input.direction === 'withdrawal') {
    const held = holdWithdrawal(ctx, tenantId, investor.id, amount, id);
    if (!held.ok) return held;
    holdId = held.value;
  }
  const approval: TransferApproval = ctx.repo.manualFunding() ? 'pending' : 'automatic';
  ctx.repo.insert({
    id,
    tenant_id: tenantId,
    investor_id: investor.id,
    direction: input.direction,
    amount_micros: amount,
    approval,
    hold_id: holdId,
    local_date: localDate,
    created_ms: now,
    created_at: ctx.nowIso(),
  });
  const row = ctx.repo.byId(id)!;
  if (approval === 'automatic') scheduleStep(ctx, row);
  return ok(transferView(row));
}

export function getTransfer(ctx: FundingCtx, tenantId: string, id: string): Outcome<Transfer> {
  const r = ctx.repo.forTenant(tenantId, id);
  return r ? ok(transferView(r)) : refuse('NOT_FOUND', `No transfer ${id}.`);
}

export function listTransfers(
  ctx: FundingCtx,
  tenantId: string,
  f: TransferFilter,
): Outcome<{ transfers: Transfer[]; next_before: string | null }> {
  let investorId: string | undefined;
  if (f.investor_id !== undefined) {
    const found = ctx.investors.lookup(tenantId, f.investor_id);
    if (!found.ok) return found;
    investorId = found.value.id;
  }
  let beforeSeq: number | undefined;
  if (f.before !== undefined) {
    const cursor = ctx.repo.forTenant(tenantId, f.before);
    if (!cursor || (investorId !== undefined && cursor.investor_id !== investorId)) {
      return refuse('INVALID_CURSOR', `before: ${f.before} is not a transfer of this list.`);
    }
    beforeSeq = cursor.seq;
  }
  const rows = ctx.repo.list(tenantId, { investorId, state: f.state, beforeSeq, limit: f.limit + 1 });
  const page = rows.slice(0, f.limit);
  return ok({
    transfers: page.map(transferView),
    next_before: rows.length > f.limit ? page[page.length - 1].id : null,
  });
}
