// svc admin recon run|breaks|ack|resolve: reconciliation against the custodian and the bank
// (docs/reconciliation.md). Runs and break decisions act as admin by default; `resolve --adjust`
// proposes a ledger:adjust naming the break (as security by default), which an approver's approval
// posts and resolves `adjusted`. Amounts: EGP for cash breaks, shares for positions.
import type { ReconciliationBreak, ReconciliationRun } from '../../daemon/contract/schemas/reconciliation.js';
import { BREAK_KINDS, BREAK_STATES } from '../../daemon/contract/schemas/reconciliation.js';
import type { CalendarDay } from '../../daemon/contract/schemas/market.js';
import type { Clock } from '../../daemon/contract/schemas/sandbox.js';
import { api } from '../client/http.js';
import { CliExit, EXIT, chalk, ok, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import { renderAction, type AdminAction } from './admin-actions.js';
import {
  adminConnection,
  amountOf,
  assetLabel,
  cairo,
  call,
  fittedTable,
  oneOf,
  positiveInt,
  query,
  required,
  type AdminConnection,
  type AdminGlobals,
} from './admin-identity.js';

export interface RunOptions {
  date?: string;
}

export interface BreaksOptions {
  state?: string;
  kind?: string;
  investor?: string;
  asset?: string;
  run?: string;
  limit?: string;
}

export interface ResolveOptions {
  accept?: boolean;
  adjust?: boolean;
  note?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const YMD = /^\d{4}-\d{2}-\d{2}$/;

/** The latest business day up to today on the sandbox clock (a weekend or holiday has no statement). */
async function lastBusinessDay(c: AdminConnection): Promise<string> {
  // Tenant reads (the clock, the calendar): sent with the profile's tenant key, whoever --as names.
  const today = ok(await api<Clock>(c.profile, 'GET', '/v1/clock'), c.json).timestamp.slice(0, 10);
  const start = new Date(Date.parse(`${today}T00:00:00Z`) - 14 * 86_400_000).toISOString().slice(0, 10);
  const days = ok(
    await api<{ calendar: CalendarDay[] }>(c.profile, 'GET', `/v1/calendar${query({ start, end: today })}`),
    c.json,
  );
  return (
    days.calendar
      .map((d) => d.date)
      .filter((d) => d <= today)
      .pop() ?? today
  );
}

export async function run(opts: RunOptions, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'admin');
  if (opts.date !== undefined && !YMD.test(opts.date)) usage(`--date ${opts.date} must be YYYY-MM-DD`);
  const date = opts.date ?? (await lastBusinessDay(c));
  const r = await call<ReconciliationRun>(c, 'POST', '/admin/reconciliation/runs', { body: { date } });
  if (c.json) return printJson(r);
  const found =
    r.breaks_found === 0
      ? chalk.green('0 breaks: the book agrees with the custodian and the bank')
      : chalk.yellow(`${r.breaks_found} break${r.breaks_found === 1 ? '' : 's'}`);
  process.stdout.write(
    `${chalk.bold(r.run_id)}  reconciled ${r.date} at ${cairo(r.created_at)} (Cairo)\n` +
      `  ${plural(r.investors, 'investor')}, ${plural(r.custodian_lines, 'custodian line')}, ` +
      `${plural(r.bank_lines, 'bank line')}\n` +
      `  ${found}\n  ${r.breaks_opened} opened, ` +
      `${r.breaks_auto_resolved} of earlier runs resolved (they match again)\n` +
      (r.breaks_found > 0 ? `See them: ${svc(`admin recon breaks --run ${r.run_id}`)}\n` : ''),
  );
}

/** The state people read: the resolution of a resolved break, else its state. */
const stateOf = (b: ReconciliationBreak) => (b.state === 'resolved' ? `${b.resolution}` : b.state);

export async function breaks(opts: BreaksOptions, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'admin');
  const qs = query({
    state: oneOf('--state', opts.state, BREAK_STATES),
    kind: oneOf('--kind', opts.kind, BREAK_KINDS),
    investor_id: opts.investor,
    asset: opts.asset,
    run_id: opts.run,
    limit: positiveInt('--limit', opts.limit),
  });
  const res = await call<{ breaks: ReconciliationBreak[] }>(c, 'GET', `/admin/reconciliation/breaks${qs}`);
  if (c.json) return printJson(res);
  if (res.breaks.length === 0) {
    process.stdout.write(qs ? 'No breaks match.\n' : 'No breaks: every run so far reconciled.\n');
    return;
  }
  const headers = ['break', 'kind', 'investor', 'asset', 'book', 'statement', 'difference', 'state', 'first seen'];
  const rows = res.breaks.map((b) => [
    b.break_id,
    b.kind,
    b.investor_id,
    assetLabel(b.asset),
    amountOf(b.asset, b.ledger_value),
    amountOf(b.asset, b.external_value),
    amountOf(b.asset, b.difference),
    stateOf(b),
    b.first_seen,
  ]);
  process.stdout.write(`${fittedTable(headers, rows, ['first seen', 'statement', 'book'])}\n`);
  process.stdout.write(chalk.dim('difference = book - statement; EGP for cash, shares for positions\n'));
}

