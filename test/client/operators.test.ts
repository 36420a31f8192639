// The operator realms and the sandbox tools through the library, against a real daemon: the dealer desk
// executes a queued order with the step-up answered from the identity's TOTP secret (only when the
// daemon asks), the push events arrive through the async iterator, and waitFor advances a frozen clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Attempt, DealerDesk, isSvcError } from '../../client/src/index.js';
import { type ClientSandbox, clientSandbox, onboard } from '../helpers/client-sandbox.js';

let s: ClientSandbox;
let investorId: string;
beforeAll(async () => {
  s = await clientSandbox();
  investorId = await onboard(s.client);
  await s.client.transfers.create({ investor_id: investorId, direction: 'deposit', amount_micros: 50_000_000_000 });
  await s.sandbox.clock.advanceUntil('next_open');
});
afterAll(async () => s.close());

const buy = (qty: number) =>
  s.client.orders.create({ investor_id: investorId, symbol: 'COMI', side: 'buy', type: 'market', qty });

describe('the dealer desk and the back office', () => {
  it('without the step-up secret, the refusal is a typed STEP_UP_REQUIRED (no window open yet)', async () => {
    await s.sandbox.autoFill({ enabled: false });
    const queued = await buy(1);
    const desk = new DealerDesk({ baseUrl: s.baseUrl, key: s.t.creds.operators.dealer_key });
    const e = await desk
      .request('post', '/broker/v1/queue/{id}/execute', { path: { id: queued.order_id }, body: {} })
      .catch((x: unknown) => x);
    expect(isSvcError(e, 'STEP_UP_REQUIRED')).toBe(true);
    await s.sandbox.autoFill({ enabled: true });
  });

  it('executes a queued order, answering STEP_UP_REQUIRED with a TOTP once, then inside the window', async () => {
    await s.sandbox.autoFill({ enabled: false });
    const first = await buy(3);
    const second = await buy(4);
    const queue = await s.desk.queue();
    expect(queue.orders.map((o) => o.order_id)).toEqual(expect.arrayContaining([first.order_id, second.order_id]));

    const attempts: Attempt[] = [];
    const { t, baseUrl } = s;
    const desk = new DealerDesk({
      baseUrl,
      key: t.creds.operators.dealer_key,
      stepUpSecret: t.creds.step_up.dealer,
      onAttempt: (a) => attempts.push(a),
    });
    await desk.request('post', '/broker/v1/queue/{id}/execute', { path: { id: first.order_id }, body: {} });
    expect(attempts.map((a) => a.status)).toEqual([401, 200]);
    await desk.request('post', '/broker/v1/queue/{id}/execute', { path: { id: second.order_id }, body: {} });
    expect(attempts.map((a) => a.status)).toEqual([401, 200, 200]);
    expect((await s.client.orders.get(first.order_id)).status).toBe('filled');
    expect((await s.client.waitFor.order(second.order_id)).status).toBe('filled');
    await s.sandbox.autoFill({ enabled: true });
  });

  it('reads the back office with the admin key through the typed request()', async () => {
    const audit = await s.backOffice.request('get', '/admin/audit', { query: { limit: 2 } });
    expect(audit.entries.length).toBe(2);
  });
});

describe('the sandbox tools', () => {
  it('streams push events as an async iterator: the fill of an order placed once the stream is open', async () => {
    const stop = new AbortController();
    const events = await s.sandbox.openEvents({ types: 'order.*', signal: stop.signal });
    const order = await buy(2);
    let seen = await events.next();
    while (!seen.done && seen.value.subject !== order.order_id) seen = await events.next();
    stop.abort();
    expect(seen.done).toBe(false);
    expect(seen.value).toMatchObject({ subject: order.order_id });
    expect(seen.value?.type).toMatch(/^order\./);
  });

  it('waitFor advances a frozen clock instead of sleeping when asked, until the transfer completes', async () => {
    const before = (await s.client.market.clock()).timestamp;
    const t = await s.client.transfers.create({
      investor_id: investorId,
      direction: 'deposit',
      amount_micros: 1_000_000,
    });
    const done = await s.client.waitFor.transfer(t.transfer_id, {
      advance: { sandbox: s.sandbox, step: { minutes: 1 } },
    });
    expect(done.state).toBe('completed');
    expect((await s.client.market.clock()).timestamp > before).toBe(true);
  });

  it('a wait that cannot end in time says what it last read', async () => {
    const t = await s.client.transfers.create({
      investor_id: investorId,
      direction: 'deposit',
      amount_micros: 1_000_000,
    });
    const e = await s.client.waitFor.transfer(t.transfer_id, { timeoutMs: 0 }).catch((x: unknown) => x);
    expect(e).toMatchObject({
      name: 'WaitError',
      timedOut: true,
      last: { transfer_id: t.transfer_id, state: 'received' },
    });
  });
});
