// The dashboard as people use it fast and on small terminals (ink-testing-library and an in-memory
// LiveSource): keys typed faster than the screen draws all arrive, in order, at the form or menu the
// first of them opened; at 80x24 the investor's name and every panel title are on screen; a refused
// order's error is gone when the next form opens; the account's gates show as the form opens; the
// words are a trader's, not the API's.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render as inkRender } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { Dashboard } from '../../cli/ui/dashboard/Dashboard.js';
import { ApiFailure, type Account } from '../../cli/live/source.js';
import { fakeSource, order, press, WAIT, type FakeSource } from '../helpers/fake-source.js';

const ESC = '\u001B';
const RIGHT = '\u001B[C';

afterEach(() => cleanup());

function mount(source: FakeSource = fakeSource()) {
  const app = render(
    <Dashboard source={source} investorId="inv_aaaaaaaaaa" symbols={['COMI', 'TMGH', 'FWRY']} intervalMs={20} />,
  );
  return { source, app, frame: () => app.lastFrame() ?? '' };
}

/** A terminal of a given size (ink-testing-library's is always 100 columns and has no rows). */
class SizedStdout extends EventEmitter {
  frames: string[] = [];
  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
  };
  lastFrame = () => this.frames.at(-1) ?? '';
}

class TestStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit('readable');
  };
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

function mountSized(columns: number, rows: number, source: FakeSource = fakeSource()) {
  const stdout = new SizedStdout(columns, rows);
  const stdin = new TestStdin();
  const app = inkRender(
    <Dashboard source={source} investorId="inv_aaaaaaaaaa" symbols={['COMI', 'TMGH', 'FWRY']} intervalMs={20} />,
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: new SizedStdout(columns, rows) as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  return { source, app: { ...app, stdin }, frame: stdout.lastFrame };
}

/** The form's line of a field, e.g. "symbol". */
function fieldLine(frame: string, label: string): string {
  return frame.split('\n').find((l) => new RegExp(`│ [› ] ${label}\\s`).test(l)) ?? '';
}

function account(
  over: Omit<Partial<Account>, 'suitability'> & { suitability?: Partial<Account['suitability']> },
): (a: Account) => Account {
  return (a) => ({ ...a, ...over, suitability: { ...a.suitability, ...over.suitability } });
}

describe('keys typed faster than the screen draws', () => {
  it('b and a symbol in one write: the form the b opened holds the whole symbol', async () => {
    const { app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    app.stdin.write('bFWRY');
    await vi.waitFor(
      () => expect(fieldLine(frame(), 'symbol')).toMatch(/FWRY█? {2}Fawry for Banking Technology/),
      WAIT,
    );
  });

  it('a whole order in separate writes with no wait between them: every key lands in order, and y places it', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    for (const k of [
      'b',
      'T',
      'M',
      'G',
      'H',
      '\r',
      '1',
      '2',
      '3',
      '4',
      '\r',
      RIGHT,
      '\r',
      '6',
      '0',
      '.',
      '5',
      '\r',
      '\r',
      'y',
    ])
      app.stdin.write(k);
    await vi.waitFor(() => expect(source.calls.filter(([c]) => c === 'placeOrder')).toHaveLength(1), WAIT);
    expect(source.calls.find(([c]) => c === 'placeOrder')?.[1]).toEqual({
      investor_id: 'inv_aaaaaaaaaa',
      symbol: 'TMGH',
      side: 'buy',
      type: 'limit',
      qty: 1234,
      limit_price_micros: 60_500_000,
      time_in_force: 'day',
    });
    await vi.waitFor(
      () => expect(frame()).toContain('Placed ord_new0000001 buy 1234 TMGH limit 60.50 day: open'),
      WAIT,
    );
  });

  it('the same order pasted in one write is placed the same way', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    app.stdin.write('bTMGH\r1234\r');
    app.stdin.write(RIGHT);
    app.stdin.write('\r60.5\r\ry');
    await vi.waitFor(() => expect(source.calls.filter(([c]) => c === 'placeOrder')).toHaveLength(1), WAIT);
    expect(source.calls.find(([c]) => c === 'placeOrder')?.[1]).toMatchObject({
      symbol: 'TMGH',
      qty: 1234,
      limit_price_micros: 60_500_000,
    });
  });

  it('a4 in one write opens the advance menu and chooses +1 hour', async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    app.stdin.write('a4');
    await vi.waitFor(() => expect(frame()).toContain('Clock advanced +1 hour to Sun 22 Nov 2026 11:00.'), WAIT);
    expect(source.calls).toContainEqual(['advance', { hours: 1 }]);
  });

  it('keys typed while an action runs wait for it, then open the form', async () => {
    const source = fakeSource();
    let finish: () => void = () => undefined;
    const advance = source.advance.bind(source);
    source.advance = (step) => new Promise((resolve) => (finish = () => resolve(advance(step))));
    const { app, frame } = mount(source);
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    app.stdin.write('a1');
    await vi.waitFor(() => expect(frame()).toContain('advancing the clock +1 minute…'), WAIT);
    app.stdin.write('bCOMI');
    finish();
    await vi.waitFor(
      () => expect(fieldLine(frame(), 'symbol')).toMatch(/COMI█? {2}Commercial International Bank/),
      WAIT,
    );
  });
});

