// A rate limit like production's, off by default (docs/faults.md, "Rate limit"): each API key may send
// `limit` requests in any window of `windowMs` (a sliding window over wall time: the instants of its
// last `limit` accepted requests). Refused requests do not count.
import type { RateLimitSpec } from '../contract/rate-limit.js';

export type { RateLimitSpec } from '../contract/rate-limit.js';

export interface RateVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest request in the window leaves it (a slot frees). */
  resetS: number;
}

export interface RateLimit {
  spec(): RateLimitSpec | null;
  set(spec: RateLimitSpec | null): void;
  /** Counts the request of this key at wall time nowMs when it is allowed. */
  take(key: string, nowMs: number): RateVerdict;
  onChange(fn: () => void): void;
}

export function createRateLimit(initial: RateLimitSpec | null): RateLimit {
  let current = initial;
  const seen = new Map<string, number[]>();
  const listeners: Array<() => void> = [];
  return {
    spec: () => current,
    set(spec) {
      current = spec;
      seen.clear();
      for (const fn of listeners) fn();
    },
    take(key, nowMs) {
      const { limit, windowMs } = current!;
      let times = seen.get(key);
      if (!times) seen.set(key, (times = []));
      let drop = 0;
      while (drop < times.length && times[drop] <= nowMs - windowMs) drop++;
      if (drop > 0) times.splice(0, drop);
      const allowed = times.length < limit;
      if (allowed) times.push(nowMs);
      const oldest = times.length > 0 ? times[0] : nowMs;
      const resetS = Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000));
      return { allowed, limit, remaining: limit - times.length, resetS };
    },
    onChange: (fn) => void listeners.push(fn),
  };
}
