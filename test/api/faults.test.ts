// Faults on purpose (docs/faults.md): rules fire before a request does anything (or after it is
// committed, for lost_response), never on the sandbox controls, from the seeded stream; the report
// says what the client did next. Transport faults need a real socket: test/helpers/wire.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { seedInvestor } from '../helpers/investors.js';
import { DROPPED, listen, type Wire, type WireRes } from '../helpers/wire.js';
import { EGP, trader } from '../helpers/trading.js';
import { applicant } from '../helpers/onboarding.js';
import { rebuild } from '../helpers/replay.js';
import type { JournalEntry } from '../../daemon/contract/journal.js';

let t: TestApp;
afterEach(async () => t?.close());

async function open(seed = 42, wallNow?: () => number): Promise<Wire> {
  t = await makeApp({ seed, wallNow });
  return listen(t);
}

const deposit = (investor_id: string) => ({ investor_id, direction: 'deposit', amount_micros: 1_000 * EGP });
const transfers = () => t.deps.db.prepare('SELECT id FROM transfers ORDER BY id').all() as Array<{ id: string }>;
const answered = (r: WireRes | typeof DROPPED): WireRes => {
  if (r === DROPPED) throw new Error('the connection was dropped');
  return r;
};

describe('a lost_response on POST /v1/transfers', () => {
  it('a client that retries with a new Idempotency-Key is reported with exactly the duplicate transfer id', async () => {
    const w = await open();
    const inv = seedInvestor(t);
    expect(
      (
        await w.admin('POST', '/admin/sandbox/faults', {
          route: 'POST /v1/transfers',
          times: 1,
          effect: { type: 'lost_response' },
        })
      ).status,
    ).toBe(201);
    expect(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'naive-1' })).toBe(DROPPED);
    const retry = answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'naive-2' }));
    expect(retry.status).toBe(201);
    const booked = transfers().map((r) => r.id);
    expect(booked).toHaveLength(2);
    const original = booked.find((id) => id !== retry.body.transfer_id)!;
    const report = (await w.admin('GET', '/admin/sandbox/faults/report')).body;
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]).toMatchObject({
      kind: 'retry_new_key',
      duplicate_id: retry.body.transfer_id,
      resource_ids: [original, retry.body.transfer_id],
    });
    expect(report.events[0]).toMatchObject({ effect: 'lost_response', applied: true, next: 'retried_new_key' });
  });

  it('a client that retries with the same key gets the original transfer back and a clean report', async () => {
    const w = await open();
    const inv = seedInvestor(t);
    await w.admin('POST', '/admin/sandbox/faults', {
      route: 'POST /v1/transfers',
      times: 1,
      effect: { type: 'lost_response' },
    });
    expect(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'good-1' })).toBe(DROPPED);
    const retry = answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'good-1' }));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(transfers().map((r) => r.id)).toEqual([retry.body.transfer_id]);
    const report = (await w.admin('GET', '/admin/sandbox/faults/report')).body;
    expect(report.findings).toEqual([]);
    expect(report.events).toMatchObject([{ next: 'retried_same_key', resource_id: retry.body.transfer_id }]);
    expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
    // the journal holds the rule and the lost answer's request once (the retry was answered from its record)
    const journal = (await w.admin('GET', '/admin/sandbox/journal')).body.entries;
    expect(journal.map((e: { route: string; status: number }) => `${e.route} ${e.status}`)).toEqual([
      'POST /admin/sandbox/faults 201',
      'POST /v1/transfers 201',
    ]);
  });
});

describe('the journal under faults', () => {
  it('the offline replay rebuilds the same transfers: a lost answer is replayed once, a reset left nothing', async () => {
    const w = await open();
    const app = (await t.req('POST', '/v1/kyc/applications', { body: applicant() })).body.application_id;
    expect((await t.req('POST', `/v1/kyc/applications/${app}/submit`)).body.state).toBe('approved');
    const inv = (await t.req('GET', `/v1/kyc/applications/${app}`)).body.investor_id;
    const rule = (effect: string) => ({ route: 'POST /v1/transfers', times: 1, effect: { type: effect } });
    await w.admin('POST', '/admin/sandbox/faults', rule('reset'));
    expect(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'j-1' })).toBe(DROPPED);
    await w.admin('POST', '/admin/sandbox/faults', rule('lost_response'));
    expect(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'j-1' })).toBe(DROPPED);
    expect(answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'j-2' })).status).toBe(201);
    const booked = transfers();
    expect(booked).toHaveLength(2);
    const header = t.deps.journal.header();
    const entries = t.deps.journal.list(0, 1000);
    const first = t;
    t = await makeApp({ seed: 42 });
    try {
      const replayed = await rebuild(t, header, entries);
      expect(replayed.code, JSON.stringify(replayed.lines.slice(-2))).toBe(0);
      expect(transfers()).toEqual(booked);
      expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
    } finally {
      await first.close();
    }
  });
});

