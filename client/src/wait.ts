// Waiting for outcomes: poll a resource until its state is one asked for. A state that is final and not
// asked for (an order rejected while waiting for a fill) ends the wait with WaitError at once. On a
// frozen sandbox clock nothing moves by itself: `advance` makes each round advance the clock, and still
// paces the reads (ADVANCE_PACE_MS): the sandbox reports more than 5 reads of one resource a second.
import type { components } from './generated/api.js';
import type { CallOptions } from './http.js';
import type { Clock } from './retry.js';

type S = components['schemas'];
export type ClockAdvance = S['ClockAdvanceRequest'];

export interface WaitOptions<State extends string> {
  /** The states to wait for; default: the final states. */
  until?: State | readonly State[];
  /** Between polls; default 250 ms. */
  intervalMs?: number;
  /** Give up after this long (the client's clock); default 60,000 ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Advance the sandbox clock by `step` (default one minute) between polls; then wait ADVANCE_PACE_MS. */
  advance?: { sandbox: ClockAdvancer; step?: ClockAdvance };
}

/**
 * With `advance`, the least wall time between two reads: the sandbox's polling limit is 5 reads of one
 * resource a second (docs/faults.md, `polling_too_fast`), and a read plus an advance can take less.
 */
export const ADVANCE_PACE_MS = 250;

/** What advances the sandbox clock: a Sandbox. */
export interface ClockAdvancer {
  clock: { advance(step: ClockAdvance, o?: CallOptions): Promise<unknown> };
}

type Read<T> = (id: string, o: CallOptions) => Promise<T>;

/** How the waiters read each kind of resource (the tenant client's get methods). */
export interface WaitReaders {
  order: Read<S['Order']>;
  transfer: Read<S['Transfer']>;
  kyc: Read<S['KycApplication']>;
  fundOrder: Read<S['FundOrder']>;
  report: Read<S['Report']>;
}

/** The wait ended in a final state it was not waiting for, or ran out of time: `last` is what was read. */
export class WaitError<T = unknown> extends Error {
  override readonly name = 'WaitError';
  constructor(
    message: string,
    readonly last: T,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

interface Watch<T, State extends string> {
  what: string;
  read: (options: CallOptions) => Promise<T>;
  stateOf: (value: T) => State;
  final: readonly State[];
}

/** Polls `w.read` until its state is one of `until`; see WaitOptions. */
export async function poll<T, State extends string>(
  clock: Clock,
  w: Watch<T, State>,
  o: WaitOptions<State> = {},
): Promise<T> {
  const until: readonly State[] = o.until === undefined ? w.final : typeof o.until === 'string' ? [o.until] : o.until;
  const deadline = clock.now() + (o.timeoutMs ?? 60_000);
  for (;;) {
    const value = await w.read({ signal: o.signal });
    const state = w.stateOf(value);
    if (until.includes(state)) return value;
    if (w.final.includes(state))
      throw new WaitError(`${w.what} ended ${state}, not ${until.join(' or ')}`, value, false);
    if (clock.now() >= deadline)
      throw new WaitError(`${w.what} is still ${state} after ${o.timeoutMs ?? 60_000} ms`, value, true);
    if (o.advance) await o.advance.sandbox.clock.advance(o.advance.step ?? { minutes: 1 }, { signal: o.signal });
    await clock.sleep(o.advance ? Math.min(o.intervalMs ?? 250, ADVANCE_PACE_MS) : (o.intervalMs ?? 250), o.signal);
  }
}

export class Waiters {
  constructor(
    private readonly clock: Clock,
    private readonly read: WaitReaders,
  ) {}

  /** An order until its status is one of `until` (default: filled, canceled, rejected or expired). */
  order(id: string, o?: WaitOptions<S['Order']['status']>): Promise<S['Order']> {
    const final = ['filled', 'canceled', 'rejected', 'expired'] as const;
    const read = (opts: CallOptions) => this.read.order(id, opts);
    return poll(this.clock, { what: `order ${id}`, read, stateOf: (v) => v.status, final }, o);
  }

  /** A transfer until its state is one of `until` (default: completed or failed). */
  transfer(id: string, o?: WaitOptions<S['Transfer']['state']>): Promise<S['Transfer']> {
    const final = ['completed', 'failed'] as const;
    const read = (opts: CallOptions) => this.read.transfer(id, opts);
    return poll(this.clock, { what: `transfer ${id}`, read, stateOf: (v) => v.state, final }, o);
  }

  /** A KYC application until its state is one of `until` (default: approved or rejected). */
  kyc(id: string, o?: WaitOptions<S['KycApplication']['state']>): Promise<S['KycApplication']> {
    const final = ['approved', 'rejected'] as const;
    const read = (opts: CallOptions) => this.read.kyc(id, opts);
    return poll(this.clock, { what: `KYC application ${id}`, read, stateOf: (v) => v.state, final }, o);
  }

  /** A fund order until its state is one of `until` (default: settled or rejected). */
  fundOrder(id: string, o?: WaitOptions<S['FundOrder']['state']>): Promise<S['FundOrder']> {
    const final = ['settled', 'rejected'] as const;
    const read = (opts: CallOptions) => this.read.fundOrder(id, opts);
    return poll(this.clock, { what: `fund order ${id}`, read, stateOf: (v) => v.state, final }, o);
  }

  /** A report until its state is one of `until` (default: ready or failed). */
  report(id: string, o?: WaitOptions<S['Report']['state']>): Promise<S['Report']> {
    const final = ['ready', 'failed'] as const;
    const read = (opts: CallOptions) => this.read.report(id, opts);
    return poll(this.clock, { what: `report ${id}`, read, stateOf: (v) => v.state, final }, o);
  }
}
