// When and how long to wait before trying a request again. A request is retried only when it cannot
// apply twice: a GET, or a request carrying an Idempotency-Key (the daemon answers a repeated key with
// the first answer). Retried: no answer (network error, reset, timeout), 429 (after its Retry-After),
// 500 (an INTERNAL may or may not have applied: the same key makes the retry safe), 502, 503, 504, and
// 409 IDEMPOTENCY_KEY_IN_USE (a duplicate that arrived while the first was in flight).

export interface RetryPolicy {
  /** Attempts in all, the first included (1 = no retry). Default 4. */
  maxAttempts: number;
  /** The first backoff, doubled on each retry. Default 250 ms. */
  baseDelayMs: number;
  /** Backoff cap. Default 8,000 ms. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the 429 is the answer. Default 60,000 ms. */
  maxRetryAfterMs: number;
  /** One attempt's deadline; past it the attempt is aborted and counts as no answer. Default 30,000 ms. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  timeoutMs: 30_000,
};

export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Time, injectable: tests pass a clock whose sleep returns at once and records the wait. */
export interface Clock {
  /** Wall-clock milliseconds (signatures carry its seconds; the daemon accepts 300 s of skew). */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Exponential backoff with "equal jitter": half of min(cap, base * 2^(retry-1)) fixed, half random. */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** A Retry-After header (delay-seconds or an HTTP-date) as milliseconds from `nowMs`; undefined if absent or bad. */
export function retryAfterMs(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