describe('the journal records the faults that fired', () => {
  it('a journal made under faults shows each fired fault on its entry, and the replay reproduces the state', async () => {
    const w = await open();
    const app = (await t.req('POST', '/v1/kyc/applications', { body: applicant() })).body.application_id;
    expect((await t.req('POST', `/v1/kyc/applications/${app}/submit`)).body.state).toBe('approved');
    const inv = (await t.req('GET', `/v1/kyc/applications/${app}`)).body.investor_id;
    const rule = (effect: object) => ({ route: 'POST /v1/transfers', times: 1, effect });
    const lost = (await w.admin('POST', '/admin/sandbox/faults', rule({ type: 'lost_response' }))).body.id;
    expect(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'f-1' })).toBe(DROPPED);
    const late = (await w.admin('POST', '/admin/sandbox/faults', rule({ type: 'latency', ms: 5 }))).body.id;
    expect(answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'f-2' })).status).toBe(201);
    await w.admin('POST', '/admin/sandbox/faults', rule({ type: 'status', status: 503 }));
    expect(answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'f-3' })).status).toBe(503);
    expect(answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'f-3' })).status).toBe(201);
    const booked = transfers();
    expect(booked).toHaveLength(3);

    // the journal's answer: the fault on the entry it fired on; the 503 stopped its request, no entry
    const journal = (await w.admin('GET', '/admin/sandbox/journal?limit=1000')).body.entries as JournalEntry[];
    const posts = journal.filter((e) => e.route === 'POST /v1/transfers');
    expect(posts.map((e) => [e.idempotency_key, e.status, e.fault])).toEqual([
      ['f-1', 201, { rule_id: lost, effect: 'lost_response', delay_ms: null }],
      ['f-2', 201, { rule_id: late, effect: 'latency', delay_ms: 5 }],
      ['f-3', 201, null],
    ]);
    expect(journal.filter((e) => e.route !== 'POST /v1/transfers').every((e) => e.fault === null)).toBe(true);

    const header = t.deps.journal.header();
    const entries = t.deps.journal.list(0, 1000);
    const first = t;
    t = await makeApp({ seed: 42 });
    try {
      const replayed = await rebuild(t, header, entries);
      expect(replayed.code, JSON.stringify(replayed.lines.slice(-2))).toBe(0);
      const faulted = replayed.results.filter((r) => r.fault !== null);
      expect(faulted.map((r) => [r.status, r.fault?.effect])).toEqual([
        [201, 'lost_response'],
        [201, 'latency'],
      ]);
      expect(transfers()).toEqual(booked);
      // the rebuilt journal keeps what fired on the original requests
      const again = t.deps.journal.list(0, 1000).filter((e) => e.route === 'POST /v1/transfers');
      expect(again.map((e) => e.fault?.effect ?? null)).toEqual(['lost_response', 'latency', null]);
    } finally {
      await first.close();
    }
  });
});

