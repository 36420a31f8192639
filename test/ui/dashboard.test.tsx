// The dashboard screen with ink-testing-library and an in-memory LiveSource: what it shows, and what
// each key does (advance, switch investor, buy through the form with its estimate, cancel, quit).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { Dashboard } from '../../cli/ui/dashboard/Dashboard.js';
import { AccountPanel, accountLines } from '../../cli/ui/dashboard/panels.js';
import { ApiFailure, type Balances } from '../../cli/live/source.js';
import { estimateOrder } from '../../cli/estimate.js';
import { egp } from '../../cli/output.js';
import { fakeSource, press, quote, runTicks, WAIT } from '../helpers/fake-source.js';

const ARROW_DOWN = '\u001B[B';
const ESC = '\u001B';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function mount(opts: { investorId?: string | null; symbols?: string[] } = {}) {
  const source = fakeSource();
  const app = render(
    <Dashboard
      source={source}
      investorId={opts.investorId === undefined ? 'inv_aaaaaaaaaa' : opts.investorId}
      symbols={opts.symbols ?? ['COMI', 'TMGH', 'FWRY']}
      intervalMs={20}
    />,
  );
  const frame = () => app.lastFrame() ?? '';
  return { source, app, frame };
}

describe('svc dashboard screen', () => {
  it('shows the clock and session, the quote board, the investor balances, positions and orders', async () => {
    const { frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Sun 22 Nov 2026 10:00'), WAIT);
    const f = frame();
    expect(f).toContain('market OPEN');
    expect(f).toContain('closes 14:30 (in 4h30m)');
    expect(f).toContain('clock frozen');
    expect(f).toMatch(/COMI\s+85\.63/);
    expect(f).toMatch(/TMGH\s+70\.57/);
    expect(f).toMatch(/FWRY\s+10\.97/);
    expect(f).toContain('Omar Farouk');
    expect(f).toContain('settled 48,831.91');
    expect(f).toMatch(/COMI\s+0\s+10\s+0\s+85\.63\s+856\.30/);
    expect(f).toContain('1 open · 1 recent');
    expect(f).toMatch(/› 10:00\s+ord_open000001\s+buy\s+5 TMGH\s+limit 60\.00/);
    expect(f).toContain('a advance clock');
  });

  it('the positions panel lists fund units next to the shares, with their NAV and value in EGP', async () => {
    const { source, app, frame } = mount();
    // 1,234.567891 units at a NAV of 10.012345: 12,360.91965 EGP (floored to the micro), shown as money: 12,360.92
    await vi.waitFor(() => expect(frame()).toMatch(/BMYBY\s+1,234\.567891\s+10\.012345\s+12,360\.92\b/), WAIT);
    expect(frame()).toMatch(/fund\s+units\s+NAV\s+value EGP/);
    expect(frame()).toMatch(/COMI\s+0\s+10\s+0\s+85\.63\s+856\.30/);
    expect(frame()).not.toContain('NILLQ');
    // an investor without fund units gets no fund lines, and no NAV read
    await press(app, 'i', '2');
    await vi.waitFor(() => expect(frame()).toContain('Mona Hassan inv_bbbbbbbbbb'), WAIT);
    const reads = source.calls.filter(([c]) => c === 'funds').length;
    await vi.waitFor(
      () => expect(source.calls.filter(([c]) => c === 'orders').at(-1)).toEqual(['orders', 'inv_bbbbbbbbbb']),
      WAIT,
    );
    // two more refreshes of the second investor start, so at least one has been read and drawn whole
    const ordersOfSecond = () => source.calls.filter((c) => c[0] === 'orders' && c[1] === 'inv_bbbbbbbbbb').length;
    const started = ordersOfSecond();
    await vi.waitFor(() => expect(ordersOfSecond()).toBeGreaterThanOrEqual(started + 2), WAIT);
    expect(frame()).not.toContain('BMYBY');
    expect(source.calls.filter(([c]) => c === 'funds').length).toBe(reads);
  });

  it('the account panel takes exactly the lines accountLines counts, fund lines included', () => {
    const { state } = fakeSource();
    const held = state.balances.inv_aaaaaaaaaa;
    const nilUnits = { asset: 'fund:NILLQ', fund_code: 'NILLQ', settled: 500_000_000, reserved: 0, unsettled: 250_000 };
    const cases: Array<[Balances['securities'], Balances['funds']]> = [
      [held.securities, held.funds],
      [held.securities, [...held.funds, nilUnits]],
      [[], [nilUnits]],
      [held.securities, []],
      [[], []],
    ];
    for (const [securities, funds] of cases) {
      const balances: Balances = { ...held, securities, funds };
      const { lastFrame, unmount } = render(
        <AccountPanel
          investorId="inv_aaaaaaaaaa"
          account={state.accounts[0]}
          balances={balances}
          quotes={[quote('COMI', 85_630_000)]}
          funds={state.funds}
          width={74}
        />,
      );
      const f = lastFrame() ?? '';
      for (const line of funds) expect(f).toContain(line.fund_code);
      expect(f.split('\n')).toHaveLength(accountLines(securities.length, funds.length));
      unmount();
    }
  });

  it('a: the advance menu; choosing +1 hour moves the clock and the tape, with arrows on the moved quotes', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Sun 22 Nov 2026 10:00'), WAIT);
    await press(app, 'a');
    await vi.waitFor(() => expect(frame()).toContain('Advance the clock from Sun 22 Nov 2026 10:00'), WAIT);
    expect(frame()).toContain('4  +1 hour');
    await press(app, ARROW_DOWN, ARROW_DOWN, ARROW_DOWN, '\r');
    await vi.waitFor(() => expect(frame()).toContain('Clock advanced +1 hour to Sun 22 Nov 2026 11:00'), WAIT);
    expect(source.calls).toContainEqual(['advance', { hours: 1 }]);
    await vi.waitFor(() => expect(frame()).toMatch(/COMI\s+85\.64 ▲/), WAIT);
    expect(frame()).toContain('closes 14:30 (in 3h30m)');
  });

  it('orders of an earlier day show their date instead of the time', async () => {
    const { app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toMatch(/› 10:00\s+ord_open000001/), WAIT);
    await press(app, 'a', '5');
    await vi.waitFor(() => expect(frame()).toContain('Clock advanced +1 day to Mon 23 Nov 2026 10:00'), WAIT);
    await vi.waitFor(() => expect(frame()).toMatch(/› 22 Nov\s+ord_open000001/), WAIT);
  });

  it('i: switching investor shows the other account and reads its orders', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 'i');
    await vi.waitFor(() => expect(frame()).toContain('Switch investor'), WAIT);
    expect(frame()).toContain('2  Mona Hassan  inv_bbbbbbbbbb');
    await press(app, '2');
    await vi.waitFor(() => expect(frame()).toContain('Mona Hassan inv_bbbbbbbbbb'), WAIT);
    await vi.waitFor(() => expect(frame()).toContain('no orders yet'), WAIT);
    expect(source.calls).toContainEqual(['orders', 'inv_bbbbbbbbbb']);
  });

  it('without an investor it shows the first account', async () => {
    const { frame } = mount({ investorId: null });
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk inv_aaaaaaaaaa'), WAIT);
  });

  it('b: the form completes the symbol, shows the estimate with each fee and the reservation, and places only after y', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 'b');
    await vi.waitFor(() => expect(frame()).toContain('Buy for Omar Farouk (inv_aaaaaaaaaa)'), WAIT);
    await press(app, 'C', 'O', '\t');
    await vi.waitFor(() => expect(frame()).toContain('Commercial International Bank'), WAIT);
    // the rest arrives in one chunk, as a paste or tmux send-keys delivers it
    await press(app, '\r10\r');
    await press(app, '\u001B[C', '\r', '85\r');
    await vi.waitFor(() => expect(frame()).toContain('Value at the limit 85.00: 850.00 EGP'), WAIT);
    const e = estimateOrder({ side: 'buy', qty: 10, limitPriceMicros: 85_000_000 }, quote('COMI', 85_630_000))!;
    expect(frame()).toContain(`Fees ${egp(e.feesMicros)} EGP (commission 5.00`);
    expect(frame()).toContain(`Stamp duty ${egp(e.fees.stamp_duty_micros)} EGP (withheld)`);
    expect(frame()).toContain(`Reserved now: ${egp(e.reservation!.cashMicros)} EGP of settled cash`);
    expect(source.calls.some(([c]) => c === 'placeOrder')).toBe(false);
    await press(app, '\r');
    await vi.waitFor(() => expect(frame()).toContain('Place buy 10 COMI limit 85 day?'), WAIT);
    expect(source.calls.some(([c]) => c === 'placeOrder')).toBe(false);
    await press(app, 'y');
    await vi.waitFor(() => expect(frame()).toContain('Placed ord_new0000001 buy 10 COMI limit 85.00 day: open'), WAIT);
    expect(source.calls).toContainEqual([
      'placeOrder',
      {
        investor_id: 'inv_aaaaaaaaaa',
        symbol: 'COMI',
        side: 'buy',
        type: 'limit',
        qty: 10,
        limit_price_micros: 85_000_000,
        time_in_force: 'day',
      },
    ]);
    await vi.waitFor(() => expect(frame()).toMatch(/› \d\d:\d\d\s+ord_new0000001/), WAIT);
  });

  it('the form refuses a limit outside the band and Esc leaves without placing', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 's');
    await vi.waitFor(() => expect(frame()).toContain('Sell for Omar Farouk (inv_aaaaaaaaaa)'), WAIT);
    await press(app, 'COMI\r', '5\r', '\u001B[C', '\r', '200\r');
    await vi.waitFor(() => expect(frame()).toContain("200 is outside today's band 68.51-102.75 EGP"), WAIT);
    await press(app, ESC);
    await vi.waitFor(() => expect(frame()).toContain('1 open · 1 recent'), WAIT);
    expect(source.calls.some(([c]) => c === 'placeOrder')).toBe(false);
  });

  it('c: cancels the selected open order after y; a closed one cannot be cancelled', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('ord_open000001'), WAIT);
    await press(app, 'c');
    await vi.waitFor(() => expect(frame()).toContain('Cancel ord_open000001 buy 5 TMGH limit 60.00 gtc: open?'), WAIT);
    await press(app, 'y');
    await vi.waitFor(() => expect(frame()).toContain('Cancel requested: ord_open000001'), WAIT);
    expect(source.calls).toContainEqual(['cancelOrder', 'ord_open000001']);
    await press(app, ARROW_DOWN);
    await vi.waitFor(() => expect(frame()).toMatch(/› 09:03\s+ord_done000001/), WAIT);
    await press(app, 'c');
    await vi.waitFor(
      () => expect(frame()).toContain('ord_done000001 is filled: only open orders can be cancelled.'),
      WAIT,
    );
  });

  it('an API refusal shows the message (its code after it), the registry hint and the request id', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    source.state.failNext.advance = new ApiFailure(
      'FORBIDDEN',
      'The admin key lacks sandbox:control.',
      'req_fake000002',
      'Use a key with the grant the message names.',
      403,
    );
    await press(app, 'a', '1');
    await vi.waitFor(() => expect(frame()).toContain('The admin key lacks sandbox:control. (FORBIDDEN)'), WAIT);
    expect(frame()).toContain('hint: Use a key with the grant the message names.  request req_fake000002');
  });

  it('q quits', async () => {
    // the refresh interval runs on fake timers, so "no read after q" covers fifty intervals without waiting
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { app, frame, source } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 'q');
    const reads = source.calls.length;
    await runTicks(50, 20);
    expect(source.calls.length).toBe(reads);
  });
});
