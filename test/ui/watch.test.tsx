// svc market watch's quote strip with ink-testing-library and an in-memory LiveSource: each refresh
// redraws the strip, a moved price shows its direction, --count stops after N refreshes, q quits.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { QuoteStrip, Watch } from '../../cli/ui/watch/Watch.js';
import { fakeSource, press, quote, runTicks, WAIT } from '../helpers/fake-source.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const quoteCalls = (calls: Array<[string, unknown]>) => calls.filter(([c]) => c === 'quotes').length;

describe('svc market watch strip', () => {
  it('shows each symbol with its price and change since the previous close', () => {
    const app = render(
      <QuoteStrip
        quotes={[
          quote('COMI', 85_630_000, { change_pct: 0.0123 }),
          quote('FWRY', 1_234_000, { tick_micros: 1_000, change_pct: -0.005, halted: true }),
        ]}
        moves={new Map([['COMI', { direction: 'up', fresh: true }]])}
      />,
    );
    const f = app.lastFrame() ?? '';
    expect(f).toContain('COMI 85.63 ▲ +1.23%');
    expect(f).toMatch(/FWRY 1\.234 {3}-0\.50% HALTED/);
  });

  it('refreshes on its interval; a price moved by a clock advance gets its arrow', async () => {
    const source = fakeSource();
    const app = render(<Watch source={source} symbols={['COMI', 'TMGH']} intervalMs={20} count={null} />);
    await vi.waitFor(() => expect(app.lastFrame()).toMatch(/COMI 85\.63\s+0\.00%/), WAIT);
    expect(app.lastFrame()).toContain('Sun 22 Nov 2026 10:00 Cairo · market open');
    await source.advance({ minutes: 1 });
    await vi.waitFor(() => expect(app.lastFrame()).toContain('COMI 85.64 ▲'), WAIT);
    expect(app.lastFrame()).toContain('TMGH 70.58 ▲');
    expect(app.lastFrame()).toContain('10:01 Cairo');
    // a frozen clock: the next refreshes keep the arrow of the last move
    const calls = quoteCalls(source.calls);
    await vi.waitFor(() => expect(quoteCalls(source.calls)).toBeGreaterThan(calls + 2), WAIT);
    expect(app.lastFrame()).toContain('COMI 85.64 ▲');
  });

  it('--count N stops after N refreshes', async () => {
    // fifty refresh intervals on fake timers: the strip must stop at the third on its own
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const source = fakeSource();
    const app = render(<Watch source={source} symbols={['FWRY']} intervalMs={10} count={3} />);
    await runTicks(50, 10);
    // the strip exits right after drawing refresh 3/3, and a later frame may be the cleared screen,
    // so look through every frame drawn rather than only the last one
    expect(app.frames.some((f) => f.includes('refresh 3/3'))).toBe(true);
    expect(app.frames.some((f) => f.includes('refresh 4/3'))).toBe(false);
    expect(quoteCalls(source.calls)).toBe(3);
  });

  it('q quits', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const source = fakeSource();
    const app = render(<Watch source={source} symbols={['FWRY']} intervalMs={10} count={null} />);
    await vi.waitFor(() => expect(app.lastFrame()).toContain('FWRY 10.97'), WAIT);
    await press(app, 'q');
    const calls = quoteCalls(source.calls);
    await runTicks(50, 10);
    expect(quoteCalls(source.calls)).toBe(calls);
  });

  it('a failed refresh is shown and the strip keeps going', async () => {
    const source = fakeSource();
    const app = render(<Watch source={source} symbols={['COMI']} intervalMs={15} count={null} />);
    await vi.waitFor(() => expect(app.lastFrame()).toContain('COMI 85.63'), WAIT);
    const { ApiFailure } = await import('../../cli/live/source.js');
    source.state.failNext.quotes = new ApiFailure('UNKNOWN_SYMBOL', 'No instrument NOPE.', 'req_x', undefined, 404);
    await vi.waitFor(() => expect(app.lastFrame()).toContain('refresh failed: No instrument NOPE.'), WAIT);
    await vi.waitFor(() => expect(app.lastFrame()).not.toContain('refresh failed'), WAIT);
  });
});