describe('fault rules', () => {
  it('the same seed and the same requests fire the same faults', async () => {
    const run = async () => {
      const w = await open(7);
      await w.admin('POST', '/admin/sandbox/faults', {
        route: '*',
        probability: 0.3,
        effect: { type: 'status', status: 503 },
      });
      await w.admin('POST', '/admin/sandbox/faults', {
        route: 'GET /v1/orders',
        probability: 0.5,
        effect: { type: 'latency', min_ms: 0, max_ms: 5 },
      });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++)
        statuses.push(answered(await w.tenant('GET', i % 2 ? '/v1/orders' : '/v1/transfers')).status);
      const rules = (await w.admin('GET', '/admin/sandbox/faults')).body.data;
      await t.close();
      return { statuses, fired: rules.map((r: { fired: number }) => r.fired) };
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(first.statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
  });

  it('a status fault answers the error body with Retry-After before the request does anything', async () => {
    const w = await open();
    const inv = seedInvestor(t);
    await w.admin('POST', '/admin/sandbox/faults', {
      route: 'POST /v1/transfers',
      every: 1,
      effect: { type: 'status', status: 503, retry_after_s: 2 },
    });
    const res = answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv) }));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.body.request_id).toMatch(/^req_/);
    expect(transfers()).toEqual([]);
    const again = answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv) }));
    const report = (await w.admin('GET', '/admin/sandbox/faults/report')).body;
    expect(again.status).toBe(503);
    expect(report.findings.map((f: { kind: string }) => f.kind)).toContain('retry_after_ignored');
  });

  it('faults never touch the sandbox controls or the fault routes, and a rule cannot name them', async () => {
    const w = await open();
    await w.admin('POST', '/admin/sandbox/faults', { route: '*', every: 1, effect: { type: 'reset' } });
    expect((await w.admin('GET', '/admin/sandbox/state')).status).toBe(200);
    expect((await w.admin('GET', '/admin/sandbox/faults')).status).toBe(200);
    expect((await w.admin('GET', '/admin/sandbox/faults/report')).status).toBe(200);
    expect(await w.tenant('GET', '/v1/orders')).toBe(DROPPED);
    const refused = await w.admin('POST', '/admin/sandbox/faults', {
      route: 'GET /admin/sandbox/state',
      effect: { type: 'reset' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('FAULT_ROUTE_UNKNOWN');
    expect((await w.admin('DELETE', '/admin/sandbox/faults')).body).toEqual({ removed: 1 });
    expect(answered(await w.tenant('GET', '/v1/orders')).status).toBe(200);
  });

  it('a bad rule is refused with 422 and a code naming the field, and adds nothing', async () => {
    const w = await open();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ route: 'POST /v1/nowhere', effect: { type: 'reset' } }, 'FAULT_ROUTE_UNKNOWN'],
      [{ route: 7, effect: { type: 'reset' } }, 'FAULT_ROUTE_UNKNOWN'],
      [{ route: '*', every: 2, times: 1, effect: { type: 'reset' } }, 'FAULT_TRIGGER_INVALID'],
      [{ route: '*', probability: 1.5, effect: { type: 'reset' } }, 'FAULT_TRIGGER_INVALID'],
      [{ route: '*', effect: { type: 'status' } }, 'FAULT_EFFECT_INVALID'],
      [{ route: '*', effect: { type: 'status', status: 404 } }, 'FAULT_EFFECT_INVALID'],
      [{ route: '*', effect: { type: 'latency', min_ms: 9, max_ms: 3 } }, 'FAULT_EFFECT_INVALID'],
      [{ route: '*', effect: { type: 'timeout' } }, 'FAULT_EFFECT_INVALID'],
      [{ route: '*', effect: { type: 'explode' } }, 'FAULT_EFFECT_INVALID'],
    ];
    for (const [rule, code] of cases) {
      const res = await w.admin('POST', '/admin/sandbox/faults', rule);
      expect(res.status, JSON.stringify(rule)).toBe(422);
      expect(res.body.error.code, JSON.stringify(rule)).toBe(code);
    }
    expect((await w.admin('GET', '/admin/sandbox/faults')).body.data).toEqual([]);
    const added = (await w.admin('POST', '/admin/sandbox/faults', { route: '*', effect: { type: 'reset' } })).body;
    expect((await w.admin('DELETE', `/admin/sandbox/faults/${added.id}`)).body).toEqual({ removed: 1 });
    const gone = await w.admin('DELETE', `/admin/sandbox/faults/${added.id}`);
    expect([gone.status, gone.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('a timeout holds the connection and then drops it, with nothing applied', async () => {
    const w = await open();
    const inv = seedInvestor(t);
    await w.admin('POST', '/admin/sandbox/faults', {
      route: 'POST /v1/transfers',
      times: 1,
      effect: { type: 'timeout', seconds: 1 },
    });
    expect(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'slow-1' })).toBe(DROPPED);
    expect(transfers()).toEqual([]);
    expect(answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'slow-1' })).status).toBe(201);
    expect((await w.admin('GET', '/admin/sandbox/faults/report')).body.findings).toEqual([]);
  });
});

describe('the report without a fault fired', () => {
  it('one resource read more than 5 times in a second is polling_too_fast, with the rate', async () => {
    // a wall clock that stands still: every read falls in the same second, whatever the machine's load
    const w = await open(42, () => Date.parse('2026-11-28T03:00:00Z'));
    const inv = seedInvestor(t);
    // any rule opens the report; this one never matches
    await w.admin('POST', '/admin/sandbox/faults', {
      route: 'POST /v1/fund-orders',
      times: 1,
      effect: { type: 'reset' },
    });
    const trf = answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv) })).body.transfer_id;
    for (let i = 0; i < 5; i++) await w.tenant('GET', `/v1/transfers/${trf}`);
    expect((await w.admin('GET', '/admin/sandbox/faults/report')).body.findings).toEqual([]);
    for (let i = 0; i < 3; i++) await w.tenant('GET', `/v1/transfers/${trf}`);
    const report = (await w.admin('GET', '/admin/sandbox/faults/report')).body;
    expect(report.findings).toMatchObject([{ kind: 'polling_too_fast', rate_per_s: 6 }]);
    expect(report.polling_limit_per_s).toBe(5);
  });

  it('a signed request re-sent seconds later with its first timestamp is stale_signature', async () => {
    const w = await open();
    const inv = seedInvestor(t);
    await w.admin('POST', '/admin/sandbox/faults', {
      route: 'POST /v1/fund-orders',
      times: 1,
      effect: { type: 'reset' },
    });
    const stale = String(Math.floor(t.deps.wallNow() / 1000) - 10);
    const first = answered(
      await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'ts-1', timestamp: stale }),
    );
    const again = answered(
      await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'ts-1', timestamp: stale }),
    );
    expect(again.body.transfer_id).toBe(first.body.transfer_id);
    const fresh = answered(await w.tenant('POST', '/v1/transfers', { body: deposit(inv), key: 'ts-1' }));
    expect(fresh.body.transfer_id).toBe(first.body.transfer_id);
    const report = (await w.admin('GET', '/admin/sandbox/faults/report')).body;
    expect(report.findings).toMatchObject([
      { kind: 'stale_signature', request_ids: [expect.any(String), expect.any(String)] },
    ]);
    expect(report.findings).toHaveLength(1);
  });
});

