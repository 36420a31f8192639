// svc order buy|sell|cancel|list|show|note and svc desk queue|execute|reject against a real daemon,
// without a TTY: prices typed in EGP, --json everywhere, exit codes 0 ok / 1 API error / 2 usage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;
let inv: string;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await onboardViaCli(sbx, { fullName: 'Omar Farouk', suitability: true, depositEgp: '50000' });
});

afterAll(async () => sbx?.stop());

describe('svc order', () => {
  it('buy before the open queues the order (accepted); --wait on a frozen clock says how to advance; it fills at the open', async () => {
    const res = await sbx.svc(['order', 'buy', 'COMI', '10', '--investor', inv, '--wait', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'market',
      qty: 10,
      status: 'accepted',
    });
    // the hint keeps the --home in use (the helper passes --home)
    expect(res.stderr).toContain(`svc --home ${sbx.home} clock advance --until next_open`);
    expect((await sbx.svc(['clock', 'advance', '--until', 'next_open', '--json'])).code).toBe(0);
    const shown = await sbx.svc(['order', 'show', res.json.order_id, '--json']);
    expect(shown.json).toMatchObject({ status: 'filled', filled_qty: 10 });
    const plain = await sbx.svc(['order', 'show', res.json.order_id]);
    expect(plain.stdout).toMatch(/status\s+filled/);
  });

  it('a limit typed in EGP is sent as exact micros; list, cancel and the contract note', async () => {
    const quote = await sbx.svc(['market', 'quotes', 'COMI', '--json']);
    const price = quote.json.quotes[0].price_micros;
    expect(Number.isInteger(price)).toBe(true);
    const limitMicros = price - 1_000_000;
    const limitEgp = `${Math.floor(limitMicros / 1_000_000)}.${String(limitMicros % 1_000_000)
      .padStart(6, '0')
      .slice(0, 2)}`;
    const res = await sbx.svc(
      ['order', 'buy', 'comi', '5', '--limit', limitEgp, '--tif', 'gtc', '--client-order-id', 'cli-1', '--json'],
      { SVC_INVESTOR_ID: inv },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({
      type: 'limit',
      limit_price_micros: limitMicros,
      time_in_force: 'gtc',
      status: 'new',
      client_order_id: 'cli-1',
    });

    const open = await sbx.svc(['order', 'list', '--investor', inv, '--status', 'open', '--json']);
    expect(open.json.orders.map((o: any) => o.order_id)).toEqual([res.json.order_id]);
    const table = await sbx.svc(['order', 'list', '--investor', inv]);
    expect(table.stdout).toContain(res.json.order_id);

    const cancel = await sbx.svc(['order', 'cancel', res.json.order_id, '--json']);
    expect(cancel.json.status).toBe('pending_cancel');
    await sbx.svc(['clock', 'advance', '--minutes', '1']);
    expect((await sbx.svc(['order', 'show', res.json.order_id, '--json'])).json).toMatchObject({
      status: 'canceled',
      reason_code: 'CANCELED_BY_CLIENT',
    });
    const again = await sbx.svc(['order', 'cancel', res.json.order_id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('ORDER_NOT_CANCELLABLE');

    const none = await sbx.svc(['order', 'note', res.json.order_id, '--json']);
    expect([none.code, none.json.error.code]).toEqual([1, 'NO_EXECUTIONS']);
    const filled = (
      await sbx.svc(['order', 'list', '--investor', inv, '--status', 'closed', '--json'])
    ).json.orders.find((o: any) => o.status === 'filled');
    const note = await sbx.svc(['order', 'note', filled.order_id, '--json']);
    expect(note.code).toBe(0);
    expect(note.json).toMatchObject({ order_id: filled.order_id, filled_qty: 10, net_direction: 'debit' });
    const text = await sbx.svc(['order', 'note', filled.order_id]);
    expect(text.stdout).toContain('Stamp duty (withheld)');
    expect(text.stdout).toContain('Net consideration (debit)');
  });

  it('API refusals exit 1 with the code and a hint; bad prices and quantities are usage errors that send nothing', async () => {
    const before = (await sbx.svc(['order', 'list', '--json'])).json.orders.length;
    const tick = await sbx.svc(['order', 'buy', 'COMI', '1', '--limit', '80.005', '--investor', inv]);
    expect(tick.code).toBe(1);
    expect(tick.stderr).toContain('TICK_VIOLATION');
    // the same words as the order wizard and the dashboard's form: in EGP, naming the nearest valid prices
    expect(tick.stderr).toContain('80.005 EGP is not on the 0.01 EGP tick: use 80.00 or 80.01 EGP');
    expect(tick.stderr).toContain('hint:');
    for (const args of [
      ['COMI', '1', '--limit', 'abc'],
      ['COMI', '1', '--limit', '1.1234567'],
      ['COMI', '0'],
      ['COMI', '1.5'],
      ['COMI', '1', '--tif', 'gtd'],
    ]) {
      const res = await sbx.svc(['order', 'buy', ...args, '--investor', inv]);
      expect(res.code, args.join(' ')).toBe(2);
    }
    const noInvestor = await sbx.svc(['order', 'sell', 'COMI', '1'], { SVC_INVESTOR_ID: '' });
    expect([noInvestor.code, noInvestor.stderr.includes('--investor')]).toEqual([2, true]);
    expect((await sbx.svc(['order', 'list', '--json'])).json.orders.length).toBe(before);
  });
});

describe('svc desk queue|execute|reject', () => {
  it('with auto-fill off the order waits at the desk; execute at an EGP price; reject needs --reason', async () => {
    expect((await sbx.svc(['api', 'POST', '/admin/sandbox/auto-fill', '-d', '{"enabled":false}'])).code).toBe(0);
    const a = (await sbx.svc(['order', 'buy', 'COMI', '4', '--investor', inv, '--json'])).json;
    const b = (await sbx.svc(['order', 'buy', 'COMI', '2', '--investor', inv, '--json'])).json;
    expect(a.status).toBe('pending_new');
    const queue = await sbx.svc(['desk', 'queue', '--json']);
    expect(queue.json.orders.map((o: any) => o.order_id)).toEqual([a.order_id, b.order_id]);
    expect((await sbx.svc(['desk', 'queue'])).stdout).toContain(a.order_id);

    const price = queue.json.orders[0].market.price_micros;
    const priceEgp = `${Math.floor(price / 1_000_000)}.${String(price % 1_000_000).padStart(6, '0')}`;
    const exec = await sbx.svc(['desk', 'execute', a.order_id, '--price', priceEgp, '--json']);
    expect(exec.code, exec.stderr).toBe(0);
    expect(exec.json).toMatchObject({ status: 'filled', avg_price_micros: price });

    const noReason = await sbx.svc(['desk', 'reject', b.order_id]);
    expect(noReason.code).toBe(2);
    const badReason = await sbx.svc(['desk', 'reject', b.order_id, '--reason', 'NOPE']);
    expect([badReason.code, badReason.stderr.includes('INVALID_REJECT_REASON')]).toEqual([1, true]);
    const rej = await sbx.svc(['desk', 'reject', b.order_id, '--reason', 'COMPLIANCE_REVIEW', '--json']);
    expect(rej.json).toMatchObject({ status: 'rejected', reason_code: 'COMPLIANCE_REVIEW' });
    expect((await sbx.svc(['desk', 'queue'])).stdout).toContain('No orders waiting');
  });
});

describe('svc order --wait on a running clock', () => {
  let live: CliSandbox;
  let buyer: string;

  beforeAll(async () => {
    // 300x: a simulated minute passes every 0.2 s, starting inside Sunday's session
    live = await startSandbox(['--clock', 'running', '--speed', '300', '--start', '2026-11-22T10:05:00+02:00']);
    buyer = await onboardViaCli(live, { fullName: 'Mona Hassan', suitability: true, depositEgp: '50000' });
  });
  afterAll(async () => live?.stop());

  it('follows a qty-13 order through its partial fill to filled as the clock runs (7 now, 6 a simulated minute later)', async () => {
    const res = await live.svc(['order', 'buy', 'COMI', '13', '--investor', buyer, '--wait', '--json']);
    expect(res.code).toBe(0);
    expect(res.json).toMatchObject({ status: 'filled', filled_qty: 13, qty: 13 });
    const note = await live.svc(['order', 'note', res.json.order_id, '--json']);
    const fills = note.json.fills as Array<{ qty: number; executed_at: string }>;
    expect(fills.map((f) => f.qty)).toEqual([7, 6]);
    expect(Date.parse(fills[1].executed_at) - Date.parse(fills[0].executed_at)).toBeGreaterThanOrEqual(60_000);
  });
});
