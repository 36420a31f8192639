// Reconciliation property (docs/reconciliation.md): random sequences of deposits, withdrawals, market
// orders, fund subscriptions and redemptions, dividends and clock advances (which run settlement,
// transfers, fund sweeps and dividend payments), through the real API. Then:
// 1. a run of every business day from the start to today finds 0 breaks (a clean sandbox agrees with
//    the custodian and the bank whatever happened);
// 2. random breaks injected on distinct (investor, asset) keys of the last business day are each found
//    exactly once by a run of that day, with their kind, and nothing else is.
// Each run prints its fast-check seed; FC_SEED=<seed> replays it (test/helpers/fc.ts).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fcParams } from '../helpers/fc.js';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { seedInvestor } from '../helpers/investors.js';
import { creditCash, EGP } from '../helpers/trading.js';
import { readFixture } from '../../daemon/fixtures.js';
import type { Fund } from '../../daemon/funds/catalog.js';

const CODES = readFixture<Fund[]>('funds.json').map((f) => f.fund_code);
const SYMBOLS = ['COMI', 'SWDY'] as const;
const INVESTORS = 3;
const START = '2026-11-22T09:55:00+02:00';

type Cmd =
  | { kind: 'deposit' | 'withdraw'; who: number; egp: number }
  | { kind: 'order'; who: number; symbol: number; side: 'buy' | 'sell'; qty: number }
  | { kind: 'subscribe'; who: number; fund: number; egp: number }
  | { kind: 'redeem'; who: number; fund: number }
  | { kind: 'dividend'; symbol: number; micros: number; exIn: number; payAfter: number }
  | { kind: 'advance'; minutes: number };

const who = fc.nat(INVESTORS - 1);
const command: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('deposit' as const, 'withdraw' as const),
      who,
      egp: fc.integer({ min: 1, max: 20_000 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      who,
      symbol: fc.nat(SYMBOLS.length - 1),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      qty: fc.integer({ min: 1, max: 80 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('subscribe' as const),
      who,
      fund: fc.nat(CODES.length - 1),
      egp: fc.integer({ min: 500, max: 20_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeem' as const), who, fund: fc.nat(CODES.length - 1) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dividend' as const),
      symbol: fc.nat(SYMBOLS.length - 1),
      micros: fc.integer({ min: 1, max: 3 * EGP }),
      exIn: fc.nat(2),
      payAfter: fc.nat(3),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.constantFrom(5, 90, 300, 1_440, 2_880) }),
  },
);

const ALLOWED_REFUSALS = new Set([
  'INSUFFICIENT_SETTLED_CASH',
  'INSUFFICIENT_SETTLED_SECURITIES',
  'MARKET_CLOSED',
  'DAILY_TRANSFER_LIMIT_EXCEEDED',
  'BELOW_MINIMUM_SUBSCRIPTION',
  'FUND_ORDER_TOO_SMALL',
]);

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t.close());

const tenant = () => t.creds.tenant.tenant_id;
const cal = () => t.deps.market.calendar;
const today = () => cal().localDate(t.deps.clock.now());
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const lastBusinessDay = () => (cal().isTradingDay(today()) ? today() : cal().prevTradingDay(today()));

/** Shares delivered in by the depository (a visible movement, unlike a journal from system:adjustments). */
function deliverShares(investorId: string, symbol: string, qty: number): void {
  const r = t.deps.db.transaction(() =>
    t.deps.ledger.transfer({
      tenantId: tenant(),
      debit: { system: 'clearing', asset: symbol },
      credit: { investorId, asset: symbol, bucket: 'settled' },
      amount: qty,
      kind: 'transfer_in',
      ref: `prop-${investorId}-${symbol}`,
    }),
  )();
  if (!r.ok) throw new Error(`share delivery failed: ${r.code}`);
}

async function step(cmd: Cmd, investors: string[]): Promise<void> {
  const refusedOk = (res: { status: number; body: any; text: string }) => {
    if (res.status >= 300) expect(ALLOWED_REFUSALS.has(res.body.error?.code), res.text).toBe(true);
  };
  switch (cmd.kind) {
    case 'deposit':
    case 'withdraw':
      return refusedOk(
        await t.req('POST', '/v1/transfers', {
          body: {
            investor_id: investors[cmd.who],
            direction: cmd.kind === 'deposit' ? 'deposit' : 'withdrawal',
            amount_micros: cmd.egp * EGP,
          },
        }),
      );
    case 'order':
      return refusedOk(
        await t.req('POST', '/v1/orders', {
          body: {
            investor_id: investors[cmd.who],
            symbol: SYMBOLS[cmd.symbol],
            side: cmd.side,
            type: 'market',
            qty: cmd.qty,
          },
        }),
      );
    case 'subscribe':
      return refusedOk(
        await t.req('POST', '/v1/fund-orders', {
          body: {
            investor_id: investors[cmd.who],
            fund_code: CODES[cmd.fund],
            side: 'subscribe',
            amount_micros: cmd.egp * EGP,
          },
        }),
      );
    case 'redeem': {
      const held = t.deps.ledger.balance(tenant(), {
        investorId: investors[cmd.who],
        asset: `fund:${CODES[cmd.fund]}`,
        bucket: 'settled',
      });
      if (held > 0)
        refusedOk(
          await t.req('POST', '/v1/fund-orders', {
            body: { investor_id: investors[cmd.who], fund_code: CODES[cmd.fund], side: 'redeem', units_micros: held },
          }),
        );
      return;
    }
    case 'dividend': {
      const exDate = addDays(today(), cmd.exIn);
      const res = await t.req('POST', '/admin/sandbox/declare-dividend', {
        body: {
          symbol: SYMBOLS[cmd.symbol],
          amount_per_share_micros: cmd.micros,
          ex_date: exDate,
          pay_date: addDays(exDate, cmd.payAfter),
        },
      });
      expect(res.status, res.text).toBe(201);
      return;
    }
    case 'advance':
      await advance(t, { minutes: cmd.minutes });
  }
}

