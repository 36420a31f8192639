// Wire views of surveillance rows (daemon/contract/schemas/surveillance.ts).
import type { AlertRow, RunRow } from './repo.js';
import type { Thresholds } from './thresholds.js';

export function alertView(r: AlertRow) {
  return {
    alert_id: r.id,
    run_id: r.run_id,
    rule: r.rule as 'wash_trade' | 'layering' | 'concentration',
    tenant_id: r.tenant_id,
    investor_id: r.investor_id,
    symbol: r.symbol,
    session_date: r.session_date,
    window_start: r.window_start,
    window_end: r.window_end,
    order_ids: JSON.parse(r.order_ids) as string[],
    fill_ids: JSON.parse(r.fill_ids) as string[],
    detail: JSON.parse(r.detail) as Record<string, number | string>,
    state: r.state,
    note: r.note,
    created_at: r.created_at,
    escalated_at: r.escalated_at,
    closed_at: r.closed_at,
    updated_at: r.updated_at,
  };
}

export type AlertView = ReturnType<typeof alertView>;

export function runView(r: RunRow, alerts: AlertRow[]) {
  return {
    run_id: r.id,
    trigger: r.trigger,
    session_date: r.session_date,
    thresholds: JSON.parse(r.thresholds) as Thresholds,
    alerts_raised: r.alerts_raised,
    alerts: alerts.map(alertView),
    ran_at: r.ran_at,
  };
}
