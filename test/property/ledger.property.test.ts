// Random sequences of deposits, withdrawals, 666 EGP rail failures, manual approvals and rejections
// and clock advances, through the real API. After every step: the ledger's guarantees hold (per-asset
// sum zero, no negative balance, balances equal the sum of their postings, reserved equals the
// pending holds), and a naive model computed from the transfer list agrees with the balances and
// predicts every refusal. Each run prints its fast-check seed; FC_SEED=<seed> replays it
// (test/helpers/fc.ts).
import fc from 'fast-check';
import { fcParams } from '../helpers/fc.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { seedInvestor } from '../helpers/investors.js';

const EGP = 1_000_000;
const INVESTORS = 2;

/** A fixed amount, or the rest of the investor's daily allowance (capped at 70,000 EGP), or one micro more. */
type Amount = number | 'rest' | 'rest+1';

type Cmd =
  | { kind: 'deposit' | 'withdrawal'; who: number; amount: Amount }
  | { kind: 'manual'; enabled: boolean }
  | { kind: 'approve' | 'reject'; pick: number }
  | { kind: 'advance'; minutes: number };

const amount: fc.Arbitrary<Amount> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 5_000 }).map((e) => e * EGP) },
  { weight: 2, arbitrary: fc.constantFrom('rest' as const, 'rest+1' as const) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 70_000 * EGP }) },
  { weight: 2, arbitrary: fc.constant(666 * EGP) },
  { weight: 1, arbitrary: fc.constant(70_000 * EGP) },
  { weight: 1, arbitrary: fc.constant(70_000 * EGP + 1) },
);

const command: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('deposit' as const), who: fc.nat(INVESTORS - 1), amount }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('withdrawal' as const), who: fc.nat(INVESTORS - 1), amount }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('manual' as const), enabled: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('approve' as const, 'reject' as const), pick: fc.nat(5) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.constantFrom(1, 1, 2, 3, 45, 24 * 60) }),
  },
);

interface Transfer {
  transfer_id: string;
  investor_id: string;
  direction: 'deposit' | 'withdrawal';
  amount_micros: number;
  state: string;
  created_at: string;
}

let t: TestApp;

beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t.close());

async function transfersOf(investorId: string): Promise<Transfer[]> {
  const res = await t.req('GET', `/v1/transfers?investor_id=${investorId}&limit=200`);
  expect(res.status).toBe(200);
  return res.body.transfers;
}

async function cashOf(investorId: string) {
  return (await t.req('GET', `/v1/investors/${investorId}/balances`)).body.cash[0];
}

/** Today's (Cairo) total of the investor's transfers that have not failed, per the model. */
async function usedToday(investorId: string): Promise<number> {
  const today = (await t.req('GET', '/v1/clock')).body.timestamp.slice(0, 10);
  return (await transfersOf(investorId))
    .filter((x) => x.state !== 'failed' && x.created_at.slice(0, 10) === today)
    .reduce((sum, x) => sum + x.amount_micros, 0);
}

async function resolveAmount(investorId: string, a: Amount): Promise<number> {
  if (typeof a === 'number') return a;
  const rest = Math.min(200_000 * EGP - (await usedToday(investorId)), 70_000 * EGP);
  return Math.max(1, a === 'rest' ? rest : rest + 1);
}

/** The refusal the rules predict for a new transfer, from the transfer list and balances alone. */
async function expectedRefusal(
  investorId: string,
  kind: 'deposit' | 'withdrawal',
  amountMicros: number,
): Promise<string | null> {
  if (amountMicros > 70_000 * EGP) return 'TRANSFER_LIMIT_EXCEEDED';
  if ((await usedToday(investorId)) + amountMicros > 200_000 * EGP) return 'DAILY_TRANSFER_LIMIT_EXCEEDED';
  if (kind === 'withdrawal' && (await cashOf(investorId)).settled < amountMicros) return 'INSUFFICIENT_SETTLED_CASH';
  return null;
}

async function run(cmd: Cmd, investors: string[]): Promise<void> {
  switch (cmd.kind) {
    case 'deposit':
    case 'withdrawal': {
      const investorId = investors[cmd.who];
      const amountMicros = await resolveAmount(investorId, cmd.amount);
      const refusal = await expectedRefusal(investorId, cmd.kind, amountMicros);
      const res = await t.req('POST', '/v1/transfers', {
        body: { investor_id: investorId, direction: cmd.kind, amount_micros: amountMicros },
      });
      if (refusal === null) expect(res.status, res.text).toBe(201);
      else expect([res.status, res.body.error?.code]).toEqual([422, refusal]);
      return;
    }
    case 'manual': {
      expect((await t.req('POST', '/admin/sandbox/manual-funding', { body: { enabled: cmd.enabled } })).status).toBe(
        200,
      );
      return;
    }
    case 'approve':
    case 'reject': {
      const waiting = (await t.req('GET', '/broker/v1/funding')).body.funding;
      if (waiting.length === 0) return;
      const id = waiting[cmd.pick % waiting.length].transfer_id;
      const res = await t.req(
        'POST',
        `/broker/v1/funding/${id}/${cmd.kind}`,
        cmd.kind === 'reject' ? { body: { reason_code: 'DEALER_REJECTED' } } : {},
      );
      expect(res.status, res.text).toBe(200);
      return;
    }
    case 'advance':
      await advance(t, { minutes: cmd.minutes });
  }
}

/** The guarantees, and a naive model of each investor's cash computed from the transfer list. */
async function check(investors: string[]): Promise<void> {
  expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
  for (const investorId of investors) {
    const list = await transfersOf(investorId);
    const sum = (pred: (x: Transfer) => boolean) => list.filter(pred).reduce((s, x) => s + x.amount_micros, 0);
    const completedIn = sum((x) => x.direction === 'deposit' && x.state === 'completed');
    const completedOut = sum((x) => x.direction === 'withdrawal' && x.state === 'completed');
    const inFlightOut = sum((x) => x.direction === 'withdrawal' && !['completed', 'failed'].includes(x.state));
    const cash = await cashOf(investorId);
    expect(cash.settled).toBeGreaterThanOrEqual(0);
    expect(cash).toEqual({
      asset: 'cash:EGP',
      settled: completedIn - completedOut - inFlightOut,
      reserved: inFlightOut,
      unsettled: 0,
    });
    for (const x of list)
      if (x.amount_micros === 666 * EGP && ['at_broker', 'completed'].includes(x.state))
        throw new Error(`666 EGP passed the rail: ${x.transfer_id}`);
  }
}

describe('Ledger property: random transfer sequences keep the books balanced', () => {
  it('after every step: per-asset sum zero, no negative settled balance, balances equal the sum of their postings, and the model agrees', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 40, size: 'max' }), async (cmds) => {
        expect(
          (await t.req('POST', '/admin/sandbox/reset', { body: { seed: 42, start: '2026-11-22T22:30:00+02:00' } }))
            .status,
        ).toBe(200);
        const investors = Array.from({ length: INVESTORS }, () => seedInvestor(t));
        // every investor starts with settled cash, so withdrawals and their failures are exercised
        for (const investorId of investors)
          await run({ kind: 'deposit', who: investors.indexOf(investorId), amount: 20_000 * EGP }, investors);
        await run({ kind: 'advance', minutes: 3 }, investors);
        await check(investors);
        for (const cmd of cmds) {
          await run(cmd, investors);
          await check(investors);
        }
      }),
      fcParams({ numRuns: 40 }),
    );
  });
});