/** One break for people, after a decision. */
function renderBreak(b: ReconciliationBreak): string {
  const by = b.resolved_by
    ? ` by ${b.resolved_by}, ${cairo(b.resolved_at)}`
    : b.acknowledged_by
      ? ` by ${b.acknowledged_by}, ${cairo(b.acknowledged_at)}`
      : '';
  return (
    `${chalk.bold(b.break_id)}  ${b.kind} break of ${b.investor_id} ${assetLabel(b.asset)}: ${stateOf(b)}${by}\n` +
    `  book ${amountOf(b.asset, b.ledger_value)}, statement ${amountOf(b.asset, b.external_value)}, difference ` +
    `${amountOf(b.asset, b.difference)}\n` +
    (b.note ? `  note: ${b.note}\n` : '')
  );
}

export async function ack(opts: { note?: string }, g: AdminGlobals, args: string[]): Promise<void> {
  const c = adminConnection(g, 'admin');
  const b = await call<ReconciliationBreak>(
    c,
    'POST',
    `/admin/reconciliation/breaks/${encodeURIComponent(args[0])}/acknowledge`,
    { body: opts.note ? { note: opts.note } : {} },
  );
  if (c.json) return printJson(b);
  process.stdout.write(renderBreak(b));
}

/** --adjust: proposes the ledger:adjust that makes the book equal the statement, naming the break. */
async function proposeAdjustment(g: AdminGlobals, id: string, note: string | undefined): Promise<void> {
  const reader = adminConnection({ ...g, as: undefined }, 'admin');
  const b = await call<ReconciliationBreak>(reader, 'GET', `/admin/reconciliation/breaks/${encodeURIComponent(id)}`);
  if (b.state === 'resolved') {
    const error = {
      code: 'BREAK_STATE_CONFLICT',
      message: `Break ${id} is already resolved (${b.resolution}); nothing was proposed.`,
    };
    if (g.json) printJson({ error });
    else process.stderr.write(`${chalk.red('error')} ${chalk.bold(error.code)}: ${error.message}\n`);
    throw new CliExit(EXIT.apiError);
  }
  if (b.asset !== 'cash:EGP')
    usage(
      `break ${id} is about ${b.asset} shares; ledger:adjust moves cash only. Resolve it with --accept --note, ` +
        `or fix the holding`,
    );
  if (b.difference === 0)
    usage(`break ${id} has no difference to adjust (a ${b.kind} break); resolve it with --accept --note`);
  const c = adminConnection(g, 'security');
  const params = {
    tenant_id: b.tenant_id,
    investor_id: b.investor_id,
    amount_micros: -b.difference,
    asset: 'cash:EGP',
    break_id: b.break_id,
  };
  const reason =
    note ??
    `Break ${b.break_id}: bank ${amountOf(b.asset, b.external_value)} EGP, book ` +
      `${amountOf(b.asset, b.ledger_value)} EGP`;
  const a = await call<AdminAction>(c, 'POST', '/admin/actions', { body: { action: 'ledger:adjust', params, reason } });
  if (c.json) return printJson(a);
  process.stdout.write(
    renderAction(a) +
      `\nOnce another identity approves it (${svc(`admin approve ${a.action_id}`)}), the adjustment is posted ` +
      `and ${b.break_id} is resolved adjusted.\n`,
  );
}

export async function resolve(opts: ResolveOptions, g: AdminGlobals, args: string[]): Promise<void> {
  if (Boolean(opts.accept) === Boolean(opts.adjust)) usage('give one of --accept (with --note) or --adjust');
  if (opts.adjust) return proposeAdjustment(g, args[0], opts.note);
  const note = required('--note', opts.note);
  const c = adminConnection(g, 'admin');
  const b = await call<ReconciliationBreak>(
    c,
    'POST',
    `/admin/reconciliation/breaks/${encodeURIComponent(args[0])}/resolve`,
    { body: { resolution: 'accepted', note } },
  );
  if (c.json) return printJson(b);
  process.stdout.write(renderBreak(b));
}
