// The whole tenant journey through @svc/client against a real daemon on a port: KYC with both ID
// images, suitability, a signed deposit waited out on the frozen clock, a signed market order waited
// to its fill, a signed fund subscription, the clock past T+2, the portfolio, a statement waited for
// and downloaded; and a refusal
// caught as a typed error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSvcError, SvcError } from '../../client/src/index.js';
import { type ClientSandbox, clientSandbox, onboard } from '../helpers/client-sandbox.js';

let s: ClientSandbox;
beforeAll(async () => {
  s = await clientSandbox();
});
afterAll(async () => s.close());

describe('the tenant journey through the client library', () => {
  it('onboards, deposits, buys, subscribes to a fund, settles, reads the portfolio, gets a statement', async () => {
    const { client, sandbox } = s;
    const investorId = await onboard(client);
    const deposit = await client.transfers.create({
      investor_id: investorId,
      direction: 'deposit',
      amount_micros: 50_000_000_000,
    });
    const advance = { sandbox, step: { minutes: 1 } };
    const done = await client.waitFor.transfer(deposit.transfer_id, { until: 'completed', advance });
    expect(done.state).toBe('completed');

    const open = await sandbox.clock.advanceUntil('next_open');
    expect(open.is_open).toBe(true);
    const order = await client.orders.create({
      investor_id: investorId,
      symbol: 'COMI',
      side: 'buy',
      type: 'market',
      qty: 10,
      client_order_id: 'journey-1',
    });
    expect(order.client_order_id).toBe('journey-1');
    const filled = await client.waitFor.order(order.order_id, { until: 'filled', advance });
    expect(filled.filled_qty).toBe(10);
    const note = await client.orders.contractNote(order.order_id);
    expect(note.fills.reduce((n, f) => n + f.qty, 0)).toBe(10);

    const funds = await client.funds.list();
    expect(funds.funds.map((f) => f.fund_code)).toContain('UBRKH');
    const sub = await client.funds.createOrder({
      investor_id: investorId,
      fund_code: 'UBRKH',
      side: 'subscribe',
      amount_micros: 10_000_000_000,
    });
    expect((await client.waitFor.fundOrder(sub.fund_order_id)).state).toBe('settled');

    await sandbox.clock.advance({ days: 4 });
    const balances = await client.investors.balances(investorId);
    expect(balances.securities.find((p) => p.symbol === 'COMI')).toMatchObject({ settled: 10, unsettled: 0 });
    const cash = balances.cash.find((p) => p.asset === 'cash:EGP');
    expect(cash?.settled).toBe(50_000_000_000 - note.net_consideration_micros - (sub.result_amount_micros ?? 0));
    const portfolio = await client.portfolio.get(investorId);
    expect(JSON.stringify(portfolio)).toContain('COMI');

    const today = (await client.market.clock()).timestamp.slice(0, 10);
    const report = await client.reports.create({
      investor_id: investorId,
      type: 'client_statement',
      locale: 'en',
      period_start: `${today.slice(0, 8)}01`,
      period_end: today,
    });
    await client.waitFor.report(report.report_id, { until: 'ready', advance });
    const pdf = await client.reports.download(report.report_id);
    expect(pdf).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  });

  it('a refusal is an SvcError whose code a program branches on, with the status and the request id', async () => {
    const { client } = s;
    const investorId = await onboard(client);
    await s.sandbox.clock.advanceUntil('next_open');
    const refused = await client.orders
      .create({ investor_id: investorId, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SvcError);
    if (!isSvcError(refused, 'INSUFFICIENT_SETTLED_CASH', 'INSUFFICIENT_BUYING_POWER')) throw refused;
    expect(refused.status).toBe(422);
    expect(refused.requestId).toMatch(/^req_/);
    expect(isSvcError(refused, 'NOT_FOUND')).toBe(false);
  });
});
