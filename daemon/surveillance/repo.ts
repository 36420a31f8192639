// Surveillance storage: the session's facts the rules read (fills and cancelled orders), the runs and
// the alerts. SQL only; the rules are in rules.ts and the decisions in service.ts.
import type { Db } from '../store/db.js';
import type { CancelFact, FillFact, Finding } from './rules.js';
import type { SurveillanceAlertsRow, SurveillanceRunsRow } from '../store/rows.js';

export type AlertRow = SurveillanceAlertsRow;

export type RunRow = Omit<SurveillanceRunsRow, 'seq'>;

export interface AlertFilter {
  state?: string;
  rule?: string;
  investor_id?: string;
  symbol?: string;
  tenant_id?: string;
  session_date?: string;
  limit: number;
}

const FILTERS = ['state', 'rule', 'investor_id', 'symbol', 'tenant_id', 'session_date'] as const;

export function createSurveillanceRepo(db: Db) {
  const q = {
    fills: db.prepare<[string], FillFact>(
      'SELECT id, order_id, tenant_id, investor_id, symbol, side, qty, at_ms FROM fills WHERE trade_date = ? ' +
        'ORDER BY seq',
    ),
    cancels: db.prepare<[number, number], Omit<CancelFact, 'canceled_ms'> & { canceled_at: string }>(
      'SELECT id AS order_id, tenant_id, investor_id, symbol, side, created_ms, canceled_at FROM orders WHERE ' +
        "created_ms >= ? AND created_ms < ? AND state = 'cancelled' ORDER BY seq",
    ),
    insertRun: db.prepare(
      'INSERT INTO surveillance_runs (id, trigger, session_date, thresholds, alerts_raised, ran_at) VALUES ' +
        '(@id, @trigger, @session_date, @thresholds, @alerts_raised, @ran_at)',
    ),
    setRaised: db.prepare<[number, string]>('UPDATE surveillance_runs SET alerts_raised = ? WHERE id = ?'),
    exists: db
      .prepare<[string, string, string, string], number>(
        'SELECT 1 FROM surveillance_alerts WHERE rule = ? AND investor_id = ? AND symbol = ? AND session_date = ?',
      )
      .pluck(),
    insertAlert: db.prepare(
      `INSERT INTO surveillance_alerts (id, run_id, rule, tenant_id, investor_id, symbol, session_date, window_start,
                                        window_end, order_ids, fill_ids, detail, state, created_at, updated_at)
       VALUES (@id, @run_id, @rule, @tenant_id, @investor_id, @symbol, @session_date, @window_start, @window_end,
               @order_ids, @fill_ids, @detail, 'open', @at, @at)`,
    ),
    byId: db.prepare<[string], AlertRow>('SELECT * FROM surveillance_alerts WHERE id = ?'),
    byRun: db.prepare<[string], AlertRow>('SELECT * FROM surveillance_alerts WHERE run_id = ? ORDER BY seq'),
    escalate: db.prepare<[string | null, string, string, string]>(
      "UPDATE surveillance_alerts SET state = 'escalated', note = COALESCE(?, note), escalated_at = ?, " +
        'updated_at = ? WHERE id = ?',
    ),
    close: db.prepare<[string, string, string, string]>(
      "UPDATE surveillance_alerts SET state = 'closed', note = ?, closed_at = ?, updated_at = ? WHERE id = ?",
    ),
  };
  return {
    fillsOf: (date: string): FillFact[] => q.fills.all(date),
    /** Orders placed in [fromMs, toMs) and cancelled since. */
    cancelsOf: (fromMs: number, toMs: number): CancelFact[] =>
      q.cancels.all(fromMs, toMs).map(({ canceled_at, ...c }) => ({ ...c, canceled_ms: Date.parse(canceled_at) })),
    insertRun: (r: RunRow) => void q.insertRun.run(r),
    setRaised: (runId: string, n: number) => void q.setRaised.run(n, runId),
    alerted: (f: Finding, date: string) => q.exists.get(f.rule, f.investor_id, f.symbol, date) !== undefined,
    insertAlert(a: {
      id: string;
      run_id: string;
      session_date: string;
      window_start: string;
      window_end: string;
      at: string;
      f: Finding;
    }) {
      const { f, ...rest } = a;
      q.insertAlert.run({
        ...rest,
        rule: f.rule,
        tenant_id: f.tenant_id,
        investor_id: f.investor_id,
        symbol: f.symbol,
        order_ids: JSON.stringify(f.order_ids),
        fill_ids: JSON.stringify(f.fill_ids),
        detail: JSON.stringify(f.detail),
      });
    },
    byId: (id: string) => q.byId.get(id),
    byRun: (runId: string) => q.byRun.all(runId),
    list: (f: AlertFilter): AlertRow[] => listAlerts(db, f),
    escalate: (id: string, note: string | null, at: string) => void q.escalate.run(note, at, at, id),
    close: (id: string, note: string, at: string) => void q.close.run(note, at, at, id),
  };
}

export type SurveillanceRepo = ReturnType<typeof createSurveillanceRepo>;

/** Alerts matching every filter given, oldest first. */
function listAlerts(db: Db, f: AlertFilter): AlertRow[] {
  const where: string[] = [];
  const args: Array<string | number> = [];
  for (const k of FILTERS) {
    const v = f[k];
    if (v !== undefined) {
      where.push(`${k} = ?`);
      args.push(v);
    }
  }
  const filter = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  const sql = `SELECT * FROM surveillance_alerts${filter} ORDER BY seq LIMIT ?`;
  return db.prepare<Array<string | number>, AlertRow>(sql).all(...args, f.limit);
}
