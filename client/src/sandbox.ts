// The sandbox controls (admin key, grant sandbox:control): the clock, the market and fund controls,
// reset, and the push events as an async iterator over the server-sent events of /admin/sandbox/events.
import type { CallOptions } from './http.js';
import { queryString } from './resources.js';
import { BackOffice, type OperatorOptions } from './operator.js';

import type { BodyOf, Op, Paths } from './typed.js';

/** The JSON body of a POST route. */
type B<P extends keyof Paths> = BodyOf<Op<P, 'post'>>;

/** One push event (the repo's docs/inspector.md): fills, cancels, transfer steps, KYC decisions, fund orders. */
export interface SandboxEvent {
  id: number;
  type: string;
  at: string;
  subject: string;
  tenant_id: string | null;
  data: Record<string, unknown>;
}

export interface EventsOptions {
  /** Comma-separated types or families (`order.*`); default every type. */
  types?: string;
  /** Resume after this event id. */
  after?: number;
  /** Ends the iteration (and the stream). */
  signal?: AbortSignal;
}

export class Sandbox extends BackOffice {
  readonly clock = {
    /** Advance by minutes, hours or days, or until an instant, next_open or next_close; runs what falls due. */
    advance: (body: B<'/admin/sandbox/clock-advance'>, o?: CallOptions) =>
      this.request('post', '/admin/sandbox/clock-advance', { body, ...o }),
    /** Advance until an instant (RFC 3339 with offset), 'next_open' or 'next_close'. */
    advanceUntil: (until: string, o?: CallOptions) =>
      this.request('post', '/admin/sandbox/clock-advance', { body: { until }, ...o }),
    /** Switch the clock between frozen and running. */
    setMode: (body: B<'/admin/sandbox/clock'>, o?: CallOptions) =>
      this.request('post', '/admin/sandbox/clock', { body, ...o }),
  };

  constructor(options: OperatorOptions) {
    super(options);
  }

  /** Seed, start, clock, mode and switches. */
  state(o?: CallOptions) {
    return this.request('get', '/admin/sandbox/state', { ...o });
  }
  quote(body: B<'/admin/sandbox/quote'>, o?: CallOptions) {
    return this.request('post', '/admin/sandbox/quote', { body, ...o });
  }
  nav(body: B<'/admin/sandbox/nav'>, o?: CallOptions) {
    return this.request('post', '/admin/sandbox/nav', { body, ...o });
  }
  halt(body: B<'/admin/sandbox/halt'>, o?: CallOptions) {
    return this.request('post', '/admin/sandbox/halt', { body, ...o });
  }
  autoFill(body: B<'/admin/sandbox/auto-fill'>, o?: CallOptions) {
    return this.request('post', '/admin/sandbox/auto-fill', { body, ...o });
  }
  injectBreak(body: B<'/admin/sandbox/inject-break'>, o?: CallOptions) {
    return this.request('post', '/admin/sandbox/inject-break', { body, ...o });
  }
  declareDividend(body: B<'/admin/sandbox/declare-dividend'>, o?: CallOptions) {
    return this.request('post', '/admin/sandbox/declare-dividend', { body, ...o });
  }
  /** Wipe the simulation (tenants, keys and operators stay). */
  reset(body: B<'/admin/sandbox/reset'> = {}, o?: CallOptions) {
    return this.request('post', '/admin/sandbox/reset', { body, ...o });
  }

  /**
   * The push events as they happen, from `after` on: `for await (const e of sandbox.events()) ...`.
   * The daemon records events only while someone listens: to see the events of an action, open the
   * stream first (`await sandbox.openEvents()`), then act.
   */
  async *events(o: EventsOptions = {}): AsyncGenerator<SandboxEvent> {
    yield* await this.openEvents(o);
  }

  /** Opens the event stream and resolves once the daemon is listening; iterate the result for the events. */
  async openEvents(o: EventsOptions = {}): Promise<AsyncGenerator<SandboxEvent>> {
    const url = `${this.core.baseUrl}/admin/sandbox/events${queryString({ types: o.types, after: o.after })}`;
    const headers = { ...this.credentials().headers, accept: 'text/event-stream' };
    const res = await fetch(url, { headers, signal: o.signal });
    if (!res.ok || !res.body) throw new Error(`GET /admin/sandbox/events: HTTP ${res.status} ${await res.text()}`);
    return frames(res.body, o.signal);
  }
}

async function* frames(body: AsyncIterable<Uint8Array>, signal: AbortSignal | undefined): AsyncGenerator<SandboxEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const event = parseFrame(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event) yield event;
        end = buffer.indexOf('\n\n');
      }
    }
  } catch (e) {
    if (!signal?.aborted) throw e;
  }
}

/** One server-sent event frame: its data line's JSON, or null for a comment or a frame without data. */
export function parseFrame(frame: string): SandboxEvent | null {
  const data = frame
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).replace(/^ /, ''))
    .join('\n');
  return data === '' ? null : (JSON.parse(data) as SandboxEvent);
}