async function runOf(date: string) {
  const res = await t.req('POST', '/admin/reconciliation/runs', { body: { date } });
  expect(res.status, res.text).toBe(201);
  return res.body as { run_id: string; breaks_found: number; breaks_opened: number };
}

/** Every business day from the start to today reconciles with no break. */
async function expectCleanEveryDay(): Promise<void> {
  for (let d = '2026-11-22'; d <= today(); d = addDays(d, 1)) {
    if (!cal().isTradingDay(d)) continue;
    const run = await runOf(d);
    if (run.breaks_found !== 0) {
      const found = (await t.req('GET', `/admin/reconciliation/breaks?run_id=${run.run_id}`)).body.breaks;
      expect(found, `breaks on ${d}`).toEqual([]);
    }
  }
}

interface Injection {
  kind: 'position' | 'cash' | 'missing' | 'duplicate';
  investor: number;
  /** -1: cash (the bank line); else the symbol's index. */
  asset: number;
  amount: number;
}

const injections = fc.uniqueArray(
  fc.record({
    kind: fc.constantFrom('position' as const, 'cash' as const, 'missing' as const, 'duplicate' as const),
    investor: fc.nat(INVESTORS - 1),
    asset: fc.integer({ min: -1, max: SYMBOLS.length - 1 }),
    amount: fc.integer({ min: -50_000, max: 50_000 }).filter((n) => n !== 0),
  }),
  { maxLength: 6, selector: (i) => `${i.investor}|${i.asset}` },
);

/** Injects what fits the day's statements (a line to remove or repeat; a symbol for a position); returns the expected
 * breaks. */
async function inject(list: Injection[], investors: string[], date: string): Promise<string[]> {
  const expected: string[] = [];
  for (const i of list) {
    const kind =
      i.kind === 'position' && i.asset < 0 ? 'cash' : i.kind === 'cash' && i.asset >= 0 ? 'position' : i.kind;
    const symbol = i.asset >= 0 ? SYMBOLS[i.asset] : undefined;
    const body: Record<string, unknown> = { kind, investor_id: investors[i.investor], date };
    if (symbol) body.symbol = symbol;
    if (kind === 'position' || kind === 'cash') body.amount = i.amount;
    const res = await t.req('POST', '/admin/sandbox/inject-break', { body });
    if (res.status === 422 && res.body.error.code === 'BREAK_LINE_ABSENT') continue;
    expect(res.status, res.text).toBe(201);
    expected.push(`${kind}|${investors[i.investor]}|${symbol ?? 'cash:EGP'}`);
  }
  return expected.sort();
}

describe('Reconciliation property: a clean sandbox has no break; each injected break is found once', () => {
  it('random funding, trading, fund orders, dividends and settlement reconcile with 0 breaks every business day, and injected breaks are found exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 10, maxLength: 40, size: 'max' }),
        injections,
        async (cmds, inj) => {
          expect((await t.req('POST', '/admin/sandbox/reset', { body: { seed: 42, start: START } })).status).toBe(200);
          const investors = Array.from({ length: INVESTORS }, () => seedInvestor(t));
          for (const inv of investors) {
            t.deps.db
              .prepare('UPDATE investors SET suitability_recorded = 1, risk_acknowledged = 1 WHERE id = ?')
              .run(inv);
            creditCash(t, inv, 60_000 * EGP);
            deliverShares(inv, SYMBOLS[0], 100);
          }
          await advance(t, { minutes: 10 });
          for (const cmd of cmds) await step(cmd, investors);
          expect(t.deps.ledger.checkInvariants().ok).toBe(true);
          await expectCleanEveryDay();

          const date = lastBusinessDay();
          const expected = await inject(inj, investors, date);
          const run = await runOf(date);
          const found = (await t.req('GET', `/admin/reconciliation/breaks?run_id=${run.run_id}&limit=1000`)).body
            .breaks as any[];
          expect(found.map((b) => `${b.kind}|${b.investor_id}|${b.asset}`).sort()).toEqual(expected);
          expect(run.breaks_found).toBe(expected.length);
        },
      ),
      fcParams({ numRuns: 15 }),
    );
  }, 600_000);
});
