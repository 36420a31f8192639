// Reconciliation (docs/reconciliation.md): the external statements computed from the ledger, breaks
// injected on the external side only, runs that find them, and a break's lifecycle.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { cash, creditShares, EGP, order, position, trader } from '../helpers/trading.js';

// Sunday 2026-11-22 09:00 Cairo; the session opens at 10:00. A Sunday buy settles on Tuesday the 24th.
let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const at = (iso: string) => advance(t, { until: iso });
const inject = (body: Record<string, unknown>) => t.req('POST', '/admin/sandbox/inject-break', { body });
const run = async (date: string) => {
  const res = await t.req('POST', '/admin/reconciliation/runs', { body: { date } });
  expect(res.status, res.text).toBe(201);
  return res.body;
};
const breaks = async (query = '') => (await t.req('GET', `/admin/reconciliation/breaks${query}`)).body.breaks as any[];
const statement = async (date: string, source: 'custodian' | 'bank', investor?: string) => {
  const res = await t.req(
    'GET',
    `/admin/reconciliation/statements?date=${date}&source=${source}${investor ? `&investor_id=${investor}` : ''}`,
  );
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const count = (table: string) => (t.deps.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const buy = async (investor_id: string, symbol: string, qty: number) => {
  const res = await order(t, { investor_id, symbol, side: 'buy', type: 'market', qty });
  expect(res.body.status, res.text).toBe('filled');
  return res.body;
};

/** Two investors: one buys 10 COMI on Sunday (settles Tuesday), one only deposits. */
async function tradingDay() {
  const a = await trader(t, 50_000);
  const b = await trader(t, 20_000);
  await at('2026-11-22T10:05:00+02:00');
  await buy(a, 'COMI', 10);
  return { a, b };
}

describe('External statements: the custodian and the bank see settled positions and cash on their value dates', () => {
  it('a purchase is on the custodian statement from its settlement date, its cash leaves the bank statement on the trade date', async () => {
    const { a, b } = await tradingDay();
    const sunday = await statement('2026-11-22', 'custodian');
    expect(sunday.lines).toEqual([]);
    const bank = await statement('2026-11-22', 'bank');
    expect(bank.as_of).toBe('2026-11-23T00:00:00+02:00');
    const byInvestor = Object.fromEntries(bank.lines.map((l: any) => [l.investor_id, l.quantity]));
    expect(byInvestor[a]).toBe(cash(t, a).settled + cash(t, a).reserved);
    expect(byInvestor[b]).toBe(20_000 * EGP);
    await at('2026-11-24T12:00:00+02:00');
    expect(position(t, a, 'COMI').settled).toBe(10);
    expect((await statement('2026-11-23', 'custodian')).lines).toEqual([]);
    expect((await statement('2026-11-24', 'custodian', a)).lines).toEqual([
      { line: 1, tenant_id: t.creds.tenant.tenant_id, investor_id: a, asset: 'COMI', quantity: 10 },
    ]);
  });

  it('a clean sandbox reconciles with 0 breaks on the trade date and on the settlement date', async () => {
    await tradingDay();
    expect(await run('2026-11-22')).toMatchObject({
      date: '2026-11-22',
      breaks_found: 0,
      breaks_opened: 0,
      investors: 2,
      custodian_lines: 0,
      bank_lines: 2,
    });
    await at('2026-11-24T12:00:00+02:00');
    expect(await run('2026-11-24')).toMatchObject({ breaks_found: 0, custodian_lines: 1, bank_lines: 2 });
    expect(await breaks()).toEqual([]);
  });

  it('shares credited by an internal adjustment, which no custodian movement backs, are a break: the custodian statement has no line for them', async () => {
    const a = await trader(t, 1_000);
    creditShares(t, a, 'SWDY', 7);
    await run('2026-11-22');
    expect(await breaks()).toMatchObject([
      { kind: 'missing', investor_id: a, asset: 'SWDY', ledger_value: 7, external_value: 0, difference: 7 },
    ]);
  });
});

describe('inject-break corrupts the external side only, and a run finds each kind once', () => {
  it('position, cash, missing and duplicate: one break each, with ledger value, external value and difference; the ledger is untouched', async () => {
    const { a, b } = await tradingDay();
    const c = await trader(t, 5_000);
    await at('2026-11-24T12:00:00+02:00');
    const before = { a: cash(t, a), comi: position(t, a, 'COMI') };
    const pos = await inject({ kind: 'position', investor_id: a, symbol: 'COMI', amount: 5 });
    expect(pos.status, pos.text).toBe(201);
    expect(pos.body).toMatchObject({
      injection_id: expect.stringMatching(/^inj_/),
      kind: 'position',
      asset: 'COMI',
      amount: 5,
      from_date: '2026-11-24',
      through_date: null,
    });
    expect((await inject({ kind: 'cash', investor_id: b, amount: -1_500_000 })).status).toBe(201);
    expect((await inject({ kind: 'missing', investor_id: c })).status).toBe(201);
    expect((await inject({ kind: 'duplicate', investor_id: a })).status).toBe(201);
    expect({ a: cash(t, a), comi: position(t, a, 'COMI') }).toEqual(before);
    expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });

    const custodian = await statement('2026-11-24', 'custodian', a);
    expect(custodian.lines.map((l: any) => l.quantity)).toEqual([15]);
    const bankA = await statement('2026-11-24', 'bank', a);
    expect(bankA.lines.map((l: any) => l.quantity)).toEqual([before.a.settled, before.a.settled]);

    const r = await run('2026-11-24');
    expect(r).toMatchObject({ breaks_found: 4, breaks_opened: 4 });
    const found = (await breaks()).map((x) => [
      x.kind,
      x.investor_id,
      x.asset,
      x.ledger_value,
      x.external_value,
      x.difference,
      x.state,
      x.first_seen,
    ]);
    expect(found.sort()).toEqual(
      [
        ['position', a, 'COMI', 10, 15, -5, 'open', '2026-11-24'],
        ['cash', b, 'cash:EGP', 20_000 * EGP, 20_000 * EGP - 1_500_000, 1_500_000, 'open', '2026-11-24'],
        ['missing', c, 'cash:EGP', 5_000 * EGP, 0, 5_000 * EGP, 'open', '2026-11-24'],
        ['duplicate', a, 'cash:EGP', before.a.settled, 2 * before.a.settled, -before.a.settled, 'open', '2026-11-24'],
      ].sort(),
    );
    // The statement of a date before the injection is clean.
    expect((await run('2026-11-23')).breaks_found).toBe(0);
  });

  it('refuses bad input with a stable code and writes nothing', async () => {
    const { a } = await tradingDay();
    const n = count('recon_overrides');
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ kind: 'position', investor_id: 'inv_nobody0000', symbol: 'COMI', amount: 1 }, 404, 'NOT_FOUND'],
      [{ kind: 'position', investor_id: a, symbol: 'NOPE', amount: 1 }, 404, 'UNKNOWN_SYMBOL'],
      [{ kind: 'position', investor_id: a, symbol: 'COMI' }, 422, 'VALIDATION_FAILED'],
      [{ kind: 'cash', investor_id: a, symbol: 'COMI', amount: 1 }, 422, 'VALIDATION_FAILED'],
      [{ kind: 'missing', investor_id: a, amount: 3 }, 422, 'VALIDATION_FAILED'],
      [{ kind: 'cash', investor_id: a, amount: 0 }, 422, 'VALIDATION_FAILED'],
      // unsettled on Sunday: no custodian line
      [{ kind: 'missing', investor_id: a, symbol: 'COMI' }, 422, 'BREAK_LINE_ABSENT'],
      [{ kind: 'cash', investor_id: a, amount: 1, date: '2026-11-23' }, 422, 'RECONCILIATION_DATE_INVALID'],
      [{ kind: 'cash', investor_id: a, amount: 1, date: '2026-11-21' }, 422, 'RECONCILIATION_DATE_INVALID'],
      [{ kind: 'cash', investor_id: a, amount: 1, date: '2026-02-30' }, 422, 'INVALID_DATE'],
      [{ kind: 'cash', investor_id: a, amount: 1, through: '2026-11-18' }, 422, 'INVALID_RANGE'],
    ];
    for (const [body, status, code] of cases) {
      const res = await inject(body);
      expect([res.status, res.body.error?.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(count('recon_overrides')).toBe(n);
  });
});

