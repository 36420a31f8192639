// GET /broker/v1/reference/{kind}: the desk's reference data is what the daemon applies: the same
// catalog and calendar the tenant API serves, the fee lines a real fill is charged, the tick grid the
// order rules enforce, and the holidays the calendar skips.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addConsoleOperator, advance, makeApp, type TestApp } from '../helpers/app.js';
import { EGP, order, trader } from '../helpers/trading.js';
import {
  ReferenceCalendarSchema,
  ReferenceFeesSchema,
  ReferenceHolidaysSchema,
  ReferenceInstrumentsSchema,
  ReferenceTicksSchema,
} from '../../daemon/contract/schemas/desk-reports.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const ref = (kind: string, query = '', key?: string) =>
  t.req('GET', `/broker/v1/reference/${kind}${query}`, key ? { headers: { 'x-console-key': key } } : {});

/** value x rate (tenths of a bp), half up to the micro: the rule the reference states. */
const charge = (value: number, bpsX10: number) => Number((BigInt(value) * BigInt(bpsX10) * 2n + 100_000n) / 200_000n);

describe('the desk reference serves what the daemon applies', () => {
  it('instruments: the catalog exactly as GET /v1/instruments lists it', async () => {
    const desk = await ref('instruments');
    expect(desk.status).toBe(200);
    const tenant = await t.req('GET', '/v1/instruments');
    expect(desk.body).toEqual(tenant.body);
    expect(desk.body.instruments.map((i: any) => i.symbol)).toContain('COMI');
  });

  it('calendar: the current year by default, a chosen year, or a range; the rows GET /v1/calendar gives', async () => {
    const year = (await ref('calendar')).body;
    expect(year).toMatchObject({ zone: 'Africa/Cairo', start_date: '2026-01-01', end_date: '2026-12-31' });
    expect(year.calendar.length).toBeGreaterThan(230);
    expect(year.calendar.every((d: any) => d.date.startsWith('2026-'))).toBe(true);
    const tenant = (await t.req('GET', '/v1/calendar?start=2026-11-01&end=2026-11-30')).body.calendar;
    const range = (await ref('calendar', '?start=2026-11-01&end=2026-11-30')).body;
    expect(range.calendar).toEqual(tenant);
    expect(range.calendar.find((d: any) => d.date === '2026-11-22')).toMatchObject({ settlement_date: '2026-11-24' });
    expect((await ref('calendar', '?year=2027')).body.calendar[0].date.startsWith('2027-')).toBe(true);
    expect((await ref('calendar', '?year=2026&start=2026-01-01')).body.error.code).toBe('INVALID_RANGE');
    expect((await ref('calendar', '?start=2026-02-30')).body.error.code).toBe('INVALID_DATE');
    expect((await ref('calendar', '?start=2026-12-01&end=2026-11-01')).body.error.code).toBe('INVALID_RANGE');
    expect((await ref('calendar', '?year=26')).body.error.code).toBe('VALIDATION_FAILED');
  });

  it('fees: each line with rate, minimum and cap; applied to a real fill they give exactly what it was charged', async () => {
    const fees = (await ref('fees')).body;
    const lines = Object.fromEntries(fees.lines.map((l: any) => [l.line, l]));
    expect(Object.keys(lines)).toEqual(['commission', 'egx', 'mcdr', 'ipf', 'fra', 'stamp_duty']);
    expect(lines.commission).toMatchObject({ kind: 'fee', min_micros: 5 * EGP, max_micros: null });
    expect(lines.egx).toMatchObject({ kind: 'fee', min_micros: null, max_micros: 5_000 * EGP });
    expect(lines.stamp_duty.kind).toBe('withholding');
    for (const l of fees.lines) expect(Number(l.rate)).toBeCloseTo(l.rate_bps_x10 / 100_000, 12);

    const inv = await trader(t, 2_000_000);
    await advance(t, { until: '2026-11-22T10:05:00+02:00' });
    const placed = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10_000 });
    expect(placed.body.status).toBe('filled');
    const fill = (await t.req('GET', `/v1/orders/${placed.body.order_id}/contract-note`)).body.fills[0];
    const value = fill.qty * fill.price_micros;
    const expected = (l: any) => {
      const v = charge(value, l.rate_bps_x10);
      return Math.min(l.max_micros ?? Infinity, Math.max(l.min_micros ?? 0, v));
    };
    expect(fill.fees.commission_micros).toBe(expected(lines.commission));
    expect(fill.fees.egx_micros).toBe(expected(lines.egx));
    expect(fill.fees.mcdr_micros).toBe(expected(lines.mcdr));
    expect(fill.fees.ipf_micros).toBe(expected(lines.ipf));
    expect(fill.fees.fra_micros).toBe(expected(lines.fra));
    const eod = (await t.req('GET', '/broker/v1/eod')).body;
    expect(eod.trades[0].fees.stamp_duty_micros).toBe(expected(lines.stamp_duty));
  });

  it('ticks: 0.001 EGP below 2 EGP, 0.01 EGP from 2 EGP, the 20% band; a limit off that grid is refused', async () => {
    expect((await ref('ticks')).body).toMatchObject({
      ticks: [
        { from_micros: 1_000, below_micros: 2_000_000, tick_micros: 1_000 },
        { from_micros: 2_000_000, below_micros: null, tick_micros: 10_000 },
      ],
      band_bps: 2_000,
    });
    const quote = (await t.req('GET', '/v1/instruments/COMI/quote')).body;
    expect(quote.band.pct).toBe(0.2);
    expect(quote.tick_micros).toBe(quote.ref_price_micros >= 2_000_000 ? 10_000 : 1_000);
    const inv = await trader(t);
    const off = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 1,
      limit_price_micros: quote.ref_price_micros + 5_000,
      time_in_force: 'gtc',
    });
    expect(off.body.error.code).toBe('TICK_VIOLATION');
  });

  it('holidays: every listed holiday, or one year; a weekday holiday is not a trading day in the calendar', async () => {
    const all = (await ref('holidays')).body.holidays;
    const y2026 = (await ref('holidays', '?year=2026')).body.holidays;
    expect(y2026.length).toBeGreaterThan(5);
    expect(y2026.every((h: any) => h.date.startsWith('2026-') && h.name && h.name_ar)).toBe(true);
    expect(all.length).toBeGreaterThan(y2026.length);
    const days = new Set((await ref('calendar', '?year=2026')).body.calendar.map((d: any) => d.date));
    for (const h of y2026) expect(days.has(h.date), h.date).toBe(false);
  });
});

