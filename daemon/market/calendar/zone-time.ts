// Instants and the exchange's zone: the local date of an instant and its RFC 3339 text with offset.
// Every response carries timestamps and the tape asks for local dates every simulated minute, so both
// answer without luxon on the hot path: offsets and their changes fall on quarter hours in every modern
// zone, so a quarter hour has one local date and one offset, cached per quarter hour (bounded).
// The offsets come from a table generated from node's zone data (zone-offsets.ts), within its span, and from
// luxon (Intl) outside it: the first use of Intl costs a start about 13 ms (docs/architecture.md, "Time zone
// offsets").
import { DateTime, IANAZone, Settings } from 'luxon';
import { ZONE_OFFSETS } from './zone-offsets.js';
import { type ZoneOffsetTable, tableOffset } from './zone-table.js';

// luxon formats nothing for people in the daemon, only ISO text, which no locale changes. Without a default
// locale it would ask Intl for the machine's at its first date (the options' --start): Intl's first use again.
Settings.defaultLocale = 'en-US';

const DATE_BUCKET_MS = 900_000;
const two = (n: number) => (n < 10 ? '0' : '') + n;
const DATE_CACHE_LIMIT = 200_000;

export interface ZoneTime {
  readonly zone: string;
  /** luxon's zone, made on first need: outside the table's span, or for a zone it does not hold. */
  iana: IANAZone | null;
  readonly table: ZoneOffsetTable | undefined;
  readonly dateByBucket: Map<number, string>;
  readonly offsetByBucket: Map<number, number>;
  /** The last whole second toIso formatted, and its text: a request stamps several rows with the same instant. */
  lastSecond: number;
  lastIso: string;
}

export function createZoneTime(zone: string): ZoneTime {
  const table = Object.hasOwn(ZONE_OFFSETS, zone) ? ZONE_OFFSETS[zone] : undefined;
  if (!table && !IANAZone.isValidZone(zone)) throw new Error(`unknown time zone: ${zone}`);
  return {
    zone,
    iana: null,
    table,
    dateByBucket: new Map(),
    offsetByBucket: new Map(),
    lastSecond: NaN,
    lastIso: '',
  };
}

function cached<V>(cache: Map<number, V>, ms: number, compute: () => V): V {
  const bucket = Math.floor(ms / DATE_BUCKET_MS);
  let v = cache.get(bucket);
  if (v === undefined) {
    if (cache.size >= DATE_CACHE_LIMIT) cache.clear();
    v = compute();
    cache.set(bucket, v);
  }
  return v;
}

/** The zone's offset in minutes at `ms`: from the table within its span, else from luxon. */
export function offsetAt(z: ZoneTime, ms: number): number {
  const fromTable = z.table && tableOffset(z.table, ms);
  if (fromTable !== undefined) return fromTable;
  z.iana ??= IANAZone.create(z.zone);
  return z.iana.offset(ms);
}

/** Within the table's span (with a day's margin for the offset), else undefined. */
function inTable(z: ZoneTime, ms: number): boolean {
  return z.table !== undefined && ms >= z.table.from + 86_400_000 && ms < z.table.until - 86_400_000;
}

export function localDate(z: ZoneTime, ms: number): string {
  return cached(z.dateByBucket, ms, () => {
    if (!inTable(z, ms)) return DateTime.fromMillis(ms, { zone: z.zone }).toISODate()!;
    const d = new Date(ms + offsetAt(z, ms) * 60_000);
    return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  });
}

/**
 * The instant of HH:MM local time on a date. As luxon finds it: the local time read as UTC, less the offset there,
 * corrected once when the offset at the result differs. A time that a change skips or repeats gets one of its
 * candidates; the exchange's sessions never fall on one.
 */
export function localMs(z: ZoneTime, date: string, hhmm: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = hhmm.split(':').map(Number);
  const local = Date.UTC(y, m - 1, d, hh, mm);
  if (!inTable(z, local)) return DateTime.fromISO(`${date}T${hhmm}`, { zone: z.zone }).toMillis();
  const o1 = offsetAt(z, local);
  const guess = local - o1 * 60_000;
  const o2 = offsetAt(z, guess);
  if (o1 === o2) return guess;
  const second = local - o2 * 60_000;
  const o3 = offsetAt(z, second);
  return o2 === o3 ? second : local - Math.min(o2, o3) * 60_000;
}

/** RFC 3339 with the zone's offset, whole seconds. */
export function toIso(z: ZoneTime, ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second === z.lastSecond) return z.lastIso;
  const offset = cached(z.offsetByBucket, ms, () => offsetAt(z, ms));
  const d = new Date(second * 1000 + offset * 60_000);
  const abs = Math.abs(offset);
  z.lastIso =
    `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}` +
    `${offset < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  z.lastSecond = second;
  return z.lastIso;
}
