// Concurrency (issue 7, item 4): many clients at once on ONE investor, against a real daemon over real
// sockets (one undici connection per client, all opened before the race, then every request fired at
// once), so requests really interleave at the socket level. Each race checks exact outcomes: no
// overdraft (settled never negative, reserved equal to the pending holds), no double spend (the cash or
// shares behind every accepted request are counted once), no lost update (the final balances equal
// the start plus what the acknowledged answers say happened), and the store's invariants
// (storeViolations: the ledger checks of deps.ledger.checkInvariants plus the request/object/audit
// bijection). A poller reads the balances throughout each race and never sees a negative bucket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Api,
  balances,
  call,
  deposit,
  EGP,
  limitAt,
  onboard,
  openStore,
  quote,
  removeHome,
  startDaemon,
  stopDaemon,
  storeViolations,
  tempHome,
  type Answer,
  type Call,
  type DaemonProc,
} from '../helpers/crash-daemon.js';

let home: string;
let d: DaemonProc;
let api: Api;

beforeAll(async () => {
  home = tempHome('concurrency');
  d = await startDaemon(home);
  api = Api.of(d);
  await api.advance({ until: 'next_open' });
  await api.advance({ minutes: 1 });
});

afterAll(async () => {
  await api?.close();
  if (d) await stopDaemon(d);
  removeHome(home);
});

