// svc faults add|list|clear|report: the sandbox's fault rules and the verdict on what the client did
// after each fault (/admin/sandbox/faults; docs/faults.md).
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { chalk, CliExit, EXIT, ok, printJson, usage } from '../output.js';
import type { FaultReport, FaultRule } from '../../daemon/contract/schemas/faults.js';

export interface AddOptions {
  route: string;
  effect: string;
  tenant?: string;
  every?: string;
  probability?: string;
  times?: string;
  status?: string;
  retryAfter?: string;
  ms?: string;
  minMs?: string;
  maxMs?: string;
  seconds?: string;
}

export interface ReportOptions {
  failOnFindings?: boolean;
}

/** A numeric option as a number, or a usage error naming it. */
function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) usage(`--${name} ${v} is not a number`);
  return n;
}

/** The rule as the API takes it; the daemon judges it (422 naming the field). */
export function ruleBody(o: AddOptions): Record<string, unknown> {
  const effect: Record<string, unknown> = { type: o.effect };
  const fields: Array<[string, string, string | undefined]> = [
    ['status', 'status', o.status],
    ['retry_after_s', 'retry-after', o.retryAfter],
    ['ms', 'ms', o.ms],
    ['min_ms', 'min-ms', o.minMs],
    ['max_ms', 'max-ms', o.maxMs],
    ['seconds', 'seconds', o.seconds],
  ];
  for (const [field, flag, v] of fields) if (v !== undefined) effect[field] = num(flag, v);
  const body: Record<string, unknown> = { route: o.route, effect };
  if (o.tenant) body.tenant_id = o.tenant;
  for (const k of ['every', 'probability', 'times'] as const) if (o[k] !== undefined) body[k] = num(k, o[k]);
  return body;
}

function trigger(r: FaultRule): string {
  if (r.every !== null) return `every ${r.every}`;
  if (r.probability !== null) return `p=${r.probability}`;
  if (r.times !== null) return `next ${r.times}`;
  return 'always';
}

function effectText(r: FaultRule): string {
  const e = r.effect;
  if (e.type === 'status') return `status ${e.status}${e.retry_after_s ? ` retry-after ${e.retry_after_s}s` : ''}`;
  if (e.type === 'latency') return e.ms !== undefined ? `latency ${e.ms} ms` : `latency ${e.min_ms}..${e.max_ms} ms`;
  if (e.type === 'timeout') return `timeout ${e.seconds} s`;
  return e.type;
}

function ruleLine(r: FaultRule): string {
  const who = r.tenant_id ? ` tenant ${r.tenant_id}` : '';
  const head = `${chalk.bold(r.id.padEnd(8))} ${r.route.padEnd(32)} ${trigger(r).padEnd(10)}`;
  return `${head} ${effectText(r).padEnd(26)} fired ${r.fired}/${r.matched}${who}\n`;
}

export async function add(opts: AddOptions, g: GlobalOptions): Promise<void> {
  const body = ruleBody(opts);
  const rule = ok(await api<FaultRule>(resolveProfile(g), 'POST', '/admin/sandbox/faults', { body }), Boolean(g.json));
  if (g.json) printJson(rule);
  else process.stdout.write(ruleLine(rule));
}

export async function list(_opts: unknown, g: GlobalOptions): Promise<void> {
  const res = ok(await api<{ data: FaultRule[] }>(resolveProfile(g), 'GET', '/admin/sandbox/faults'), Boolean(g.json));
  if (g.json) return printJson(res);
  if (res.data.length === 0) process.stdout.write('no fault rules\n');
  for (const r of res.data) process.stdout.write(ruleLine(r));
}

export async function clear(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const path = args[0] ? `/admin/sandbox/faults/${encodeURIComponent(args[0])}` : '/admin/sandbox/faults';
  const res = ok(await api<{ removed: number }>(resolveProfile(g), 'DELETE', path), Boolean(g.json));
  if (g.json) return printJson(res);
  process.stdout.write(args[0] ? `removed ${args[0]}\n` : `removed ${res.removed} fault rule(s)\n`);
}

function renderReport(r: FaultReport): string {
  const lines = [`${r.faults_fired} fault(s) fired over ${r.requests_seen} request(s)`];
  for (const e of r.events) {
    const next = e.next_request_id ? `${e.next} (${e.next_request_id})` : e.next;
    lines.push(`  ${e.request_id}  ${e.route}  ${e.effect}${e.resource_id ? ` ${e.resource_id}` : ''}  -> ${next}`);
  }
  lines.push(r.findings.length === 0 ? chalk.green('no findings') : chalk.red(`${r.findings.length} finding(s)`));
  for (const f of r.findings) {
    lines.push(`  ${chalk.bold(f.kind)}: ${f.message}`);
    lines.push(
      `    requests ${f.request_ids.join(', ')}` +
        (f.resource_ids.length ? `; resources ${f.resource_ids.join(', ')}` : ''),
    );
  }
  return `${lines.join('\n')}\n`;
}

export async function report(opts: ReportOptions, g: GlobalOptions): Promise<void> {
  const r = ok(await api<FaultReport>(resolveProfile(g), 'GET', '/admin/sandbox/faults/report'), Boolean(g.json));
  if (g.json) printJson(r);
  else process.stdout.write(renderReport(r));
  // --fail-on-findings: a CI step fails when the client did something wrong (exit 1)
  if (opts.failOnFindings && r.findings.length > 0) throw new CliExit(EXIT.apiError);
}
