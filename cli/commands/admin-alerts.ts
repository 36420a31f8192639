// svc admin alerts [list|show|run|close|escalate]: trade surveillance alerts (docs/surveillance.md).
// Reads and changes act as admin by default (it holds the surveillance grants; --as compliance too).
import type { z } from 'zod';
import {
  ALERT_STATES,
  SURVEILLANCE_RULES,
  type AlertSchema,
  type RunSchema,
} from '../../daemon/contract/schemas/surveillance.js';
import { chalk, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import {
  adminConnection,
  cairo,
  call,
  fittedTable,
  oneOf,
  positiveInt,
  query,
  type AdminGlobals,
} from './admin-identity.js';

export interface AlertsOptions {
  state?: string;
  rule?: string;
  investor?: string;
  symbol?: string;
  session?: string;
  limit?: string;
}

export interface NoteOptions {
  note?: string;
}

type SurveillanceAlert = z.infer<typeof AlertSchema>;
type SurveillanceRun = z.infer<typeof RunSchema>;

const STATE_COLOUR: Record<string, (s: string) => string> = {
  open: chalk.yellow,
  escalated: chalk.red,
  closed: chalk.dim,
};

/** "10:00-10:04" within a session day. */
const windowOf = (a: SurveillanceAlert) => `${cairo(a.window_start).slice(11)}-${cairo(a.window_end).slice(11)}`;

export async function list(opts: AlertsOptions, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'admin');
  const qs = query({
    state: oneOf('--state', opts.state, ALERT_STATES),
    rule: oneOf('--rule', opts.rule, SURVEILLANCE_RULES),
    investor_id: opts.investor,
    symbol: opts.symbol,
    session_date: opts.session,
    limit: positiveInt('--limit', opts.limit),
  });
  const res = await call<{ alerts: SurveillanceAlert[] }>(c, 'GET', `/admin/surveillance/alerts${qs}`);
  if (c.json) return printJson(res);
  if (res.alerts.length === 0) {
    process.stdout.write(qs ? 'No alerts match.\n' : 'No surveillance alerts.\n');
    return;
  }
  const headers = ['alert', 'rule', 'investor', 'symbol', 'session', 'window (Cairo)', 'state', 'orders/fills'];
  const rows = res.alerts.map((a) => [
    a.alert_id,
    a.rule,
    a.investor_id,
    a.symbol,
    a.session_date,
    windowOf(a),
    a.state,
    `${a.order_ids.length}/${a.fill_ids.length}`,
  ]);
  process.stdout.write(`${fittedTable(headers, rows, ['orders/fills', 'window (Cairo)'])}\n`);
}

/** One alert with its evidence, for people. */
export function renderAlert(a: SurveillanceAlert): string {
  const detail = Object.entries(a.detail)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return (
    `${chalk.bold(a.alert_id)}  ${a.rule} of ${a.investor_id} in ${a.symbol}: ` +
    `${(STATE_COLOUR[a.state] ?? String)(a.state)}\n` +
    `  session ${a.session_date}, window ${cairo(a.window_start)} to ${cairo(a.window_end).slice(11)} (Cairo)\n` +
    `  orders  ${a.order_ids.join(' ') || '-'}\n` +
    `  fills   ${a.fill_ids.join(' ') || '-'}\n` +
    `  detail  ${detail}\n` +
    `  raised ${cairo(a.created_at)} by run ${a.run_id}` +
    (a.escalated_at ? `; escalated ${cairo(a.escalated_at)}` : '') +
    (a.closed_at ? `; closed ${cairo(a.closed_at)}` : '') +
    '\n' +
    (a.note ? `  note: ${a.note}\n` : '')
  );
}

export async function show(_opts: unknown, g: AdminGlobals, args: string[]): Promise<void> {
  const c = adminConnection(g, 'admin');
  const a = await call<SurveillanceAlert>(c, 'GET', `/admin/surveillance/alerts/${encodeURIComponent(args[0])}`);
  if (c.json) return printJson(a);
  process.stdout.write(renderAlert(a));
}

export async function run(opts: { date?: string }, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'admin');
  if (opts.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(opts.date))
    usage(`--date ${opts.date} must be YYYY-MM-DD`);
  const r = await call<SurveillanceRun>(c, 'POST', '/admin/surveillance/runs', {
    body: opts.date ? { date: opts.date } : {},
  });
  if (c.json) return printJson(r);
  process.stdout.write(
    `${chalk.bold(r.run_id)}  session ${r.session_date}: ${r.alerts_raised} new alert` +
      `${r.alerts_raised === 1 ? '' : 's'}\n`,
  );
  for (const a of r.alerts) process.stdout.write(`  ${a.alert_id}  ${a.rule}  ${a.investor_id}  ${a.symbol}\n`);
  if (r.alerts_raised > 0) process.stdout.write(`Review them: ${svc('admin alerts --state open')}\n`);
}

async function change(verb: 'close' | 'escalate', opts: NoteOptions, g: AdminGlobals, id: string): Promise<void> {
  const c = adminConnection(g, 'admin');
  const a = await call<SurveillanceAlert>(c, 'POST', `/admin/surveillance/alerts/${encodeURIComponent(id)}/${verb}`, {
    body: opts.note !== undefined ? { note: opts.note } : {},
  });
  if (c.json) return printJson(a);
  process.stdout.write(renderAlert(a));
}

export const close = (opts: NoteOptions, g: AdminGlobals, args: string[]) => change('close', opts, g, args[0]);
export const escalate = (opts: NoteOptions, g: AdminGlobals, args: string[]) => change('escalate', opts, g, args[0]);
