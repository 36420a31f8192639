// Instants and the exchange's zone: the local date of an instant and its RFC 3339 text with offset.
// Every response carries timestamps and the tape asks for local dates every simulated minute, so both
// answer without luxon on the hot path: offsets and their changes fall on quarter hours in every modern
// zone, so a quarter hour has one local date and one offset, cached per quarter hour (bounded).
import { DateTime, IANAZone } from 'luxon';

const DATE_BUCKET_MS = 900_000;
const DATE_CACHE_LIMIT = 200_000;

export interface ZoneTime {
  readonly zone: string;
  readonly iana: IANAZone;
  readonly dateByBucket: Map<number, string>;
  readonly offsetByBucket: Map<number, number>;
  /** The last whole second toIso formatted, and its text: a request stamps several rows with the same instant. */
  lastSecond: number;
  lastIso: string;
}

export function createZoneTime(zone: string): ZoneTime {
  if (!IANAZone.isValidZone(zone)) throw new Error(`unknown time zone: ${zone}`);
  return {
    zone,
    iana: IANAZone.create(zone),
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

export function localDate(z: ZoneTime, ms: number): string {
  return cached(z.dateByBucket, ms, () => DateTime.fromMillis(ms, { zone: z.zone }).toISODate()!);
}

/** The instant of HH:MM local time on a date. */
export function localMs(z: ZoneTime, date: string, hhmm: string): number {
  return DateTime.fromISO(`${date}T${hhmm}`, { zone: z.zone }).toMillis();
}

const two = (n: number) => (n < 10 ? '0' : '') + n;

/** RFC 3339 with the zone's offset, whole seconds. */
export function toIso(z: ZoneTime, ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second === z.lastSecond) return z.lastIso;
  const offset = cached(z.offsetByBucket, ms, () => z.iana.offset(ms));
  const d = new Date(second * 1000 + offset * 60_000);
  const abs = Math.abs(offset);
  z.lastIso =
    `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}` +
    `${offset < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  z.lastSecond = second;
  return z.lastIso;
}