describe('each reference reply is exactly what /openapi.json documents', () => {
  it('parses with its schema and comes back unchanged (no undeclared, missing or mistyped field)', async () => {
    const schemas = {
      instruments: ReferenceInstrumentsSchema,
      calendar: ReferenceCalendarSchema,
      fees: ReferenceFeesSchema,
      ticks: ReferenceTicksSchema,
      holidays: ReferenceHolidaysSchema,
    };
    for (const [kind, schema] of Object.entries(schemas)) {
      const body = (await ref(kind)).body;
      expect(schema.parse(body), kind).toEqual(body);
    }
  });
});

describe('each reference route needs reference:read', () => {
  it('403 FORBIDDEN naming the grant without it, 401 without a console key; eod:read alone is not enough', async () => {
    const eodOnly = addConsoleOperator(t, 'eod-only', ['eod:read']);
    const reader = addConsoleOperator(t, 'ref-only', ['reference:read']);
    for (const kind of ['instruments', 'calendar', 'fees', 'ticks', 'holidays']) {
      const forbidden = await ref(kind, '', eodOnly);
      expect(forbidden.status, kind).toBe(403);
      expect(forbidden.body.error.message).toContain('reference:read');
      expect((await t.req('GET', `/broker/v1/reference/${kind}`, { as: 'none' })).status, kind).toBe(401);
      expect((await ref(kind, '', reader)).status, kind).toBe(200);
    }
    expect((await ref('nope')).status).toBe(404);
  });
});
