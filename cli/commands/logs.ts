// svc logs tail|show: the daemon's request inspector (GET /admin/sandbox/requests; docs/inspector.md).
// `tail` prints one line per request (time, method, path, status, code, latency, request id) and with
// --follow polls for new ones; `show` prints one request with its headers and redacted bodies and, for
// a refused signature, the string the daemon signed, to diff against the client's own.
import { setTimeout as sleep } from 'node:timers/promises';
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { chalk, ok, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import type {
  InspectedRequest,
  InspectedRequestList,
  InspectedRequestSummary,
} from '../../daemon/contract/inspector.js';

export interface TailOptions {
  follow?: boolean;
  status?: string;
  path?: string;
  method?: string;
  code?: string;
  lines?: string;
  interval?: string;
}

export interface ShowOptions {
  canonical?: boolean;
}

function query(opts: TailOptions, extra: Record<string, string>): string {
  const q = new URLSearchParams();
  if (opts.status) q.set('status', opts.status.toLowerCase());
  if (opts.path) q.set('path', opts.path);
  if (opts.method) q.set('method', opts.method.toUpperCase());
  if (opts.code) q.set('code', opts.code.toUpperCase());
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q.toString();
}

function clockTime(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.` +
    `${String(d.getMilliseconds()).padStart(3, '0')}`
  );
}

/** One request on one line: wall time, method, path, status, code, latency, request id. */
export function line(r: InspectedRequestSummary): string {
  const status =
    r.status >= 500
      ? chalk.red(String(r.status))
      : r.status >= 400
        ? chalk.yellow(String(r.status))
        : chalk.green(String(r.status));
  const path = r.query ? `${r.path}?${r.query}` : r.path;
  return (
    `${clockTime(r.wall_at)}  ${r.method.padEnd(6)} ${path.padEnd(40)} ${status} ` +
    `${(r.error_code ?? '-').padEnd(24)} ${`${r.latency_ms.toFixed(1)}ms`.padStart(9)}  ` +
    `${chalk.dim(r.request_id)}`
  );
}

function validate(opts: TailOptions): { limit: number; intervalMs: number } {
  if (opts.status && !/^([1-5]xx|[1-5]\d\d)$/i.test(opts.status))
    usage(`--status ${opts.status}: give a status (404) or a class (4xx)`);
  const limit = Number(opts.lines ?? '20');
  if (!Number.isInteger(limit) || limit < 1) usage(`--lines ${opts.lines} must be a positive integer`);
  const interval = Number(opts.interval ?? '1');
  if (!Number.isFinite(interval) || interval <= 0)
    usage(`--interval ${opts.interval} must be a positive number of seconds`);
  return { limit, intervalMs: Math.round(interval * 1000) };
}

async function fetchList(profile: Profile, q: string, json: boolean): Promise<InspectedRequestList> {
  return ok(await api<InspectedRequestList>(profile, 'GET', `/admin/sandbox/requests?${q}`), json);
}

export async function tail(opts: TailOptions, g: GlobalOptions): Promise<void> {
  const { limit, intervalMs } = validate(opts);
  const profile = resolveProfile(g);
  const json = Boolean(g.json);
  const first = await fetchList(profile, query(opts, { limit: String(limit) }), json);
  if (!opts.follow) {
    if (json) printJson(first);
    else if (first.requests.length === 0) process.stderr.write('no requests recorded yet that match\n');
    else process.stdout.write(`${first.requests.map(line).join('\n')}\n`);
    return;
  }
  // following: one JSON document a line with --json
  const emit = (r: InspectedRequestSummary) => process.stdout.write(`${json ? JSON.stringify(r) : line(r)}\n`);
  first.requests.forEach(emit);
  let after = first.last_seq;
  for (;;) {
    await sleep(intervalMs);
    const next = await fetchList(profile, query(opts, { after: String(after), limit: '1000' }), json);
    next.requests.forEach(emit);
    after = next.last_seq;
  }
}

function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
}

function bodyText(b: InspectedRequest['request']): string {
  if (b.body === null) return chalk.dim('(none)');
  return indent(typeof b.body === 'string' ? b.body : JSON.stringify(b.body, null, 2));
}

const CANONICAL_LINES = [
  'version',
  'X-Svc-Timestamp',
  'method',
  'path',
  'raw query',
  'Idempotency-Key',
  'hex(sha256(body))',
];

function signatureText(sig: NonNullable<InspectedRequest['signature']>, requestId: string): string {
  const lines = sig.canonical_string.split('\n');
  const labelled = lines.map(
    (l, i) => `  ${(CANONICAL_LINES[i] ?? '').padEnd(18)} ${l === '' ? chalk.dim('(empty)') : l}`,
  );
  return [
    chalk.bold('Signature refused: the daemon signed this string (lines joined by \\n, no trailing newline)'),
    ...labelled,
    `  hint: ${sig.hint}`,
    `  e.g. diff <(${svc(`logs show ${requestId} --canonical`)}) <(printf '%s' "$YOUR_STRING_TO_SIGN")`,
  ].join('\n');
}

export async function show(opts: ShowOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const [requestId] = args;
  const json = Boolean(g.json);
  const r = ok(
    await api<InspectedRequest>(resolveProfile(g), 'GET', `/admin/sandbox/requests/${encodeURIComponent(requestId)}`),
    json,
  );
  if (opts.canonical) {
    if (!r.signature) usage(`${requestId} is not a refused signature: it has no canonical string`);
    process.stdout.write(r.signature.canonical_string);
    return;
  }
  if (json) return printJson(r);
  const out = [
    line(r),
    `  at ${r.at} (simulated), ${r.wall_at} (wall)   principal ${r.principal ?? '-'}`,
    chalk.bold('Request headers'),
    ...Object.entries(r.request_headers).map(([k, v]) => `  ${k}: ${v}`),
    chalk.bold(
      `Request body${r.request.content_type ? ` (${r.request.content_type}, ${r.request.size_bytes} bytes)` : ''}`,
    ),
    bodyText(r.request),
    chalk.bold(
      `Response body${r.response.content_type ? ` (${r.response.content_type}, ${r.response.size_bytes} bytes)` : ''}`,
    ),
    bodyText(r.response),
  ];
  if (r.signature) out.push(signatureText(r.signature, r.request_id));
  process.stdout.write(`${out.join('\n')}\n`);
}
