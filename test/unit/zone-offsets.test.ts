// The exchange zone's offsets come from a table generated from node's zone data (scripts/zone-offsets.ts,
// daemon/market/calendar/zone-offsets.ts), so that a start computes local dates and RFC 3339 offsets without
// Intl. The table must say exactly what luxon and ICU say, and the local dates, session instants and timestamps
// made from it must be the ones luxon makes.
import { DateTime, IANAZone } from 'luxon';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ZONE_OFFSETS } from '../../daemon/market/calendar/zone-offsets.js';
import { tableOffset } from '../../daemon/market/calendar/zone-table.js';
import { createZoneTime, localDate, localMs, offsetAt, toIso } from '../../daemon/market/calendar/zone-time.js';
import { TABLE_ZONES, computeZoneOffsets, renderZoneOffsets } from '../../scripts/zone-offsets.js';

const CAIRO = 'Africa/Cairo';
const iana = IANAZone.create(CAIRO);
const table = ZONE_OFFSETS[CAIRO];

describe('the zone offset table', () => {
  it('is what scripts/zone-offsets.ts makes from this node’s zone data now (regenerate it when this fails)', () => {
    const tables = Object.fromEntries(TABLE_ZONES.map((z) => [z, computeZoneOffsets(z)]));
    expect(renderZoneOffsets(tables)).toBe(readFileSync('daemon/market/calendar/zone-offsets.ts', 'utf8'));
  });

  it('gives luxon’s offset on both sides of every change, and every three hours from 2024 to 2032', () => {
    for (const at of table.at) {
      for (const ms of [at - 1, at, at + 1, at - 3_600_000, at + 3_600_000])
        expect([ms, tableOffset(table, ms)]).toEqual([ms, iana.offset(ms)]);
    }
    for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2032, 0, 1); ms += 3 * 3_600_000)
      expect(tableOffset(table, ms)).toBe(iana.offset(ms));
    expect(table.at.length).toBeGreaterThan(100);
  });

  it('answers nothing outside its span, where the zone asks luxon instead', () => {
    expect(tableOffset(table, table.from - 1)).toBeUndefined();
    expect(tableOffset(table, table.until)).toBeUndefined();
    const z = createZoneTime(CAIRO);
    const far = Date.UTC(2301, 6, 1, 12);
    expect(offsetAt(z, far)).toBe(iana.offset(far));
    expect(localDate(z, far)).toBe(DateTime.fromMillis(far, { zone: CAIRO }).toISODate());
  });
});

describe('local time in the exchange’s zone from the table', () => {
  it('local dates and RFC 3339 text are luxon’s, around every change since 2000 and through each day', () => {
    const z = createZoneTime(CAIRO);
    const instants = table.at
      .filter((at) => at > Date.UTC(2000, 0, 1))
      .flatMap((at) => [-7_200_000, -60_000, -1000, 0, 1000, 60_000, 7_200_000].map((d) => at + d));
    for (let ms = Date.UTC(2026, 3, 20); ms < Date.UTC(2026, 4, 5); ms += 900_000) instants.push(ms);
    for (const ms of instants) {
      const dt = DateTime.fromMillis(Math.floor(ms / 1000) * 1000, { zone: CAIRO });
      expect([ms, localDate(z, ms)]).toEqual([ms, dt.toISODate()]);
      expect([ms, toIso(z, ms)]).toEqual([ms, dt.toISO({ suppressMilliseconds: true })]);
    }
  });

  it('session instants (HH:MM on a date) are luxon’s on every day of 2023 to 2027, changes included', () => {
    const z = createZoneTime(CAIRO);
    for (let day = DateTime.utc(2023, 1, 1); day.year < 2028; day = day.plus({ days: 1 })) {
      const date = day.toISODate()!;
      for (const hhmm of ['09:30', '10:00', '14:30', '15:00', '23:59', '02:00'])
        expect([date, hhmm, localMs(z, date, hhmm)]).toEqual([
          date,
          hhmm,
          DateTime.fromISO(`${date}T${hhmm}`, { zone: CAIRO }).toMillis(),
        ]);
    }
  });
});
