// No tenant can stop the clock for everyone (docs/reliability.md, "No tenant can stop the clock"), as
// a property over a real daemon (node dist/daemon/main.js) in a child process. Each case is a fresh
// sandbox with one funded investor, then a random mix of orders, transfers, fund orders, dividends,
// good reports and hostile reports (periods the API now refuses, written straight into the database
// as an older daemon or a hand would leave them, pending or generating, some expiring within
// minutes), and clock advances over random spans. While every advance runs, a separate client polls
// GET /healthz on its own connection. Then:
//   - no answer is a 5xx, every advance is 200;
//   - /healthz answers within 1 s throughout (the bound of issue 26; generous on a shared machine);
//   - the store's invariants hold (the ledger, every object with its postings, holds and activities:
//     test/helpers/crash-daemon.ts storeViolations), no due event is left undone, the audit chain
//     verifies, and every report whose ready minute has passed is ready or failed, each hostile one
//     failed with a code.
// FC_NUM_RUNS raises the number of cases (default 3: each starts a daemon).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fcParams } from '../helpers/fc.js';
import {
  Api,
  call,
  deposit,
  onboard,
  openStore,
  removeHome,
  sleep,
  startDaemon,
  stopDaemon,
  storeViolations,
  tempHome,
  type DaemonProc,
} from '../helpers/crash-daemon.js';
import { HOSTILE_PERIODS, insertHostileReport } from '../helpers/hostile-reports.js';

const HEALTHZ_BOUND_MS = 1_000;
const FAILURE_CODES = [
  'DATE_OUT_OF_RANGE',
  'PERIOD_BEFORE_ACCOUNT',
  'PERIOD_TOO_LONG',
  'INVALID_DATE',
  'GENERATION_FAILED',
];

type Span = { minutes: number } | { hours: number } | { days: number } | { until: 'next_open' | 'next_close' };
type Step =
  | { kind: 'advance'; span: Span }
  | { kind: 'order'; side: 'buy' | 'sell'; qty: number }
  | { kind: 'transfer'; direction: 'deposit' | 'withdrawal'; egp: number }
  | { kind: 'fund'; side: 'subscribe' | 'redeem' }
  | { kind: 'dividend'; exIn: number; payAfter: number }
  | { kind: 'report' }
  | { kind: 'hostile'; period: number; state: 'pending' | 'generating'; expiresInMin: number | null };

