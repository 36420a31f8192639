// Rows as the wire shows them (daemon/contract/schemas/reconciliation.ts).
import type { Injection, ReconciliationBreak, ReconciliationRun } from '../contract/schemas/reconciliation.js';
import type { BreakRow, OverrideRow, RunRow } from './repo.js';

export function runView(r: RunRow): ReconciliationRun {
  return {
    run_id: r.id,
    date: r.date,
    created_at: r.created_at,
    created_by: r.created_by,
    investors: r.investors,
    custodian_lines: r.custodian_lines,
    bank_lines: r.bank_lines,
    breaks_found: r.breaks_found,
    breaks_opened: r.breaks_opened,
    breaks_auto_resolved: r.breaks_auto_resolved,
  };
}

export function breakView(b: BreakRow): ReconciliationBreak {
  return {
    break_id: b.id,
    kind: b.kind,
    tenant_id: b.tenant_id,
    investor_id: b.investor_id,
    asset: b.asset,
    ledger_value: b.ledger_value,
    external_value: b.external_value,
    difference: b.difference,
    state: b.state,
    resolution: b.resolution,
    first_seen: b.first_seen_date,
    first_seen_at: b.first_seen_at,
    first_run_id: b.first_run_id,
    last_seen: b.last_seen_date,
    last_run_id: b.last_run_id,
    acknowledged_at: b.acknowledged_at,
    acknowledged_by: b.acknowledged_by,
    resolved_at: b.resolved_at,
    resolved_by: b.resolved_by,
    note: b.note,
    reopens: b.reopens,
  };
}

export function injectionView(o: OverrideRow): Injection {
  return {
    injection_id: o.id,
    kind: o.kind,
    tenant_id: o.tenant_id,
    investor_id: o.investor_id,
    asset: o.asset,
    amount: o.amount,
    from_date: o.from_date,
    through_date: o.through_date,
    created_at: o.created_at,
  };
}
