// Transfers and the dealer funding desk (DESIGN.md section 5 "Transfers", docs/funding.md).
//
// A transfer moves through received -> pending_rail -> at_broker -> completed, one simulated minute
// per step, driven by stored scheduler events; exactly 666 EGP fails at the rail (RAIL_REJECTED).
// Money moves only in the ledger: a withdrawal holds settled cash at creation, posts the hold to the
// rail on completion and voids it on failure; a deposit credits settled cash on completion. With
// manual funding approval on, a new transfer waits in received (approval: pending) until a dealer
// approves it (the steps start then) or rejects it (failed with the dealer's reason, hold released).
import type { Deps } from '../deps.js';
import type { Operator } from '../http/route.js';
import { AppError, unwrap, type Outcome } from '../http/errors.js';
import { CASH_EGP } from '../ledger/assets.js';
import { DAILY_TRANSFER_LIMIT_MICROS, RAIL_FAILURE_MICROS, RAIL_STEP_MS, TRANSFER_LIMIT_MICROS } from '../contract/funding.js';
import { createTransferRepo, type DeskRow, type TransferApproval, type TransferChange, type TransferDirection, type TransferRow, type TransferState } from './repo.js';

export const TRANSFER_STEP_EVENT = 'transfer.step';

export interface TransferInput {
  investor_id: string;
  direction: TransferDirection;
  amount_micros: number;
}