const span: fc.Arbitrary<Span> = fc.oneof(
  fc.integer({ min: 1, max: 600 }).map((minutes) => ({ minutes })),
  fc.integer({ min: 1, max: 72 }).map((hours) => ({ hours })),
  fc.integer({ min: 1, max: 45 }).map((days) => ({ days })),
  fc.constantFrom('next_open' as const, 'next_close' as const).map((until) => ({ until })),
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: span.map((s) => ({ kind: 'advance' as const, span: s })) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      qty: fc.integer({ min: 1, max: 20 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      direction: fc.constantFrom('deposit' as const, 'withdrawal' as const),
      egp: fc.integer({ min: 1, max: 5_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('fund' as const),
      side: fc.constantFrom('subscribe' as const, 'redeem' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dividend' as const),
      exIn: fc.integer({ min: 0, max: 4 }),
      payAfter: fc.integer({ min: 0, max: 6 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'report' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('hostile' as const),
      period: fc.integer({ min: 0, max: HOSTILE_PERIODS.length - 1 }),
      state: fc.constantFrom('pending' as const, 'generating' as const),
      expiresInMin: fc.option(fc.integer({ min: 1, max: 600 }), { nil: null }),
    }),
  },
);

interface World {
  d: DaemonProc;
  api: Api;
  probe: Api;
  inv: string;
  tenantId: string;
  fund: string | null;
  /** Every answer that was a 5xx or an advance that was not 200. */
  bad: string[];
  worstHealthzMs: number;
  hostile: string[];
}

const homes: string[] = [];
afterAll(() => homes.forEach(removeHome));

async function world(): Promise<World> {
  const home = tempHome('clock-prop');
  homes.push(home);
  const d = await startDaemon(home);
  const api = Api.of(d);
  const inv = await onboard(api);
  await deposit(api, inv, 140_000);
  await api.advance({ until: 'next_open' });
  await api.expect(
    call('POST', '/v1/orders', { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 50 }),
    201,
  );
  const funds = (await api.get('/v1/funds')).funds as Array<{ fund_code: string }>;
  return {
    d,
    api,
    probe: new Api(d.baseUrl, d.creds),
    inv,
    tenantId: d.creds.tenant_id,
    fund: funds[0]?.fund_code ?? null,
    bad: [],
    worstHealthzMs: 0,
    hostile: [],
  };
}

/** Runs the advance while a separate client polls /healthz; records the slowest answer. */
async function advanceProbed(w: World, s: Span): Promise<void> {
  let done = false;
  const advancing = w.api.send(call('POST', '/admin/sandbox/clock-advance', s, 'admin')).finally(() => (done = true));
  const polling = (async () => {
    while (!done) {
      const h = await w.probe.send(call('GET', '/healthz', undefined, 'none'));
      if (h.status !== 200) w.bad.push(`/healthz answered ${h.status}`);
      w.worstHealthzMs = Math.max(w.worstHealthzMs, h.ms);
      await sleep(15);
    }
  })();
  const a = await advancing;
  await polling;
  if (a.status !== 200) w.bad.push(`advance ${JSON.stringify(s)}: ${a.status} ${a.text.slice(0, 300)}`);
}

async function today(w: World): Promise<{ date: string; ms: number }> {
  const c = await w.api.get('/v1/clock');
  return { date: String(c.timestamp).slice(0, 10), ms: Date.parse(c.timestamp) };
}

const plusDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The request a step sends (null: the step is done another way). */
async function requestOf(w: World, s: Exclude<Step, { kind: 'advance' } | { kind: 'hostile' }>) {
  const investor_id = w.inv;
  if (s.kind === 'order')
    return call('POST', '/v1/orders', { investor_id, symbol: 'COMI', side: s.side, type: 'market', qty: s.qty });
  if (s.kind === 'transfer')
    return call('POST', '/v1/transfers', { investor_id, direction: s.direction, amount_micros: s.egp * 1_000_000 });
  if (s.kind === 'fund') {
    if (!w.fund) return null;
    const body = s.side === 'subscribe' ? { amount_micros: 5_000 * 1_000_000 } : { units_micros: 1_000_000 };
    return call('POST', '/v1/fund-orders', { investor_id, fund_code: w.fund, side: s.side, ...body });
  }
  const t = (await today(w)).date;
  if (s.kind === 'dividend') {
    const ex = plusDays(t, s.exIn);
    return call(
      'POST',
      '/admin/sandbox/declare-dividend',
      { symbol: 'COMI', amount_per_share_micros: 500_000, ex_date: ex, pay_date: plusDays(ex, s.payAfter) },
      'admin',
    );
  }
  return call('POST', '/v1/reports', {
    investor_id,
    type: 'client_statement',
    period_start: `${t.slice(0, 8)}01`,
    period_end: t,
    sections: ['summary'],
  });
}

async function hostile(w: World, s: Extract<Step, { kind: 'hostile' }>): Promise<void> {
  const now = (await today(w)).ms;
  const id = `rpt_hostilep${String(w.hostile.length).padStart(3, '0')}`;
  w.hostile.push(id);
  const db = new Database(join(w.d.home, 'svc.db'));
  db.pragma('busy_timeout = 5000');
  try {
    const [periodStart, periodEnd] = HOSTILE_PERIODS[s.period];
    const createdMs = s.state === 'generating' ? now - 60_000 : now;
    insertHostileReport(db, {
      id,
      tenantId: w.tenantId,
      investorId: w.inv,
      periodStart,
      periodEnd,
      state: s.state,
      createdMs,
      expiresMs: s.expiresInMin === null ? undefined : now + s.expiresInMin * 60_000,
    });
  } finally {
    db.close();
  }
}

async function run(w: World, steps: Step[]): Promise<void> {
  for (const s of steps) {
    if (s.kind === 'advance') await advanceProbed(w, s.span);
    else if (s.kind === 'hostile') await hostile(w, s);
    else {
      const c = await requestOf(w, s);
      if (!c) continue;
      const a = await w.api.send(c);
      if (a.status >= 500) w.bad.push(`${c.method} ${c.url} ${c.body}: ${a.status} ${a.text.slice(0, 300)}`);
    }
  }
  // past every ready minute the steps made (and every short expiry)
  await advanceProbed(w, { hours: 11 });
}

function check(w: World): void {
  expect(w.bad).toEqual([]);
  expect(w.worstHealthzMs, `slowest /healthz during an advance: ${w.worstHealthzMs.toFixed(0)} ms`).toBeLessThan(
    HEALTHZ_BOUND_MS,
  );
  const db = openStore(w.d.home);
  try {
    expect(storeViolations(db, w.tenantId)).toEqual([]);
    const undone = db
      .prepare(
        'SELECT kind, due_ms FROM events WHERE done = 0 AND due_ms <= (SELECT processed_ms FROM sandbox_state ' +
          'WHERE id = 1)',
      )
      .all();
    expect(undone).toEqual([]);
    const stuck = db
      .prepare(
        "SELECT id, state FROM reports WHERE state IN ('pending', 'generating') AND created_ms + 120000 <= " +
          '(SELECT sim_ms FROM sandbox_state WHERE id = 1)',
      )
      .all();
    expect(stuck).toEqual([]);
    for (const id of w.hostile) {
      const r = db
        .prepare<[string], { state: string; reason_code: string }>(
          'SELECT state, reason_code FROM reports WHERE id = ?',
        )
        .get(id)!;
      expect(r.state, id).toBe('failed');
      expect(FAILURE_CODES).toContain(r.reason_code);
    }
  } finally {
    db.close();
  }
}

describe('No tenant can stop the clock for everyone', () => {
  it('random spans over sandboxes with pending reports (hostile periods included), orders, transfers, fund orders and dividends: no 5xx, /healthz within 1 s, invariants hold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 6, maxLength: 16 }), async (steps) => {
        const w = await world();
        try {
          await run(w, steps);
          const verify = await w.api.get('/admin/audit/verify', 'admin');
          expect(verify.ok).toBe(true);
          console.log(
            `case: ${steps.length} steps, ${steps.filter((x) => x.kind === 'advance').length + 1} advances, ` +
              `${w.hostile.length} hostile reports; slowest /healthz ${w.worstHealthzMs.toFixed(0)} ms`,
          );
          check(w);
        } finally {
          await w.api.close();
          await w.probe.close();
          await stopDaemon(w.d);
        }
      }),
      fcParams({ numRuns: 3 }),
    );
  }, 600_000);
});