describe('no partial state under reset and lost_response on every money route', () => {
  it('each request is applied exactly once (lost_response) or not at all (reset), and the ledger holds', async () => {
    const w = await open();
    const inv = await trader(t, 100_000);
    const order = { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 };
    const fundOrder = { investor_id: inv, fund_code: 'NILLQ', side: 'subscribe', amount_micros: 1_000 * EGP };
    const calls: Array<[string, string, unknown, string]> = [
      ['POST', '/v1/transfers', deposit(inv), 'transfers'],
      ['POST', '/v1/orders', order, 'orders'],
      ['POST', '/v1/fund-orders', fundOrder, 'fund_orders'],
    ];
    const count = (table: string) => (t.deps.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    for (const effect of ['reset', 'lost_response'] as const) {
      for (const [method, url, body, table] of calls) {
        await w.admin('POST', '/admin/sandbox/faults', {
          route: `${method} ${url}`,
          times: 1,
          effect: { type: effect },
        });
        const before = count(table);
        const key = `${effect}-${url}`;
        expect(await w.tenant(method, url, { body, key })).toBe(DROPPED);
        expect(count(table), `${effect} ${url}`).toBe(before + (effect === 'reset' ? 0 : 1));
        const retry = answered(await w.tenant(method, url, { body, key }));
        expect(retry.status, `${effect} ${url}: ${JSON.stringify(retry.body)}`).toBeLessThan(300);
        expect(count(table), `${effect} ${url}`).toBe(before + 1);
        expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
      }
    }
    // before the open a market order waits in the book: it can be cancelled
    const placed = answered(await w.tenant('POST', '/v1/orders', { body: order }));
    expect(placed.status).toBe(201);
    for (const effect of ['reset', 'lost_response'] as const) {
      await w.admin('POST', '/admin/sandbox/faults', {
        route: 'DELETE /v1/orders/{id}',
        times: 1,
        effect: { type: effect },
      });
      expect(await w.tenant('DELETE', `/v1/orders/${placed.body.order_id}`, { key: `cancel-${effect}` })).toBe(DROPPED);
      expect(
        answered(await w.tenant('DELETE', `/v1/orders/${placed.body.order_id}`, { key: `cancel-${effect}` })).status,
      ).toBeLessThan(300);
    }
    expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
    expect((await w.admin('GET', '/admin/sandbox/faults/report')).body.findings).toEqual([]);
  });
});

describe('the rate limit', () => {
  it('limits each API key with a sliding window: headers on every answer, then 429 RATE_LIMITED with Retry-After', async () => {
    const w = await open();
    expect((await w.admin('POST', '/admin/sandbox/reset', { rate_limit: '3/min' })).status).toBe(200);
    const seen: Array<[number, string | null]> = [];
    for (let i = 0; i < 4; i++) {
      const r = answered(await w.tenant('GET', '/v1/orders'));
      expect(r.headers.get('x-ratelimit-limit')).toBe('3');
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      seen.push([r.status, r.headers.get('x-ratelimit-remaining')]);
      if (r.status === 429) {
        expect(r.body.error.code).toBe('RATE_LIMITED');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(seen).toEqual([
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ]);
    expect((await w.admin('GET', '/admin/sandbox/state')).status).toBe(200);
    expect((await w.admin('POST', '/admin/sandbox/reset', { rate_limit: 'off' })).status).toBe(200);
    expect(answered(await w.tenant('GET', '/v1/orders')).headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('a rate limit that is not <requests>/<window> is refused', async () => {
    const w = await open();
    const res = await w.admin('POST', '/admin/sandbox/reset', { rate_limit: 'lots' });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/rate_limit/);
  });
});
