// The live screens' data against a real daemon: the HTTP source (reads, signed order and cancel, clock
// advance, refusals with the registry hint), one dashboard refresh, and the polling hook following
// the clock when it is advanced.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { Text } from 'ink';
import { resolveProfile } from '../../cli/context.js';
import { apiSource } from '../../cli/live/api-source.js';
import { loadSnapshot } from '../../cli/live/snapshot.js';
import { ApiFailure, type LiveSource } from '../../cli/live/source.js';
import { usePolling } from '../../cli/ui/hooks.js';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { cliInvestor } from '../helpers/cli-investor.js';
import { WAIT } from '../helpers/fake-source.js';

let sbx: CliSandbox;
let inv: string;
let source: LiveSource;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await cliInvestor(sbx, { depositEgp: '50000' });
  expect((await sbx.svc(['clock', 'advance', '--minutes', '3'])).code).toBe(0);
  expect((await sbx.svc(['order', 'buy', 'COMI', '10', '--investor', inv])).code).toBe(0);
  expect((await sbx.svc(['clock', 'advance', '--until', 'next_open'])).code).toBe(0);
  source = apiSource(resolveProfile({ home: sbx.home }));
});

afterAll(async () => {
  cleanup();
  await sbx?.stop();
});

describe('the live data source over HTTP', () => {
  it('reads the clock with its mode, the orderable equities and the accounts', async () => {
    expect(await source.clock()).toMatchObject({
      timestamp: '2026-11-22T10:00:00+02:00',
      is_open: true,
      mode: 'frozen',
    });
    const instruments = await source.instruments();
    expect(instruments.map((i) => i.symbol)).toContain('COMI');
    expect(instruments.every((i) => i.security_type === 'equity')).toBe(true);
    expect((await source.accounts()).map((a) => a.id)).toEqual([inv]);
  });

  it('reads the money-market funds at their current NAV', async () => {
    const funds = await source.funds();
    expect(funds.map((f) => f.fund_code)).toContain('BMYBY');
    expect(funds.every((f) => Number.isInteger(f.nav_micros) && f.nav_micros > 0)).toBe(true);
  });

  it('one dashboard refresh: the board adds the symbols held, the account, orders and balances of the investor', async () => {
    const snap = await loadSnapshot(source, { investorId: inv, symbols: ['FWRY'] });
    expect(snap.quotes.map((q) => q.symbol)).toEqual(['FWRY', 'COMI']);
    expect(snap.orders).toEqual([expect.objectContaining({ symbol: 'COMI', status: 'filled', filled_qty: 10 })]);
    // the account, read fresh each refresh: its status and suitability gate the order form
    expect(snap.account).toMatchObject({
      id: inv,
      name: 'Omar Farouk',
      status: 'active',
      shariah_only: false,
      suitability: { recorded: true, risk_acknowledged: true },
    });
    expect(snap.balances?.securities).toEqual([expect.objectContaining({ symbol: 'COMI', unsettled: 10 })]);
    // no fund units held: the NAVs are not read
    expect([snap.balances?.funds, snap.funds]).toEqual([[], []]);
    const none = await loadSnapshot(source, { investorId: null, symbols: ['FWRY'] });
    expect([none.account, none.orders, none.balances, none.quotes.length]).toEqual([null, null, null, 1]);
  });

  it('places and cancels signed orders and advances the clock', async () => {
    const placed = await source.placeOrder({
      investor_id: inv,
      symbol: 'TMGH',
      side: 'buy',
      type: 'limit',
      qty: 5,
      limit_price_micros: 60_000_000,
      time_in_force: 'gtc',
    });
    expect(placed).toMatchObject({ status: 'new', symbol: 'TMGH', limit_price_micros: 60_000_000 });
    expect(await source.cancelOrder(placed.order_id)).toMatchObject({ status: 'pending_cancel' });
    const moved = await source.advance({ minutes: 1 });
    expect(moved).toMatchObject({ timestamp: '2026-11-22T10:01:00+02:00', mode: 'frozen' });
    expect(moved.instants_processed).toBeGreaterThan(0);
    const orders = await source.orders(inv, 10);
    expect(orders.find((o) => o.order_id === placed.order_id)).toMatchObject({
      status: 'canceled',
      reason_code: 'CANCELED_BY_CLIENT',
    });
  });

  it('without a usable admin key the clock comes from the tenant API, without its mode', async () => {
    const tenantOnly = apiSource({ ...resolveProfile({ home: sbx.home }), admin_key: 'ak_sbx_not_a_key' });
    const c = await tenantOnly.clock();
    expect(c.timestamp).toMatch(/^2026-11-22T/);
    expect(c.mode).toBeUndefined();
  });

  it('a refusal is an ApiFailure with the code, the request id and the registry hint', async () => {
    const err = await source.quotes(['NOPE']).catch((e) => e);
    expect(err).toBeInstanceOf(ApiFailure);
    expect(err).toMatchObject({ code: 'UNKNOWN_SYMBOL', status: 404 });
    expect(err.requestId).toMatch(/^req_/);
    expect(err.hint).toBeTruthy();
  });
});

function Probe(props: { source: LiveSource }) {
  const polled = usePolling(() => loadSnapshot(props.source, { investorId: inv, symbols: ['COMI'] }), 50, 'probe');
  const s = polled.value;
  return (
    <Text>
      {s ? `clock ${s.clock.timestamp} COMI ${s.quotes[0].price_micros} orders ${s.orders?.length}` : 'loading'}
    </Text>
  );
}

describe('the polling hook against the daemon', () => {
  it('shows each refresh; advancing the clock moves what it shows', async () => {
    const app = render(<Probe source={source} />);
    await vi.waitFor(
      () => expect(app.lastFrame()).toMatch(/^clock 2026-11-22T10:01:00\+02:00 COMI \d+ orders 2$/),
      WAIT,
    );
    await source.advance({ hours: 1 });
    await vi.waitFor(() => expect(app.lastFrame()).toContain('clock 2026-11-22T11:01:00+02:00'), WAIT);
    const after = (await source.quotes(['COMI']))[0].price_micros;
    expect(app.lastFrame()).toContain(`COMI ${after} `);
  });
});
