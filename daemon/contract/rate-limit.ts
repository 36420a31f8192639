// The rate limit's spelling, shared by the daemon (--rate-limit, the reset body) and the CLI:
// "<requests>/<window>", the window s, min or hour ("200/min"). docs/faults.md, "Rate limit".
export interface RateLimitSpec {
  limit: number;
  windowMs: number;
}

const WINDOWS: Record<string, number> = { s: 1000, sec: 1000, min: 60_000, m: 60_000, h: 3_600_000, hour: 3_600_000 };

export const RATE_LIMIT_USAGE = '<requests>/<s|min|hour>, e.g. 200/min';

/** "200/min" as a spec, or null when it is not one (1 to 1,000,000 requests). */
export function parseRateLimit(text: string): RateLimitSpec | null {
  const m = /^(\d{1,7})\/(s|sec|min|m|h|hour)$/.exec(text.trim());
  if (!m) return null;
  const limit = Number(m[1]);
  if (limit < 1 || limit > 1_000_000) return null;
  return { limit, windowMs: WINDOWS[m[2]] };
}

export function formatRateLimit(spec: RateLimitSpec): string {
  const unit = spec.windowMs === 1000 ? 's' : spec.windowMs === 60_000 ? 'min' : 'hour';
  return `${spec.limit}/${unit}`;
}