/** n clients with their connection open, then all calls at once; answers in call order. */
async function race(calls: Call[], poll?: string): Promise<Answer[]> {
  const clients = calls.map(() => Api.of(d));
  try {
    await Promise.all(clients.map((c) => c.get('/healthz', 'none')));
    let polling = poll !== undefined;
    const negatives: string[] = [];
    const poller = (async () => {
      if (!poll) return 0;
      const p = Api.of(d);
      let reads = 0;
      try {
        while (polling) {
          const b = await balances(p, poll);
          reads++;
          for (const [what, v] of [['cash', b.cash], ...b.assets] as Array<
            [string, { settled: number; reserved: number; unsettled: number }]
          >) {
            if (v.settled < 0 || v.reserved < 0 || v.unsettled < 0) negatives.push(`${what} ${JSON.stringify(v)}`);
          }
        }
      } finally {
        await p.close();
      }
      return reads;
    })();
    const answers = await Promise.all(calls.map((c, i) => clients[i].send(c)));
    polling = false;
    const reads = await poller;
    expect(negatives).toEqual([]);
    if (poll) expect(reads).toBeGreaterThan(0);
    for (const a of answers) expect(a.status, a.text).toBeLessThan(500);
    return answers;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

function storeOk(): void {
  const db = openStore(home);
  try {
    expect(storeViolations(db, d.creds.tenant_id)).toEqual([]);
  } finally {
    db.close();
  }
}

function pendingHolds(investorId: string, asset: string): number[] {
  const db = openStore(home);
  try {
    return (
      db
        .prepare(
          "SELECT remaining FROM ledger_holds WHERE investor_id = ? AND asset = ? AND state = 'pending' ORDER BY seq",
        )
        .all(investorId, asset) as Array<{ remaining: number }>
    ).map((r) => r.remaining);
  } finally {
    db.close();
  }
}

/** A funded investor (settled cash after the deposits complete). */
async function funded(egp: number): Promise<string> {
  const inv = await onboard(api);
  if (egp > 0) await deposit(api, inv, egp);
  await api.advance({ minutes: 3 });
  return inv;
}

/** The cash one resting limit buy reserves (placed, measured, cancelled). */
async function reservationOf(inv: string, body: Record<string, unknown>): Promise<number> {
  const before = (await balances(api, inv)).cash.reserved;
  const o = await api.expect(call('POST', '/v1/orders', { investor_id: inv, ...body }), 201);
  expect(o.status).toBe('new');
  const r = (await balances(api, inv)).cash.reserved - before;
  await api.expect(call('DELETE', `/v1/orders/${o.order_id}`), 202);
  await api.advance({ minutes: 1 });
  expect((await api.get(`/v1/orders/${o.order_id}`)).status).toBe('canceled');
  return r;
}

const count = (answers: Answer[], status: number, code?: string) =>
  answers.filter((a) => a.status === status && (code === undefined || a.json?.error?.code === code)).length;

describe('many clients on one investor', () => {
  it('40 buys compete for the cash of 10: exactly 10 are accepted, reserved = 10 holds, settled never negative', async () => {
    const inv = await funded(5_000);
    const q = await quote(api, 'COMI');
    const order = {
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 20,
      limit_price_micros: limitAt(q, -500),
      time_in_force: 'day',
    };
    const r = await reservationOf(inv, order);
    // top up to exactly 10.5 reservations
    const s0 = (await balances(api, inv)).cash.settled;
    const target = Math.floor(10.5 * r);
    expect(s0).toBeLessThan(target);
    await api.expect(
      call('POST', '/v1/transfers', { investor_id: inv, direction: 'deposit', amount_micros: target - s0 }),
      201,
    );
    await api.advance({ minutes: 3 });
    expect((await balances(api, inv)).cash).toEqual({ settled: target, reserved: 0, unsettled: 0 });

    const answers = await race(
      Array.from({ length: 40 }, () => call('POST', '/v1/orders', { investor_id: inv, ...order })),
      inv,
    );
    expect(count(answers, 201)).toBe(10);
    expect(count(answers, 422, 'INSUFFICIENT_SETTLED_CASH')).toBe(30);
    const b = await balances(api, inv);
    expect(b.cash).toEqual({ settled: target - 10 * r, reserved: 10 * r, unsettled: 0 });
    expect(pendingHolds(inv, 'cash:EGP')).toEqual(Array(10).fill(r));
    storeOk();
  });

  it('30 sells compete for 155 settled shares, limit and market mixed: 15 accepted, shares and proceeds add up', async () => {
    const inv = await funded(70_000);
    const buy = await api.expect(
      call('POST', '/v1/orders', { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 155 }),
      201,
    );
    expect(buy.status).toBe('filled');
    await api.advance({ until: 'next_open' });
    await api.advance({ until: 'next_open' });
    await api.advance({ minutes: 1 });
    const before = await balances(api, inv);
    expect(before.assets.get('COMI')).toEqual({ settled: 155, reserved: 0, unsettled: 0 });
    const q = await quote(api, 'COMI');
    const calls = Array.from({ length: 30 }, (_, i) =>
      call(
        'POST',
        '/v1/orders',
        i % 2 === 0
          ? {
              investor_id: inv,
              symbol: 'COMI',
              side: 'sell',
              type: 'limit',
              qty: 10,
              limit_price_micros: limitAt(q, 500),
              time_in_force: 'day',
            }
          : { investor_id: inv, symbol: 'COMI', side: 'sell', type: 'market', qty: 10 },
      ),
    );
    const answers = await race(calls, inv);
    expect(count(answers, 201)).toBe(15);
    expect(count(answers, 422, 'INSUFFICIENT_SETTLED_SECURITIES')).toBe(15);
    const accepted = answers.filter((a) => a.status === 201).map((a) => a.json);
    const resting = accepted.filter((o) => o.type === 'limit');
    const sold = accepted.filter((o) => o.type === 'market');
    for (const o of resting) expect(o.status).toBe('new');
    for (const o of sold) expect(o.status).toBe('filled');
    let proceeds = 0;
    for (const o of sold) {
      const note = await api.get(`/v1/orders/${o.order_id}/contract-note`);
      expect(note.net_direction).toBe('credit');
      proceeds += note.net_consideration_micros;
    }
    const after = await balances(api, inv);
    expect(after.assets.get('COMI')).toEqual({ settled: 5, reserved: 10 * resting.length, unsettled: 0 });
    expect(after.cash).toEqual({
      settled: before.cash.settled,
      reserved: 0,
      unsettled: before.cash.unsettled + proceeds,
    });
    expect(pendingHolds(inv, 'COMI')).toEqual(Array(resting.length).fill(10));
    storeOk();
  });

  it('cancels race fills while the clock advances and the tape moves: each order ends filled or cancelled, once, and the cash adds up', async () => {
    const inv = await funded(70_000);
    const q = await quote(api, 'ETEL');
    const placed: string[] = [];
    for (let i = 0; i < 20; i++) {
      // limits from 0.1 % to 2 % below the price; the tape is then set 1 % below: about half are reached
      const limit = limitAt(q, -10 * (i + 1));
      const o = await api.expect(
        call('POST', '/v1/orders', {
          investor_id: inv,
          symbol: 'ETEL',
          side: 'buy',
          type: 'limit',
          qty: 10,
          limit_price_micros: limit,
          time_in_force: 'gtc',
        }),
        201,
      );
      if (o.status === 'new') placed.push(o.order_id);
    }
    expect(placed.length).toBeGreaterThan(10);
    const s0 = await balances(api, inv);
    const calls: Call[] = [
      ...placed.map((id) => call('DELETE', `/v1/orders/${id}`)),
      call('POST', '/admin/sandbox/quote', { symbol: 'ETEL', price_micros: limitAt(q, -100) }, 'admin'),
      call('POST', '/admin/sandbox/clock-advance', { minutes: 1 }, 'admin'),
      call('POST', '/admin/sandbox/clock-advance', { minutes: 1 }, 'admin'),
    ];
    // interleave the controls among the cancels
    calls.splice(5, 0, calls.pop()!);
    calls.splice(12, 0, calls.pop()!);
    calls.splice(2, 0, calls.pop()!);
    const answers = await race(calls, inv);
    for (const a of answers) expect([200, 202, 422]).toContain(a.status);
    await api.advance({ minutes: 2 });
    let spent = 0;
    let shares = 0;
    const outcome: Record<string, number> = {};
    for (const id of placed) {
      const o = await api.get(`/v1/orders/${id}`);
      outcome[o.status] = (outcome[o.status] ?? 0) + 1;
      expect(['filled', 'canceled']).toContain(o.status);
      const cancel = answers[calls.findIndex((c) => c.url === `/v1/orders/${id}`)];
      // a cancel refused as not cancellable means the fill had already happened
      if (cancel.status === 422) {
        expect(cancel.json.error.code).toBe('ORDER_NOT_CANCELLABLE');
        expect(o.status).toBe('filled');
      }
      if (o.filled_qty > 0) {
        const note = await api.get(`/v1/orders/${id}/contract-note`);
        spent += note.net_consideration_micros;
        shares += o.filled_qty;
        expect(o.status).toBe('filled');
      }
    }
    console.log(`cancel race: ${placed.length} orders -> ${JSON.stringify(outcome)}`);
    const after = await balances(api, inv);
    expect(after.cash.reserved).toBe(0);
    expect(after.cash.settled + after.cash.reserved).toBe(s0.cash.settled + s0.cash.reserved - spent);
    expect(after.assets.get('ETEL')?.unsettled ?? 0).toBe(shares);
    expect(pendingHolds(inv, 'cash:EGP')).toEqual([]);
    storeOk();
  });

  it('withdrawals race buys for the same cash: what was accepted is exactly what left settled, and no refusal was needed less than the cash left', async () => {
    const inv = await funded(30_000);
    const q = await quote(api, 'COMI');
    const order = {
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 30,
      limit_price_micros: limitAt(q, -500),
      time_in_force: 'day',
    };
    const r = await reservationOf(inv, order);
    const w = Math.round(r * 0.9);
    const s0 = (await balances(api, inv)).cash.settled;
    expect(s0).toBeGreaterThan(5 * (r + w));
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? call('POST', '/v1/orders', { investor_id: inv, ...order })
        : call('POST', '/v1/transfers', { investor_id: inv, direction: 'withdrawal', amount_micros: w }),
    );
    const answers = await race(calls, inv);
    const buys = answers.filter((_, i) => i % 2 === 0);
    const wds = answers.filter((_, i) => i % 2 === 1);
    const nb = count(buys, 201);
    const nw = count(wds, 201);
    expect(count(buys, 422, 'INSUFFICIENT_SETTLED_CASH') + nb).toBe(20);
    expect(count(wds, 422, 'INSUFFICIENT_SETTLED_CASH') + nw).toBe(20);
    expect(nb + nw).toBeGreaterThan(0);
    expect(nb + nw).toBeLessThan(40);
    const held = nb * r + nw * w;
    const b = await balances(api, inv);
    expect(b.cash).toEqual({ settled: s0 - held, reserved: held, unsettled: 0 });
    // every refusal saw less settled cash than it needed; settled only went down, so it is still short
    const smallestRefused = Math.min(...(count(buys, 422) > 0 ? [r] : []), ...(count(wds, 422) > 0 ? [w] : []));
    expect(b.cash.settled).toBeLessThan(smallestRefused);
    await api.advance({ minutes: 3 });
    const done = await balances(api, inv);
    expect(done.cash).toEqual({ settled: s0 - held, reserved: nb * r, unsettled: 0 });
    for (const a of wds.filter((x) => x.status === 201))
      expect((await api.get(`/v1/transfers/${a.json.transfer_id}`)).state).toBe('completed');
    const acts = await api.get(`/v1/investors/${inv}/activities?limit=200`);
    expect(acts.activities.filter((x: any) => x.activity_type === 'CSW')).toHaveLength(nw);
    storeOk();
  });

  it('fund subscriptions and redemptions race for the same cash and units: balances equal the sum of the answers', async () => {
    const inv = await funded(40_000);
    const fund = (
      (await api.get('/v1/funds')).funds as Array<{ fund_code: string; min_subscription_micros: number }>
    )[0];
    await api.expect(
      call('POST', '/v1/fund-orders', {
        investor_id: inv,
        fund_code: fund.fund_code,
        side: 'subscribe',
        amount_micros: fund.min_subscription_micros,
      }),
      201,
    );
    const before = await balances(api, inv);
    const asset = `fund:${fund.fund_code}`;
    const u0 = before.assets.get(asset)!.settled;
    const sub = Math.floor(before.cash.settled / 8);
    const red = Math.floor(u0 / 6);
    const calls = Array.from({ length: 40 }, (_, i) =>
      call(
        'POST',
        '/v1/fund-orders',
        i % 2 === 0
          ? { investor_id: inv, fund_code: fund.fund_code, side: 'subscribe', amount_micros: sub }
          : { investor_id: inv, fund_code: fund.fund_code, side: 'redeem', units_micros: red },
      ),
    );
    const answers = await race(calls, inv);
    let cash = before.cash.settled;
    let units = u0;
    for (const a of answers) {
      if (a.status !== 201) {
        expect(a.status, a.text).toBe(422);
        expect(['INSUFFICIENT_SETTLED_CASH', 'INSUFFICIENT_SETTLED_SECURITIES']).toContain(a.json.error.code);
        continue;
      }
      expect(a.json.state).toBe('settled');
      if (a.json.side === 'subscribe') {
        expect(a.json.result_amount_micros).toBeLessThanOrEqual(sub);
        cash -= a.json.result_amount_micros;
        units += a.json.result_units_micros;
      } else {
        cash += a.json.result_amount_micros;
        units -= a.json.result_units_micros;
      }
    }
    expect(count(answers, 422)).toBeGreaterThan(0);
    const after = await balances(api, inv);
    expect(after.cash).toEqual({ settled: cash, reserved: 0, unsettled: before.cash.unsettled });
    expect(after.assets.get(asset)).toEqual({ settled: units, reserved: 0, unsettled: 0 });
    storeOk();
  });
});

describe('a free-for-all on one investor', () => {
  it('16 clients x 25 random money requests with clock advances: every balance is the start plus what the answers say', async () => {
    const inv = await funded(140_000);
    const funds = (
      (await api.get('/v1/funds')).funds as Array<{ fund_code: string; min_subscription_micros: number }>
    ).slice(0, 1);
    for (const f of funds)
      await api.expect(
        call('POST', '/v1/fund-orders', {
          investor_id: inv,
          fund_code: f.fund_code,
          side: 'subscribe',
          amount_micros: f.min_subscription_micros,
        }),
        201,
      );
    for (const s of ['COMI', 'ETEL'])
      await api.expect(
        call('POST', '/v1/orders', { investor_id: inv, symbol: s, side: 'buy', type: 'market', qty: 100 }),
        201,
      );
    await api.advance({ until: 'next_open' });
    await api.advance({ until: 'next_open' });
    await api.advance({ minutes: 1 });
    const start = await balances(api, inv);
    const total = (p?: { settled: number; reserved: number; unsettled: number }) =>
      p ? p.settled + p.reserved + p.unsettled : 0;
    const quotes = { COMI: await quote(api, 'COMI'), ETEL: await quote(api, 'ETEL') };

    // a deterministic stream per client (no PRNG state shared between clients)
    const open: string[] = [];
    const answers: Array<{ c: Call; a: Answer }> = [];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    const next = (): Call => {
      const sym = rnd(2) === 0 ? 'COMI' : 'ETEL';
      const q = quotes[sym];
      switch (rnd(funds.length ? 9 : 7)) {
        case 0:
          return call('POST', '/v1/orders', {
            investor_id: inv,
            symbol: sym,
            side: 'buy',
            type: 'market',
            qty: 1 + rnd(20),
          });
        case 1:
          return call('POST', '/v1/orders', {
            investor_id: inv,
            symbol: sym,
            side: 'buy',
            type: 'limit',
            qty: 1 + rnd(20),
            limit_price_micros: limitAt(q, -rnd(40)),
            time_in_force: 'gtc',
          });
        case 2:
          return call('POST', '/v1/orders', {
            investor_id: inv,
            symbol: sym,
            side: 'sell',
            type: rnd(2) ? 'market' : 'limit',
            qty: 1 + rnd(10),
          });
        case 3:
          return open.length
            ? call('DELETE', `/v1/orders/${open[rnd(open.length)]}`)
            : call('POST', '/admin/sandbox/clock-advance', { minutes: 1 }, 'admin');
        case 4:
          return call('POST', '/v1/transfers', {
            investor_id: inv,
            direction: 'deposit',
            amount_micros: (10 + rnd(500)) * EGP,
          });
        case 5:
          return call('POST', '/v1/transfers', {
            investor_id: inv,
            direction: 'withdrawal',
            amount_micros: (10 + rnd(3000)) * EGP,
          });
        case 6:
          return call('POST', '/admin/sandbox/clock-advance', { minutes: 1 }, 'admin');
        case 7:
          return call('POST', '/v1/fund-orders', {
            investor_id: inv,
            fund_code: funds[0].fund_code,
            side: 'subscribe',
            amount_micros: (100 + rnd(2000)) * EGP,
          });
        default:
          return call('POST', '/v1/fund-orders', {
            investor_id: inv,
            fund_code: funds[0].fund_code,
            side: 'redeem',
            units_micros: (1 + rnd(200)) * 1_000_000,
          });
      }
    };
    const clients = Array.from({ length: 16 }, () => Api.of(d));
    try {
      await Promise.all(clients.map((c) => c.get('/healthz', 'none')));
      await Promise.all(
        clients.map(async (c) => {
          for (let i = 0; i < 25; i++) {
            const call_ = next();
            // a sell limit needs its price: above the market, so it rests
            if (
              call_.url === '/v1/orders' &&
              call_.body &&
              JSON.parse(call_.body).type === 'limit' &&
              JSON.parse(call_.body).side === 'sell'
            ) {
              const b = JSON.parse(call_.body);
              call_.body = JSON.stringify({
                ...b,
                limit_price_micros: limitAt(quotes[b.symbol as 'COMI'], 20 + rnd(40)),
                time_in_force: 'gtc',
              });
            }
            const a = await c.send(call_);
            expect(a.status, `${call_.method} ${call_.url} ${a.text}`).toBeLessThan(500);
            answers.push({ c: call_, a });
            if (
              call_.url === '/v1/orders' &&
              a.status === 201 &&
              ['new', 'accepted', 'partially_filled'].includes(a.json.status)
            )
              open.push(a.json.order_id);
          }
        }),
      );
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    // let every transfer complete and every cancel take effect (the clock stays in the session)
    await api.advance({ minutes: 4 });

    let cash = total(start.cash);
    const shares: Record<string, number> = {
      COMI: total(start.assets.get('COMI')),
      ETEL: total(start.assets.get('ETEL')),
    };
    const fundAsset = funds.length ? `fund:${funds[0].fund_code}` : '';
    let units = funds.length ? total(start.assets.get(fundAsset)) : 0;
    const tally: Record<string, number> = {};
    for (const { c, a } of answers) {
      const key = `${c.method} ${c.url.replace(/ord_\w+/, '{id}')} ${a.status}`;
      tally[key] = (tally[key] ?? 0) + 1;
      if (a.status !== 201) continue;
      if (c.url === '/v1/transfers') {
        const t = await api.get(`/v1/transfers/${a.json.transfer_id}`);
        expect(t.state).toBe('completed');
        cash += t.direction === 'deposit' ? t.amount_micros : -t.amount_micros;
      } else if (c.url === '/v1/fund-orders') {
        cash += a.json.side === 'subscribe' ? -a.json.result_amount_micros : a.json.result_amount_micros;
        units += a.json.side === 'subscribe' ? a.json.result_units_micros : -a.json.result_units_micros;
      } else if (c.url === '/v1/orders') {
        const o = await api.get(`/v1/orders/${a.json.order_id}`);
        if (o.filled_qty === 0) continue;
        const note = await api.get(`/v1/orders/${o.order_id}/contract-note`);
        cash += note.net_direction === 'debit' ? -note.net_consideration_micros : note.net_consideration_micros;
        shares[o.symbol] += o.side === 'buy' ? o.filled_qty : -o.filled_qty;
      }
    }
    console.log(`free-for-all: ${answers.length} requests: ${JSON.stringify(tally)}`);
    const end = await balances(api, inv);
    expect(total(end.cash)).toBe(cash);
    expect(total(end.assets.get('COMI'))).toBe(shares.COMI);
    expect(total(end.assets.get('ETEL'))).toBe(shares.ETEL);
    if (funds.length) expect(total(end.assets.get(fundAsset))).toBe(units);
    // reserved is exactly what the still-open orders hold
    const db = openStore(home);
    try {
      const openHolds = db
        .prepare(`SELECT COALESCE(SUM(h.remaining), 0) AS r FROM ledger_holds h JOIN orders o ON o.id = h.ref
        WHERE h.investor_id = ? AND h.asset = 'cash:EGP' AND h.state = 'pending' AND o.state NOT IN ('filled',
          'cancelled', 'rejected', 'expired')`)
        .get(inv) as { r: number };
      expect(end.cash.reserved).toBe(openHolds.r);
    } finally {
      db.close();
    }
    storeOk();
  });
});