describe('at 80x24', () => {
  it('one line each for the header and the key bar; the investor name and the Quotes, Orders titles are on screen', async () => {
    const { frame } = mountSized(80, 24);
    await vi.waitFor(() => expect(frame()).toMatch(/ord_open000001/), WAIT);
    const lines = frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^Sun 22 Nov 2026 10:00 Cairo {2}market OPEN closes 14:30 \(in 4h30m\) +clock frozen$/);
    expect(frame()).toMatch(/│ Quotes as of 10:00/);
    expect(frame()).toMatch(/│ Omar Farouk inv_aaaaaaaaaa/);
    expect(frame()).toMatch(/│ Orders 1 open · 1 recent/);
    expect(lines.at(-1)).toMatch(
      /a clock {2}i investor {2}b buy {2}s sell {2}c cancel {2}↑↓ select {2}r refresh {2}q quit/,
    );
  });

  it('with more holdings than fit, every title stays and one line says how many more there are', async () => {
    const source = fakeSource();
    const held = source.state.balances.inv_aaaaaaaaaa;
    held.securities = ['COMI', 'TMGH', 'FWRY', 'EAST', 'HRHO', 'ETEL'].map((symbol) => ({
      asset: symbol,
      symbol,
      settled: 10,
      reserved: 0,
      unsettled: 0,
    }));
    const { frame } = mountSized(80, 24, source);
    await vi.waitFor(
      () => expect(frame()).toMatch(/more holdings: a taller terminal or svc balances shows them/),
      WAIT,
    );
    const lines = frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(frame()).toMatch(/│ Quotes as of 10:00/);
    expect(frame()).toMatch(/│ Omar Farouk inv_aaaaaaaaaa/);
    expect(frame()).toMatch(/│ Orders 1 open · 1 recent/);
    expect(frame()).toMatch(/│ › ord_open000001 buy\s+5 TMGH/);
    expect(lines.at(-1)).toContain('q quit');
  });

  it('with the form open the investor stays named above it and in its title', async () => {
    const { app, frame } = mountSized(80, 24);
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 'b', 'COMI\r10\r');
    await vi.waitFor(
      () => expect(frame()).toContain('Fills at once at the market price: nothing stays reserved'),
      WAIT,
    );
    const lines = frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(lines[1]).toMatch(/^Omar Farouk inv_aaaaaaaaaa · active · settled cash 48,831\.91 EGP/);
    expect(frame()).toContain('Buy for Omar Farouk (inv_aaaaaaaaaa)');
    expect(lines.at(-1)).toContain('Esc close');
  });
});