describe('Runs: dates, one open break per (investor, asset, kind), filters', () => {
  it('a date in the future, on a weekend or on a holiday is 422 RECONCILIATION_DATE_INVALID and records no run', async () => {
    for (const date of ['2026-11-23', '2026-11-21', '2026-10-08']) {
      const res = await t.req('POST', '/admin/reconciliation/runs', { body: { date } });
      expect([res.status, res.body.error.code], date).toEqual([422, 'RECONCILIATION_DATE_INVALID']);
    }
    expect((await t.req('POST', '/admin/reconciliation/runs', { body: { date: '22-11-2026' } })).body.error.code).toBe(
      'INVALID_DATE',
    );
    expect(count('recon_runs')).toBe(0);
  });

  it('running the same day twice keeps one break, seen by both runs; breaks and runs filter', async () => {
    const { a, b } = await tradingDay();
    await inject({ kind: 'cash', investor_id: a, amount: 1_000 });
    await inject({ kind: 'missing', investor_id: b });
    const first = await run('2026-11-22');
    const second = await run('2026-11-22');
    expect(second).toMatchObject({ breaks_found: 2, breaks_opened: 0, breaks_auto_resolved: 0 });
    const all = await breaks();
    expect(all).toHaveLength(2);
    expect(all.every((x) => x.first_run_id === first.run_id && x.last_run_id === second.run_id)).toBe(true);
    expect((await breaks('?kind=cash')).map((x) => x.investor_id)).toEqual([a]);
    expect((await breaks(`?investor_id=${b}`)).map((x) => x.kind)).toEqual(['missing']);
    expect(await breaks('?state=resolved')).toEqual([]);
    expect(await breaks(`?run_id=${second.run_id}`)).toHaveLength(2);
    expect(
      (await t.req('GET', '/admin/reconciliation/runs?date=2026-11-22')).body.runs.map((r: any) => r.run_id),
    ).toEqual([second.run_id, first.run_id]);
    expect((await t.req('GET', `/admin/reconciliation/runs/${first.run_id}`)).body).toMatchObject({
      run_id: first.run_id,
      breaks_opened: 2,
    });
    expect((await t.req('GET', '/admin/reconciliation/runs/rcn_nothing000')).status).toBe(404);
  });
});

