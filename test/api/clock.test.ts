import { afterEach, describe, expect, it } from 'vitest';
import { advance, DEFAULT_START, makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
afterEach(() => t?.close());

/** A wall clock the test moves by hand: clock tests never sleep, so they cannot pass by luck of timing. */
function fakeWall(startMs = Date.parse('2030-01-01T00:00:00Z')) {
  let ms = startMs;
  return { now: () => ms, move: (byMs: number) => void (ms += byMs) };
}

/** The Cairo-offset timestamp `ms` after the default start (whole seconds, as the API answers). */
function isoAfterStart(ms: number): string {
  const d = new Date(Date.parse(DEFAULT_START) + ms + 2 * 3_600_000);
  return `${d.toISOString().slice(0, 19)}+02:00`;
}

describe('Clock: { timestamp, is_open, next_open, next_close } with the Africa/Cairo offset', () => {
  it('GET /v1/clock before the open of a Sunday session', async () => {
    t = await makeApp({ start: '2026-11-22T09:00:00+02:00' });
    const res = await t.req('GET', '/v1/clock');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      timestamp: '2026-11-22T09:00:00+02:00',
      is_open: false,
      next_open: '2026-11-22T10:00:00+02:00',
      next_close: '2026-11-22T14:30:00+02:00',
    });
  });

  it('frozen mode: ten wall minutes pass and the clock does not move; an advance moves it by exactly its amount', async () => {
    const wall = fakeWall();
    t = await makeApp({ clock: 'frozen', wallNow: wall.now });
    wall.move(10 * 60_000);
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe(DEFAULT_START);
    expect(t.deps.clock.now()).toBe(Date.parse(DEFAULT_START));
    await advance(t, { minutes: 5 });
    wall.move(10 * 60_000);
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe('2026-11-22T09:05:00+02:00');
  });

  it('running mode: simulated time follows the wall clock from its anchor, to the millisecond', async () => {
    const wall = fakeWall();
    t = await makeApp({ clock: 'running', wallNow: wall.now });
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe(DEFAULT_START);
    wall.move(1);
    expect(t.deps.clock.now()).toBe(Date.parse(DEFAULT_START) + 1);
    wall.move(90 * 60_000 - 1);
    const res = await t.req('GET', '/v1/clock');
    expect(res.body.timestamp).toBe('2026-11-22T10:30:00+02:00');
    expect(res.body.is_open).toBe(true);
  });

  it.each([
    // [speed, wall ms moved, simulated ms expected]
    [60, 60_000, 3_600_000], // one wall minute = one simulated hour
    [1, 600_000, 600_000],
    [0.5, 600_000, 300_000],
    [2.5, 4_000, 10_000],
    [0.001, 1_000_000, 1_000],
  ])('running at speed %d: %d wall ms move the clock by exactly %d ms', async (speed, wallMs, simMs) => {
    const wall = fakeWall();
    t = await makeApp({ clock: 'frozen', wallNow: wall.now });
    const set = await t.req('POST', '/admin/sandbox/clock', { body: { mode: 'running', speed } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ mode: 'running', speed, timestamp: DEFAULT_START });
    wall.move(wallMs);
    expect(t.deps.clock.now() - Date.parse(DEFAULT_START)).toBe(simMs);
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe(isoAfterStart(simMs));
  });

  it('a speed change re-anchors: time already run is kept and only later wall time runs at the new speed', async () => {
    const wall = fakeWall();
    t = await makeApp({ clock: 'frozen', wallNow: wall.now });
    await t.req('POST', '/admin/sandbox/clock', { body: { mode: 'running', speed: 60 } });
    wall.move(60_000);
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe('2026-11-22T10:00:00+02:00');
    await t.req('POST', '/admin/sandbox/clock', { body: { mode: 'running', speed: 1 } });
    wall.move(10 * 60_000);
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe('2026-11-22T10:10:00+02:00');
  });

  it('freezing a running clock stops it where it is, whatever the wall clock does next', async () => {
    const wall = fakeWall();
    t = await makeApp({ clock: 'running', wallNow: wall.now });
    wall.move(10 * 60_000);
    const frozen = await t.req('POST', '/admin/sandbox/clock', { body: { mode: 'frozen' } });
    expect(frozen.body).toMatchObject({ mode: 'frozen', timestamp: '2026-11-22T09:10:00+02:00' });
    wall.move(10 * 60_000);
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe('2026-11-22T09:10:00+02:00');
  });
});

