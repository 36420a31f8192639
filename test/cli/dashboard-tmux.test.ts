// svc dashboard in a real terminal (tmux 160x50) against a real daemon: the clock, the quote board and
// the investor's orders; `a` then +1 hour moves the sandbox clock; `b` places an order through the form
// after showing its estimate; `c` cancels it; `q` quits. Then at 80x24: every panel title and the
// investor's name on screen, keys sent all at once land in the form, a refusal's error is gone when
// the next form opens, and an investor without suitability is told so as the form opens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { cliInvestor } from '../helpers/cli-investor.js';
import { TmuxSession } from '../helpers/tmux.js';

let sbx: CliSandbox;
let inv: string;
let term: TmuxSession;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await cliInvestor(sbx, { depositEgp: '50000' });
  expect((await sbx.svc(['clock', 'advance', '--minutes', '3'])).code).toBe(0);
  expect((await sbx.svc(['order', 'buy', 'COMI', '10', '--investor', inv])).code).toBe(0);
  expect((await sbx.svc(['clock', 'advance', '--until', 'next_open'])).code).toBe(0);
  term = new TmuxSession(`env -u CI ${process.execPath} ${SVC} --home ${sbx.home} dashboard --investor ${inv}`, {
    width: 160,
    height: 50,
  });
});

afterAll(async () => {
  term?.kill();
  await sbx?.stop();
});