describe('A break goes open -> acknowledged -> resolved', () => {
  it('accepted with a note; a second decision is 409 BREAK_STATE_CONFLICT and changes nothing; the next run reopens it as a new break linked to the old one', async () => {
    const { a } = await tradingDay();
    await inject({ kind: 'cash', investor_id: a, amount: 2_000 });
    await run('2026-11-22');
    const [brk] = await breaks();
    const ack = await t.req('POST', `/admin/reconciliation/breaks/${brk.break_id}/acknowledge`, {
      body: { note: 'asked the bank' },
    });
    expect(ack.status, ack.text).toBe(200);
    expect(ack.body).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: expect.stringContaining('admin'),
      note: 'asked the bank',
    });
    expect(
      (await t.req('POST', `/admin/reconciliation/breaks/${brk.break_id}/acknowledge`, { body: {} })).body.error.code,
    ).toBe('BREAK_STATE_CONFLICT');
    expect(
      (
        await t.req('POST', `/admin/reconciliation/breaks/${brk.break_id}/resolve`, {
          body: { resolution: 'accepted' },
        })
      ).body.error.code,
    ).toBe('VALIDATION_FAILED');
    const done = await t.req('POST', `/admin/reconciliation/breaks/${brk.break_id}/resolve`, {
      body: { resolution: 'accepted', note: 'bank fee, booked next month' },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ state: 'resolved', resolution: 'accepted', note: 'bank fee, booked next month' });
    const again = await t.req('POST', `/admin/reconciliation/breaks/${brk.break_id}/resolve`, {
      body: { resolution: 'accepted', note: 'twice' },
    });
    expect([again.status, again.body.error.code]).toEqual([409, 'BREAK_STATE_CONFLICT']);
    expect((await t.req('GET', `/admin/reconciliation/breaks/${brk.break_id}`)).body).toEqual(done.body);

    const rerun = await run('2026-11-22');
    expect(rerun.breaks_opened).toBe(1);
    const open = await breaks('?state=open');
    expect(open).toMatchObject([{ kind: 'cash', investor_id: a, reopens: brk.break_id }]);
    expect(open[0].break_id).not.toBe(brk.break_id);
  });

  it('auto: a later run that finds the statement matching again resolves the break, naming the run', async () => {
    const { a } = await tradingDay();
    await inject({ kind: 'position', investor_id: a, symbol: 'COMI', amount: 3, through: '2026-11-22' });
    await run('2026-11-22');
    const [brk] = await breaks();
    expect(brk).toMatchObject({ kind: 'position', ledger_value: 0, external_value: 3, state: 'open' });
    await at('2026-11-23T12:00:00+02:00');
    const next = await run('2026-11-23');
    expect(next).toMatchObject({ breaks_found: 0, breaks_auto_resolved: 1 });
    expect((await t.req('GET', `/admin/reconciliation/breaks/${brk.break_id}`)).body).toMatchObject({
      state: 'resolved',
      resolution: 'auto',
      resolved_by: next.run_id,
    });
    expect((await t.req('POST', `/admin/reconciliation/breaks/${brk.break_id}/acknowledge`, { body: {} })).status).toBe(
      409,
    );
  });

  it('an unknown break is 404 NOT_FOUND', async () => {
    expect((await t.req('GET', '/admin/reconciliation/breaks/rbk_nothing000')).status).toBe(404);
    expect(
      (
        await t.req('POST', '/admin/reconciliation/breaks/rbk_nothing000/resolve', {
          body: { resolution: 'accepted', note: 'x' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('Sandbox reset', () => {
  it('wipes injected breaks, runs and breaks with the rest of the simulation', async () => {
    const { a } = await tradingDay();
    await inject({ kind: 'cash', investor_id: a, amount: 5 });
    await run('2026-11-22');
    expect((await t.req('POST', '/admin/sandbox/reset', { body: {} })).status).toBe(200);
    expect([count('recon_overrides'), count('recon_runs'), count('recon_breaks')]).toEqual([0, 0, 0]);
    expect((await t.req('GET', '/admin/reconciliation/runs')).body.runs).toEqual([]);
  });
});
