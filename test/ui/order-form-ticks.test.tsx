// The dashboard's order form while typing: a limit off the tick grid is refused as it is typed, naming
// the nearest prices on the grid, and nothing can be placed with it; ioc and fok are not offered while
// the market is closed (ink-testing-library and an in-memory LiveSource).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { Dashboard } from '../../cli/ui/dashboard/Dashboard.js';
import type { LiveSource } from '../../cli/live/source.js';
import { fakeSource, press, WAIT } from '../helpers/fake-source.js';

const RIGHT = '\u001B[C';

afterEach(() => cleanup());

function mount(closed = false) {
  const source = fakeSource();
  if (closed) source.state.clock = { ...source.state.clock, is_open: false };
  // While closed, every quote says so too (the form reads the session from the symbol's quote).
  const live: LiveSource = closed
    ? {
        ...source,
        quotes: async (symbols) => (await source.quotes(symbols)).map((q) => ({ ...q, session_open: false })),
      }
    : source;
  const app = render(<Dashboard source={live} investorId="inv_aaaaaaaaaa" symbols={['COMI']} intervalMs={20} />);
  return { source, app, frame: () => app.lastFrame() ?? '' };
}

/** The form's time-in-force line. */
function tifLine(frame: string): string {
  return frame.split('\n').find((l) => /\bvalidity\b/.test(l) && /\[\w+\]/.test(l)) ?? '';
}

describe('the dashboard order form checks prices and times in force as you type', () => {
  it('85.125 is refused at once as off the 0.01 tick, naming 85.12 and 85.13; Enter does not go on and nothing is placed', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 'b');
    await vi.waitFor(() => expect(frame()).toContain('Buy for Omar Farouk (inv_aaaaaaaaaa)'), WAIT);
    await press(app, 'COMI\r', '10\r', RIGHT, '\r', '85.125');
    await vi.waitFor(
      () => expect(frame()).toContain('85.125 EGP is not on the 0.01 EGP tick: use 85.12 or 85.13 EGP'),
      WAIT,
    );
    // the estimate says why it is missing: the symbol and the shares are set, the price is what is wrong
    await vi.waitFor(
      () => expect(frame()).toContain('No estimate: 85.125 EGP is not on the 0.01 EGP tick: use 85.12 or 85.13 EGP'),
      WAIT,
    );
    expect(frame()).not.toContain('once the symbol and the shares are set');
    await press(app, '\r', '\r', '\r');
    expect(frame()).not.toContain('Place buy');
    expect(source.calls.some(([c]) => c === 'placeOrder')).toBe(false);
    // one digit less is on the grid: the problem goes and the order can be confirmed
    await press(app, '\x7f');
    await vi.waitFor(() => expect(frame()).not.toContain('not on the 0.01 tick'), WAIT);
    await press(app, '\r', '\r');
    await vi.waitFor(() => expect(frame()).toContain('Place buy 10 COMI limit 85.12 day?'), WAIT);
  });

  it('while the market is closed the time in force cycles through day and gtc only; in session ioc and fok are offered', async () => {
    const closed = mount(true);
    await vi.waitFor(() => expect(closed.frame()).toContain('market CLOSED'), WAIT);
    await press(closed.app, 'b');
    await press(closed.app, 'COMI\r', '10\r', '\r');
    await vi.waitFor(() => expect(closed.frame()).toMatch(/step 0\.01 · market closed/), WAIT);
    // the choices end with gtc: no ioc, no fok
    expect(tifLine(closed.frame())).toMatch(/validity\s+\[day\]\s+gtc\s+←→ change/);
    await press(closed.app, RIGHT);
    await vi.waitFor(() => expect(tifLine(closed.frame())).toContain('[gtc]'), WAIT);
    await press(closed.app, RIGHT);
    await vi.waitFor(() => expect(tifLine(closed.frame())).toContain('[day]'), WAIT);
    expect(closed.frame()).toContain('ioc and fok need an open market');
    cleanup();

    const open = mount(false);
    await vi.waitFor(() => expect(open.frame()).toContain('market OPEN'), WAIT);
    await press(open.app, 'b');
    await press(open.app, 'COMI\r', '10\r', '\r');
    await vi.waitFor(() => expect(open.frame()).toContain('in session'), WAIT);
    await press(open.app, RIGHT, RIGHT);
    await vi.waitFor(() => expect(tifLine(open.frame())).toContain('[ioc]'), WAIT);
    expect(tifLine(open.frame())).toMatch(/day.*gtc.*\[ioc\].*fok/);
  });
});