describe('svc dashboard in tmux', () => {
  it('shows the clock and session, the quote board with the tape prices, and the investor with the filled order', async () => {
    const screen = await term.waitFor(/COMI\s+\d+\.\d\d/);
    const comi = (await sbx.svc(['market', 'quotes', 'COMI', '--json'])).json.quotes[0];
    expect(screen).toContain('Sun 22 Nov 2026 10:00 Cairo');
    expect(screen).toContain('market OPEN');
    expect(screen).toMatch(new RegExp(`COMI\\s+${(comi.price_micros / 1e6).toFixed(2).replace('.', '\\.')}`));
    for (const s of ['TMGH', 'FWRY', 'EAST', 'ORAS']) expect(screen).toMatch(new RegExp(`│ ${s}\\s+\\d`));
    await term.waitFor('Omar Farouk');
    await term.waitFor(/ord_\w+\s+buy\s+10 COMI\s+market\s+day filled/);
  });

  it('a, then +1 hour: the sandbox clock moves an hour and the screen follows', async () => {
    term.keys('a');
    await term.waitFor('Advance the clock from Sun 22 Nov 2026 10:00');
    term.keys('Down', 'Down', 'Down');
    await term.waitFor(/\n│ 4 {2}\+1 hour/);
    term.keys('Enter');
    await term.waitFor('Clock advanced +1 hour to Sun 22 Nov 2026 11:00');
    // the status line comes first; the header and the quote board follow on the refresh it starts
    await term.waitFor('Sun 22 Nov 2026 11:00 Cairo');
    await term.waitFor('Quotes as of 11:00');
    expect((await sbx.svc(['clock', 'show', '--json'])).json.timestamp).toBe('2026-11-22T11:00:00+02:00');
  });

  it('b: the order form shows the estimate and places the order only once confirmed; c cancels it', async () => {
    term.keys('b');
    await term.waitFor(`Buy for Omar Farouk (${inv})`);
    term.type('TMGH');
    await term.waitFor('Talaat Moustafa');
    term.keys('Enter');
    term.type('5');
    term.keys('Enter', 'Right', 'Enter');
    term.type('60');
    term.keys('Enter');
    await term.waitFor('Value at the limit 60.00: 300.00 EGP');
    const form = await term.waitFor('Reserved now:');
    expect(form).toMatch(/Fees 5\.\d+ EGP \(commission 5\.00/);
    expect((await sbx.svc(['order', 'list', '--investor', inv, '--json'])).json.orders).toHaveLength(1);
    term.keys('Enter');
    await term.waitFor('Place buy 5 TMGH limit 60 day?');
    term.keys('y');
    const placed = await term.waitFor(/Placed (ord_\w+) buy 5 TMGH limit 60\.00 day: open/);
    const id = /Placed (ord_\w+)/.exec(placed)![1];
    expect((await sbx.svc(['order', 'show', id, '--json'])).json).toMatchObject({
      status: 'new',
      qty: 5,
      limit_price_micros: 60_000_000,
    });
    await term.waitFor(new RegExp(`› \\d\\d:\\d\\d\\s+${id}`));
    term.keys('c');
    await term.waitFor(`Cancel ${id} buy 5 TMGH limit 60.00 day: open?`);
    term.keys('y');
    await term.waitFor(`Cancel requested: ${id}`);
    expect((await sbx.svc(['order', 'show', id, '--json'])).json.status).toBe('pending_cancel');
  });

  it('q quits', async () => {
    term.keys('q');
    await term.waitForExit();
  });
});

describe('svc dashboard in tmux at 80x24', () => {
  let small: TmuxSession;
  let gated: string;

  beforeAll(async () => {
    // approved, but no suitability questionnaire on file
    const kyc = await sbx.svc([
      'kyc',
      'apply',
      '--full-name',
      'Hoda Mahmoud',
      '--national-id',
      '29105150112345',
      '--dob',
      '1991-05-15',
      '--email',
      'hoda@example.com',
      '--phone',
      '01012345679',
      '--address',
      '3 Nile Street, Giza',
      '--sample-documents',
      '--json',
    ]);
    expect(kyc.code, kyc.stderr).toBe(0);
    gated = kyc.json.investor_id;
    small = new TmuxSession(`env -u CI ${process.execPath} ${SVC} --home ${sbx.home} dashboard --investor ${inv}`, {
      width: 80,
      height: 24,
    });
  });

  afterAll(() => small?.kill());

  it('the clock, the investor name and every panel title fit: one line each for the header and the keys', async () => {
    const screen = await small.waitFor(/Quotes as of 11:00[\s\S]*Omar Farouk[\s\S]*Orders \d+ open/);
    const lines = screen.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(24);
    expect(lines[0]).toMatch(/^Sun 22 Nov 2026 11:00 Cairo {2}market OPEN closes 14:30 \(in 3h30m\) +clock frozen$/);
    expect(screen).toMatch(/│ Quotes as of 11:00/);
    expect(screen).toMatch(/│ Omar Farouk inv_\w+ · NSB-\d+ · active/);
    expect(screen).toMatch(/│ Orders \d+ open · \d+ recent/);
    expect(screen).toContain('a clock  i investor  b buy  s sell  c cancel  ↑↓ select  r refresh  q quit');
  });

  it('keys sent in one go (b, a symbol, Enter, a quantity) all land in the form b opened', async () => {
    small.type('bFWRY');
    small.keys('Enter');
    small.type('123456');
    const screen = await small.waitFor(/shares\s+123456/);
    expect(screen).toMatch(/symbol\s+FWRY\s+Fawry/);
    expect(screen).toContain(`Buy for Omar Farouk (${inv})`);
    // the name stays above the form too
    expect(screen.split('\n')[1]).toMatch(/^Omar Farouk inv_\w+ · active · settled cash/);
  });

  it("a refused order's error is shown, and gone when the next form opens", async () => {
    small.keys('Enter', 'Enter', 'Enter');
    await small.waitFor('Place buy 123456 FWRY market day?');
    small.keys('y');
    await small.waitFor(/settled cash.*\s*.*\(INSUFFICIENT_SETTLED_CASH\)/);
    small.keys('s');
    const screen = await small.waitFor('Sell for Omar Farouk');
    expect(screen).not.toContain('INSUFFICIENT_SETTLED_CASH');
    small.keys('Escape');
    await small.waitFor('q quit');
    small.keys('q');
    await small.waitForExit();
  });

  it('an investor without a suitability questionnaire is told so as the form opens, with the command that records it', async () => {
    const term2 = new TmuxSession(
      `env -u CI ${process.execPath} ${SVC} --home ${sbx.home} dashboard --investor ${gated}`,
      { width: 80, height: 24 },
    );
    try {
      await term2.waitFor(/│ Hoda Mahmoud/);
      term2.type('bCOMI');
      const screen = await term2.waitFor('Hoda Mahmoud has no suitability questionnaire on file');
      expect(screen.replace(/│/g, '').replace(/\s+/g, ' ')).toContain(`investor suitability ${gated}`);
      expect(screen).not.toMatch(/symbol\s+COMI/);
      expect((await sbx.svc(['order', 'list', '--investor', gated, '--json'])).json.orders).toHaveLength(0);
    } finally {
      term2.kill();
    }
  });
});
