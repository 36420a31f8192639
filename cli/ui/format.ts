// Text for the live screens: prices at their tick's precision, fund units and their value, Cairo wall
// times read straight from the daemon's RFC 3339 strings (they carry the Cairo offset), durations
// between two of them. The numbers themselves go through daemon/contract/money.ts (cli/output.ts).
import { price, units } from '../output.js';
import type { Quote } from '../live/source.js';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/;

/** A price at its tick's decimals: three below 2 EGP (0.001 ticks), two above; an average is rounded. */
export function priceText(micros: number | null | undefined): string {
  return price(micros);
}

export function quotePrice(q: Quote): string {
  return priceText(q.price_micros);
}

/** Unit-micros as units with six decimals. */
export function unitsText(unitMicros: number): string {
  return units(unitMicros);
}

/**
 * The EGP micros of fund units at a NAV per whole unit, floored as the portfolio read values them.
 * In BigInt: units times NAV passes 2^53 from about 900 units at a NAV of 10 EGP.
 */
export function fundValueMicros(unitMicros: number, navMicros: number): number {
  return Number((BigInt(unitMicros) * BigInt(navMicros)) / 1_000_000n);
}

export function signedPct(fraction: number): string {
  return `${fraction > 0 ? '+' : ''}${(fraction * 100).toFixed(2)}%`;
}

/** "Sun 22 Nov 2026 10:00" (the local time the string carries). */
export function wallTime(iso: string, withYear = true): string {
  const m = ISO_RE.exec(iso);
  if (!m) return iso;
  const [, y, mo, d, h, mi] = m;
  const weekday = WEEKDAYS[new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d))).getUTCDay()];
  return `${weekday} ${Number(d)} ${MONTHS[Number(mo) - 1]}${withYear ? ` ${y}` : ''} ${h}:${mi}`;
}

/** "10:00" */
export function hhmm(iso: string): string {
  const m = ISO_RE.exec(iso);
  return m ? `${m[4]}:${m[5]}` : iso;
}

/** "10:00" on the same (Cairo) day as `nowIso`, else "22 Nov". */
export function timeOrDate(iso: string, nowIso: string): string {
  if (iso.slice(0, 10) === nowIso.slice(0, 10)) return hhmm(iso);
  const m = ISO_RE.exec(iso);
  return m ? `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]}` : iso;
}

/** "4h30m", "2d 3h", "12m" from one instant to a later one. */
export function span(fromIso: string, toIso: string): string {
  const minutes = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  return `${m}m`;
}

export function pad(text: string, width: number, right = false): string {
  const t = text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
  return right ? t.padStart(width) : t.padEnd(width);
}