export function transferView(r: TransferRow) {
  return {
    transfer_id: r.id,
    investor_id: r.investor_id,
    direction: r.direction,
    amount_micros: r.amount_micros,
    state: r.state,
    approval: r.approval,
    rail_ref: r.rail_ref,
    reason_code: r.reason_code,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export type Transfer = ReturnType<typeof transferView>;

function deskView(r: DeskRow) {
  return {
    ...transferView(r),
    tenant_id: r.tenant_id,
    account_number: r.account_number,
    investor_name: r.full_name,
    decided_by: r.decided_by,
    decided_at: r.decided_at,
  };
}

export function createFundingService(deps: Pick<Deps, 'db' | 'ids' | 'clock' | 'nowIso' | 'ledger' | 'investors' | 'scheduler' | 'market'>) {
  const { db, ids, clock, ledger, scheduler } = deps;
  const repo = createTransferRepo(db);

  function change(r: TransferRow, next: Partial<TransferChange>): TransferRow {
    const merged: TransferRow = { ...r, ...next, updated_at: deps.nowIso() };
    repo.update(r.id, merged);
    return merged;
  }

  function scheduleStep(r: TransferRow): void {
    scheduler.schedule(TRANSFER_STEP_EVENT, clock.now() + RAIL_STEP_MS, { transfer_id: r.id });
  }

  /** Ends a transfer as failed; a withdrawal's hold goes back to settled cash. */
  function fail(r: TransferRow, reasonCode: string, decision?: Pick<TransferChange, 'approval' | 'decided_by' | 'decided_at'>): TransferRow {
    if (r.hold_id) ledger.voidHold(r.hold_id);
    return change(r, { state: 'failed', reason_code: reasonCode, ...decision });
  }

  /** at_broker -> completed: the money moves and the activity feed says so, in one transaction. */
  function complete(r: TransferRow): void {
    const cash = { investorId: r.investor_id, asset: CASH_EGP, bucket: 'settled' as const };
    const rail = { system: 'rail' as const, asset: CASH_EGP };
    const posted =
      r.direction === 'deposit'
        ? ledger.transfer({ tenantId: r.tenant_id, debit: rail, credit: cash, amount: r.amount_micros, kind: 'deposit', ref: r.id })
        : ledger.postHold(r.hold_id!, r.amount_micros, rail, 'withdrawal', r.id);
    if (!posted.ok) {
      fail(r, posted.code);
      return;
    }
    change(r, { state: 'completed' });
    ledger.recordActivity({
      tenantId: r.tenant_id,
      investorId: r.investor_id,
      type: r.direction === 'deposit' ? 'CSD' : 'CSW',
      netAmountMicros: r.direction === 'deposit' ? r.amount_micros : -r.amount_micros,
      description: r.direction === 'deposit' ? `Cash deposit via payment rail ${r.rail_ref}` : `Cash withdrawal via payment rail ${r.rail_ref}`,
      ref: { type: 'transfer', id: r.id },
    });
  }

  /** One rail step of a transfer; runs in the scheduler's transaction with the clock pinned. */
  function step(transferId: string): void {
    const r = repo.byId(transferId);
    if (!r) return;
    switch (r.state) {
      case 'received':
        if (r.approval === 'pending') return;
        scheduleStep(change(r, { state: 'pending_rail', rail_ref: ids.next('rail') }));
        return;
      case 'pending_rail':
        if (r.amount_micros === RAIL_FAILURE_MICROS) fail(r, 'RAIL_REJECTED');
        else scheduleStep(change(r, { state: 'at_broker' }));
        return;
      case 'at_broker':
        complete(r);
        return;
      default:
        return;
    }
  }


  /**
   * Validation in precedence order (after the schema): investor exists, is approved and open;
   * per-transfer limit; daily limit of the Cairo day; for a withdrawal, settled cash covers it.
   */
  function create(tenantId: string, input: TransferInput): Outcome<Transfer> {
    const investor = deps.investors.requireForMoney(tenantId, input.investor_id);
    const amount = input.amount_micros;
    if (amount > TRANSFER_LIMIT_MICROS) {
      return { ok: false, code: 'TRANSFER_LIMIT_EXCEEDED', message: `amount_micros ${amount} is above the per-transfer limit of ${TRANSFER_LIMIT_MICROS} (70,000 EGP).` };
    }
    const now = clock.now();
    const localDate = deps.market.calendar.localDate(now);
    const used = repo.dailyTotal(tenantId, investor.id, localDate);
    if (used + amount > DAILY_TRANSFER_LIMIT_MICROS) {
      return {
        ok: false,
        code: 'DAILY_TRANSFER_LIMIT_EXCEEDED',
        message: `Transfers of ${investor.id} on ${localDate} (Africa/Cairo) total ${used} micros of ${DAILY_TRANSFER_LIMIT_MICROS}; at most ${DAILY_TRANSFER_LIMIT_MICROS - used} more today.`,
      };
    }
    const id = ids.next('trf');
    let holdId: string | null = null;
    if (input.direction === 'withdrawal') {
      const held = ledger.hold({ tenantId, investorId: investor.id, asset: CASH_EGP, amount, ref: id });
      if (!held.ok) {
        const settled = ledger.balance(tenantId, { investorId: investor.id, asset: CASH_EGP, bucket: 'settled' });
        return { ok: false, code: held.code, message: `Settled cash is ${settled} micros; the withdrawal needs ${amount}.` };
      }
      holdId = held.value;
    }
    const approval: TransferApproval = repo.manualFunding() ? 'pending' : 'automatic';
    repo.insert({ id, tenant_id: tenantId, investor_id: investor.id, direction: input.direction, amount_micros: amount, approval, hold_id: holdId, local_date: localDate, created_ms: now, created_at: deps.nowIso() });
    const row = repo.byId(id)!;
    if (approval === 'automatic') scheduleStep(row);
    return { ok: true, value: transferView(row) };
  }

  function get(tenantId: string, id: string): Transfer {
    const r = repo.forTenant(tenantId, id);
    if (!r) throw new AppError('NOT_FOUND', `No transfer ${id}.`);
    return transferView(r);
  }

  function list(tenantId: string, f: { investor_id?: string; state?: TransferState; limit: number; before?: string }): Outcome<{ transfers: Transfer[]; next_before: string | null }> {
    const investorId = f.investor_id === undefined ? undefined : deps.investors.require(tenantId, f.investor_id).id;
    let beforeSeq: number | undefined;
    if (f.before !== undefined) {
      const cursor = repo.forTenant(tenantId, f.before);
      if (!cursor || (investorId !== undefined && cursor.investor_id !== investorId)) {
        return { ok: false, code: 'INVALID_CURSOR', message: `before: ${f.before} is not a transfer of this list.` };
      }
      beforeSeq = cursor.seq;
    }
    const rows = repo.list(tenantId, { investorId, state: f.state, beforeSeq, limit: f.limit + 1 });
    const page = rows.slice(0, f.limit);
    return { ok: true, value: { transfers: page.map(transferView), next_before: rows.length > f.limit ? page[page.length - 1].id : null } };
  }

  /** The transfer as the dealer's broker sees it; another broker's is unknown (404). */
  function deskTransfer(op: Operator, id: string): DeskRow {
    const r = repo.deskById(op.brokerId, id);
    if (!r) throw new AppError('NOT_FOUND', `No transfer ${id}.`);
    return r;
  }

  function decide(op: Operator, id: string, decision: 'approved' | 'rejected', reasonCode?: string): Outcome<ReturnType<typeof deskView>> {
    const r = deskTransfer(op, id);
    if (r.approval !== 'pending') {
      return { ok: false, code: 'TRANSFER_NOT_PENDING_APPROVAL', message: `Transfer ${id} is ${r.state} with approval ${r.approval}.` };
    }
    const stamp = { approval: decision, decided_by: op.id, decided_at: deps.nowIso() } as const;
    if (decision === 'approved') scheduleStep(change(r, stamp));
    else fail(r, reasonCode!, stamp);
    return { ok: true, value: deskView(deskTransfer(op, id)) };
  }

  return {
    create,
    get,
    list,
    step,
    setManualFunding(enabled: boolean): { manual_funding: boolean } {
      repo.setManualFunding(enabled);
      return { manual_funding: enabled };
    },
    deskList(op: Operator, f: { approval: TransferApproval | 'any'; state?: TransferState; limit: number }) {
      const rows = repo.deskList({ brokerId: op.brokerId, approval: f.approval === 'any' ? undefined : f.approval, state: f.state, limit: f.limit });
      return { funding: rows.map(deskView) };
    },
    approve: (op: Operator, id: string) => unwrap(decide(op, id, 'approved')),
    reject: (op: Operator, id: string, reasonCode: string) => unwrap(decide(op, id, 'rejected', reasonCode)),
  };
}

export type FundingService = ReturnType<typeof createFundingService>;
