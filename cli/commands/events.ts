// svc events tail: the sandbox's push events (GET /admin/sandbox/events, server-sent events;
// docs/inspector.md). Prints each event on a line, or with --forward POSTs each to a local URL (a JSON
// body, the type in an Svc-Event-Type header) and prints the answer's status, like a webhook relay
// for local development. Reconnects with Last-Event-ID when the stream drops, so nothing is missed.
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { DaemonUnreachable, verifySandbox } from '../client/http.js';
import { resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { chalk, CliExit, egp, EXIT, info, usage } from '../output.js';
import { EVENT_TYPES, type SandboxEvent } from '../../daemon/contract/events.js';

export interface TailOptions {
  types?: string;
  forward?: string;
  after?: string;
}

const FAMILIES = new Set(EVENT_TYPES.map((t) => t.slice(0, t.indexOf('.'))));

function checkTypes(types: string | undefined): void {
  for (const t of types ? types.split(',') : []) {
    const family = t.endsWith('.*') ? t.slice(0, -2) : t.includes('.') ? null : t;
    if (family !== null ? !FAMILIES.has(family) : !(EVENT_TYPES as readonly string[]).includes(t)) {
      usage(`--types: ${t} is not an event type (${EVENT_TYPES.join(', ')}; or a family such as order.*)`);
    }
  }
}

/** What changed, in a few words. */
export function summary(e: SandboxEvent): string {
  const d = e.data as Record<string, string | number | null>;
  if (e.type.startsWith('order.'))
    return `${d.side} ${d.filled_qty}/${d.qty} ${d.symbol}${d.reason_code ? ` (${d.reason_code})` : ''}`;
  if (e.type.startsWith('transfer.'))
    return `${d.direction} ${egp(Number(d.amount_micros))} EGP${d.reason_code ? ` (${d.reason_code})` : ''}`;
  if (e.type.startsWith('fund_order.')) return `${d.side} ${d.fund_code}${d.reason_code ? ` (${d.reason_code})` : ''}`;
  if (e.type.startsWith('kyc.')) return `${d.investor_id ?? ''}${d.reason_code ? ` (${d.reason_code})` : ''}`;
  return '';
}

function eventLine(e: SandboxEvent): string {
  return `${e.at}  ${chalk.bold(e.type.padEnd(22))} ${e.subject.padEnd(16)} ${summary(e)}`;
}

async function forward(url: string, e: SandboxEvent): Promise<string> {
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'svc-event-type': e.type, 'svc-event-id': String(e.id) },
      body: JSON.stringify(e),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    await res.body.dump();
    const s = String(res.statusCode);
    return res.statusCode < 300 ? chalk.green(s) : chalk.red(s);
  } catch (err) {
    return chalk.red(`failed (${(err as Error).message})`);
  }
}

/** Splits the SSE text into frames and returns the events of the complete ones, and what is left. */
export function parseFrames(buf: string): { events: SandboxEvent[]; rest: string } {
  const events: SandboxEvent[] = [];
  let i: number;
  while ((i = buf.indexOf('\n\n')) >= 0) {
    const data = buf
      .slice(0, i)
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .join('\n');
    buf = buf.slice(i + 2);
    if (data) events.push(JSON.parse(data) as SandboxEvent);
  }
  return { events, rest: buf };
}

/** One connection: delivers events until the stream ends; returns the last event id seen. */
async function stream(
  profile: Profile,
  opts: TailOptions,
  last: number | null,
  onOpen: () => void,
  deliver: (e: SandboxEvent) => Promise<void>,
): Promise<number | null> {
  const q = new URLSearchParams();
  if (opts.types) q.set('types', opts.types);
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (profile.admin_key) headers['x-admin-key'] = profile.admin_key;
  if (last !== null) headers['last-event-id'] = String(last);
  const res = await request(`${profile.base_url}/admin/sandbox/events${q.size ? `?${q}` : ''}`, {
    method: 'GET',
    headers,
    headersTimeout: 30_000,
    bodyTimeout: 0,
  });
  if (res.statusCode !== 200) {
    const text = await res.body.text();
    throw Object.assign(new Error(`HTTP ${res.statusCode}: ${text}`), { refused: true });
  }
  onOpen();
  let buf = '';
  for await (const chunk of res.body) {
    const parsed = parseFrames(buf + (chunk as Buffer).toString('utf8'));
    buf = parsed.rest;
    for (const e of parsed.events) {
      await deliver(e);
      last = e.id;
    }
  }
  return last;
}

export async function tail(opts: TailOptions, g: GlobalOptions): Promise<void> {
  checkTypes(opts.types);
  if (opts.forward && !/^https?:\/\//.test(opts.forward))
    usage(`--forward ${opts.forward}: give an http:// or https:// URL`);
  if (opts.after !== undefined && !/^\d+$/.test(opts.after)) usage(`--after ${opts.after} must be an event id`);
  const profile = resolveProfile(g);
  await verifySandbox(profile);
  const json = Boolean(g.json);
  const deliver = async (e: SandboxEvent) => {
    if (opts.forward) {
      const status = await forward(opts.forward, e);
      process.stdout.write(
        json
          ? `${JSON.stringify({
              id: e.id,
              type: e.type,
              subject: e.subject,
              forwarded_to: opts.forward,
              status: status.replace(/\x1b\[[0-9;]*m/g, ''),
            })}\n`
          : `${eventLine(e)}  -> ${status}\n`,
      );
    } else process.stdout.write(`${json ? JSON.stringify(e) : eventLine(e)}\n`);
  };
  let last: number | null = opts.after !== undefined ? Number(opts.after) : null;
  let connected = false;
  info(
    `listening for ${opts.types ?? 'all'} events at ${profile.base_url}` +
      `${opts.forward ? `, forwarding to ${opts.forward}` : ''} (Ctrl-C stops)`,
  );
  for (;;) {
    try {
      last = await stream(profile, opts, last, () => (connected = true), deliver);
    } catch (err) {
      if ((err as { refused?: boolean }).refused) {
        process.stderr.write(`${chalk.red('error')} the daemon refused the event stream: ${(err as Error).message}\n`);
        throw new CliExit(EXIT.apiError);
      }
      if (!connected) throw new DaemonUnreachable(profile.base_url, err);
    }
    info('the event stream dropped; reconnecting');
    await sleep(2000);
  }
}
