// svc admin actions|propose|approve|reject: maker-checker from the terminal (docs/backoffice.md). The
// maker (default --as security) proposes a base with its params; a different identity (default --as
// approver) approves it, stepped up by a code svc computes, or rejects it. People see the proposal with
// amounts in EGP and times in Cairo; --json is the API's body.
import { chalk, egp, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import {
  adminConnection,
  cairo,
  call,
  fittedTable,
  oneOf,
  positiveInt,
  query,
  required,
  type AdminGlobals,
} from './admin-identity.js';

/** A proposal as GET /admin/actions answers it. */
export interface AdminAction {
  action_id: string;
  action: string;
  params: Record<string, unknown>;
  reason: string;
  payload_sha256: string;
  state: 'proposed' | 'approved' | 'rejected' | 'expired';
  maker: string;
  checker: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decision_reason: string | null;
  result: Record<string, unknown> | null;
}

export const ACTION_STATES = ['proposed', 'approved', 'rejected', 'expired'] as const;

export interface ActionsOptions {
  state?: string;
  limit?: string;
}

export interface ProposeOptions {
  param?: string[];
  reason?: string;
}

export interface DecideOptions {
  reason?: string;
}

/** Params keys whose values are whole numbers (money in micros, quantities, minutes, ratios). */
const INTEGER_KEY = /(_micros|_bps|^qty|_qty|^minutes|^ratio|^amount)$/;

/**
 * `k=v` pairs as a base's params: integers for *_micros, *_bps, qty, minutes and ratio keys; `a.b=v`
 * nests; `k:=JSON` takes a JSON value as it is (a number, a boolean, null, an object).
 */
export function parseParams(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const m = /^([A-Za-z0-9_.-]+)(:?=)(.*)$/s.exec(pair);
    if (!m) usage(`--param ${pair} must be KEY=VALUE (or KEY:=JSON)`);
    const [, path, op, raw] = m;
    const keys = path.split('.');
    const leaf = keys[keys.length - 1];
    let value: unknown = raw;
    if (op === ':=') {
      try {
        value = JSON.parse(raw);
      } catch {
        usage(`--param ${path}:= needs a JSON value (got ${raw})`);
      }
    } else if (INTEGER_KEY.test(leaf)) {
      if (!/^-?\d+$/.test(raw)) usage(`--param ${path} must be a whole number (got ${raw})`);
      value = Number(raw);
      if (!Number.isSafeInteger(value)) usage(`--param ${path} is too large`);
    }
    let node = out;
    for (const k of keys.slice(0, -1)) {
      if (typeof node[k] !== 'object' || node[k] === null) node[k] = {};
      node = node[k] as Record<string, unknown>;
    }
    node[leaf] = value;
  }
  return out;
}

/** A params value for people: micros in EGP (with the micros), objects as JSON. */
function paramText(key: string, v: unknown): string {
  if (typeof v === 'number' && key.endsWith('_micros')) return `${egp(v)} EGP (${v} micros)`;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const STATE_COLOUR: Record<AdminAction['state'], (s: string) => string> = {
  proposed: chalk.yellow,
  approved: chalk.green,
  rejected: chalk.red,
  expired: chalk.dim,
};

/** One proposal, every field, for people. */
export function renderAction(a: AdminAction): string {
  const rows: Array<[string, string]> = [
    ['base', a.action],
    ['state', STATE_COLOUR[a.state](a.state)],
    ['reason', a.reason],
    ['maker', `${a.maker}, ${cairo(a.created_at)}`],
    ['expires', cairo(a.expires_at)],
  ];
  if (a.checker)
    rows.push(['checker', `${a.checker}, ${cairo(a.decided_at)}${a.decision_reason ? `: ${a.decision_reason}` : ''}`]);
  const width = Math.max(
    ...rows.map(([k]) => k.length),
    ...[...Object.keys(a.params), ...Object.keys(a.result ?? {})].map((k) => k.length + 2),
  );
  const line = (k: string, v: string) => `  ${k.padEnd(width)}  ${v}\n`;
  let out = `${chalk.bold(a.action_id)}\n${rows.map(([k, v]) => line(k, v)).join('')}`;
  out +=
    `  params\n` +
    (Object.keys(a.params).length === 0
      ? '    (none)\n'
      : Object.entries(a.params)
          .map(([k, v]) => line(`  ${k}`, paramText(k, v)))
          .join(''));
  if (a.result)
    out +=
      `  result\n` +
      Object.entries(a.result)
        .map(([k, v]) => line(`  ${k}`, paramText(k, v)))
        .join('');
  out += chalk.dim(`  payload sha256 ${a.payload_sha256}\n`);
  return out;
}

export async function actions(opts: ActionsOptions, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'admin');
  const state = oneOf('--state', opts.state, ACTION_STATES);
  const res = await call<{ actions: AdminAction[] }>(
    c,
    'GET',
    `/admin/actions${query({ state, limit: positiveInt('--limit', opts.limit) })}`,
  );
  if (c.json) return printJson(res);
  if (res.actions.length === 0) {
    process.stdout.write(state ? `No ${state} proposals.\n` : 'No proposals yet.\n');
    return;
  }
  const headers = ['action', 'base', 'state', 'maker', 'proposed (Cairo)', 'checker', 'reason'];
  const rows = res.actions.map((a) => [
    a.action_id,
    a.action,
    a.state,
    a.maker,
    cairo(a.created_at),
    a.checker ?? '-',
    a.reason,
  ]);
  process.stdout.write(`${fittedTable(headers, rows, ['checker', 'maker'], 16)}\n`);
}

export async function propose(opts: ProposeOptions, g: AdminGlobals, args: string[]): Promise<void> {
  const c = adminConnection(g, 'security');
  const reason = required('--reason', opts.reason);
  const params = parseParams(opts.param ?? []);
  const a = await call<AdminAction>(c, 'POST', '/admin/actions', { body: { action: args[0], params, reason } });
  if (c.json) return printJson(a);
  process.stdout.write(
    renderAction(a) +
      `\nProposed by ${c.identity}. Another identity approves it: ${svc(`admin approve ${a.action_id}`)}\n`,
  );
}

async function decide(verb: 'approve' | 'reject', opts: DecideOptions, g: AdminGlobals, id: string): Promise<void> {
  const c = adminConnection(g, 'approver');
  if (verb === 'reject') required('--reason', opts.reason);
  const body = opts.reason !== undefined ? { reason: opts.reason } : {};
  const a = await call<AdminAction>(c, 'POST', `/admin/actions/${encodeURIComponent(id)}/${verb}`, { body });
  if (c.json) return printJson(a);
  process.stdout.write(renderAction(a));
}

export const approve = (opts: DecideOptions, g: AdminGlobals, args: string[]) => decide('approve', opts, g, args[0]);
export const reject = (opts: DecideOptions, g: AdminGlobals, args: string[]) => decide('reject', opts, g, args[0]);