describe('POST /admin/sandbox/clock-advance takes {minutes}, {hours}, {days} or {until}', () => {
  it.each([
    [{ minutes: 30 }, '2026-11-22T09:30:00+02:00'],
    [{ hours: 2 }, '2026-11-22T11:00:00+02:00'],
    [{ hours: 0.5 }, '2026-11-22T09:30:00+02:00'],
    [{ days: 1 }, '2026-11-23T09:00:00+02:00'],
    [{ until: '2026-11-22T12:15:00+02:00' }, '2026-11-22T12:15:00+02:00'],
    [{ until: '2026-11-22T10:15:00Z' }, '2026-11-22T12:15:00+02:00'],
    [{ until: 'next_open' }, '2026-11-22T10:00:00+02:00'],
    [{ until: 'next_close' }, '2026-11-22T14:30:00+02:00'],
  ])('%j moves the clock to %s and answers with the new clock', async (body, expected) => {
    t = await makeApp();
    const res = await advance(t, body);
    expect(res.body.timestamp).toBe(expected);
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe(expected);
  });

  it('next_open on a Thursday evening skips the Friday-Saturday weekend', async () => {
    t = await makeApp({ start: '2026-11-26T15:00:00+02:00' });
    const res = await advance(t, { until: 'next_open' });
    expect(res.body.timestamp).toBe('2026-11-29T10:00:00+02:00');
    expect(res.body.is_open).toBe(true);
  });

  it.each([
    [{ until: '2026-11-21T09:00:00+02:00' }, 'CLOCK_NOT_ADVANCEABLE'],
    [{ until: 'tomorrow' }, 'INVALID_TIMESTAMP'],
    [{ until: '2026-11-23T09:00:00' }, 'INVALID_TIMESTAMP'],
    [{ hours: -1 }, 'VALIDATION_FAILED'],
    [{ hours: 0 }, 'VALIDATION_FAILED'],
    [{ hours: 1, days: 1 }, 'VALIDATION_FAILED'],
    [{}, 'VALIDATION_FAILED'],
    [{ weeks: 1 }, 'VALIDATION_FAILED'],
    [{ days: 'one' }, 'VALIDATION_FAILED'],
    [{ days: 5000 }, 'CLOCK_ADVANCE_TOO_LARGE'],
  ])('%j is refused with %s and the clock does not move', async (body, code) => {
    t = await makeApp();
    const res = await t.req('POST', '/admin/sandbox/clock-advance', { body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe(code);
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe('2026-11-22T09:00:00+02:00');
  });

  it('sandbox controls need X-Admin-Key with the sandbox:control grant', async () => {
    t = await makeApp();
    expect((await t.req('POST', '/admin/sandbox/clock-advance', { body: { hours: 1 }, as: 'none' })).status).toBe(401);
    const security = await t.req('POST', '/admin/sandbox/clock-advance', { body: { hours: 1 }, as: 'security' });
    expect(security.status).toBe(403);
    expect(security.body.error.code).toBe('FORBIDDEN');
    const dealerKeyAsAdmin = await t.req('POST', '/admin/sandbox/clock-advance', {
      body: { hours: 1 },
      as: 'none',
      headers: { 'x-admin-key': t.creds.operators.dealer_key },
    });
    expect(dealerKeyAsAdmin.status).toBe(401);
  });
});

describe('The scheduler runs every due event in time order', () => {
  it('stored events run at their instant with the clock pinned to it, across one advance', async () => {
    t = await makeApp();
    const seen: Array<[string, string]> = [];
    t.deps.scheduler.on('test.ping', (payload: { n: string }, at) =>
      seen.push([payload.n, t.deps.market.calendar.toIso(at)]),
    );
    const base = t.deps.clock.now();
    t.deps.db.transaction(() => {
      t.deps.scheduler.schedule('test.ping', base + 3 * 60_000, { n: 'c' });
      t.deps.scheduler.schedule('test.ping', base + 60_000, { n: 'a' });
      t.deps.scheduler.schedule('test.ping', base + 2 * 60_000, { n: 'b' });
    })();
    await advance(t, { minutes: 2 });
    expect(seen).toEqual([
      ['a', '2026-11-22T09:01:00+02:00'],
      ['b', '2026-11-22T09:02:00+02:00'],
    ]);
    await advance(t, { hours: 1 });
    expect(seen.map((s) => s[0])).toEqual(['a', 'b', 'c']);
  });

  it('computed sources report their next due instant and run there', async () => {
    t = await makeApp();
    const runs: string[] = [];
    const cal = t.deps.market.calendar;
    t.deps.scheduler.addSource({
      name: 'test.open',
      nextDue: (after) => cal.nextOpen(after),
      run: (at) => runs.push(cal.toIso(at)),
    });
    await advance(t, { days: 7 });
    expect(runs).toEqual([
      '2026-11-22T10:00:00+02:00',
      '2026-11-23T10:00:00+02:00',
      '2026-11-24T10:00:00+02:00',
      '2026-11-25T10:00:00+02:00',
      '2026-11-26T10:00:00+02:00',
    ]);
  });
});