describe('errors and gates', () => {
  it("a refused order's error shows on the status line, and is gone when the next form opens", async () => {
    const { source, app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    source.state.failNext.placeOrder = new ApiFailure(
      'INSUFFICIENT_SETTLED_CASH',
      'The order needs 90,000.00 EGP of settled cash; 48,831.91 EGP is available.',
      'req_fake000009',
      'Deposit, or wait for settlement',
      422,
    );
    await press(app, 'b', 'COMI\r1000\r\r\r', 'y');
    await vi.waitFor(
      () =>
        expect(frame()).toMatch(
          new RegExp(
            String.raw`The order needs 90,000\.00 EGP of settled cash; 48,831\.91 EGP is available\.` +
              String.raw`\s+\(INSUFFICIENT_SETTLED_CASH\)`,
          ),
        ),
      WAIT,
    );
    expect(frame()).toContain('hint: Deposit, or wait for settlement  request req_fake000009');
    await press(app, 's');
    await vi.waitFor(() => expect(frame()).toContain('Sell for Omar Farouk'), WAIT);
    expect(frame()).not.toContain('90,000.00');
    expect(frame()).not.toContain('INSUFFICIENT_SETTLED_CASH');
    await press(app, ESC, 'b');
    await vi.waitFor(() => expect(frame()).toContain('Buy for Omar Farouk'), WAIT);
    expect(frame()).not.toContain('90,000.00');
  });

  it('no suitability on file: the form says so when it opens, offers no fields, and lifts when it is recorded', async () => {
    const source = fakeSource();
    source.state.accounts = source.state.accounts.map(
      account({ suitability: { recorded: false, risk_acknowledged: false } }),
    );
    const { app, frame } = mount(source);
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 'b');
    await vi.waitFor(
      () =>
        expect(frame()).toContain('Omar Farouk has no suitability questionnaire on file, which equity trading needs.'),
      WAIT,
    );
    expect(frame()).toContain('svc investor suitability inv_aaaaaaaaaa');
    expect(fieldLine(frame(), 'symbol')).toBe('');
    await press(app, 'COMI');
    expect(fieldLine(frame(), 'symbol')).toBe('');
    // recorded elsewhere (both gates at once): the next refresh opens the fields
    source.state.accounts = source.state.accounts.map(
      account({ suitability: { recorded: true, risk_acknowledged: true } }),
    );
    await vi.waitFor(() => expect(fieldLine(frame(), 'symbol')).toContain('symbol'), WAIT);
    expect(source.calls.some(([c]) => c === 'placeOrder')).toBe(false);
  });

  it('the risk disclosure not accepted: the form says so when it opens, for a sell too', async () => {
    const source = fakeSource();
    source.state.accounts = source.state.accounts.map(account({ suitability: { risk_acknowledged: false } }));
    const { app, frame } = mount(source);
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 's');
    await vi.waitFor(
      () => expect(frame()).toContain('Omar Farouk has not accepted the risk disclosure, which equity trading needs.'),
      WAIT,
    );
    expect(frame()).toContain('svc investor suitability inv_aaaaaaaaaa --ack-risk');
    await press(app, ESC);
    await vi.waitFor(() => expect(frame()).toContain('Orders 1 open'), WAIT);
  });

  it('a restricted account: buying is refused as the form opens; selling opens with a note', async () => {
    const source = fakeSource();
    source.state.accounts = source.state.accounts.map(account({ status: 'restricted' }));
    const { app, frame } = mount(source);
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 'b');
    await vi.waitFor(
      () => expect(frame()).toContain("Omar Farouk's account is restricted: it may sell what it holds, but not buy."),
      WAIT,
    );
    expect(fieldLine(frame(), 'symbol')).toBe('');
    await press(app, ESC, 's');
    await vi.waitFor(() => expect(frame()).toContain('Restricted account: selling what it holds is allowed.'), WAIT);
    expect(fieldLine(frame(), 'symbol')).toContain('symbol');
  });

  it('a closed account takes no order of either side', async () => {
    const source = fakeSource();
    source.state.accounts = source.state.accounts.map(account({ status: 'closed' }));
    const { app, frame } = mount(source);
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 's');
    await vi.waitFor(() => expect(frame()).toContain("Omar Farouk's account is closed: it takes no orders."), WAIT);
  });

  it('a shariah-only investor buying a non-compliant share is stopped at the symbol', async () => {
    const source = fakeSource();
    source.state.accounts = source.state.accounts.map(account({ shariah_only: true }));
    const { app, frame } = mount(source);
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 'b', 'COMI\r');
    await vi.waitFor(
      () =>
        expect(fieldLine(frame(), 'symbol')).toContain(
          'not shariah-compliant: this investor buys only compliant shares',
        ),
      WAIT,
    );
    expect(frame()).toContain('Shariah-only investor: only shariah-compliant shares can be bought.');
  });
});

describe('words', () => {
  it('orders show their status and why they ended in words, not API codes', async () => {
    const source = fakeSource();
    source.state.orders.inv_aaaaaaaaaa = [
      order({ order_id: 'ord_open000001', symbol: 'TMGH' }),
      order({
        order_id: 'ord_fok0000001',
        symbol: 'FWRY',
        time_in_force: 'fok',
        status: 'canceled',
        state: 'cancelled',
        reason_code: 'FOK_NOT_FILLED',
      }),
      order({
        order_id: 'ord_part000001',
        symbol: 'FWRY',
        status: 'partially_filled',
        state: 'partially_filled',
        filled_qty: 2,
      }),
    ];
    // wide enough for the reason after the fill (narrower terminals cut the row's end)
    const { frame } = mountSized(160, 40, source);
    await vi.waitFor(() => expect(frame()).toContain('ord_fok0000001'), WAIT);
    expect(frame()).toMatch(/ord_fok0000001 .*canceled .* not fillable in full at once/);
    expect(frame()).toMatch(/ord_part000001 .*partially filled/);
    expect(frame()).toMatch(/ord_open000001 .*open/);
    expect(frame()).not.toMatch(/FOK_NOT_FILLED|partially_filled/);
  });

  it('the form names its fields and explains the time in force', async () => {
    const { app, frame } = mount();
    await vi.waitFor(() => expect(frame()).toContain('Omar Farouk'), WAIT);
    await press(app, 'b');
    await vi.waitFor(() => expect(fieldLine(frame(), 'validity')).toContain('until the close'), WAIT);
    expect(fieldLine(frame(), 'shares')).not.toBe('');
    await press(app, 'COMI\r10\r\r', RIGHT);
    await vi.waitFor(() => expect(fieldLine(frame(), 'validity')).toContain('good till cancelled'), WAIT);
  });
});
