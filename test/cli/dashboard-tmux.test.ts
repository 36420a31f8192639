// svc dashboard in a real terminal (tmux 160x50) against a real daemon: the clock, the quote board and
// the investor's orders; `a` then +1 hour moves the sandbox clock; `b` places an order through the form
// after showing its estimate; `c` cancels it; `q` quits.
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
  term = new TmuxSession(`env -u CI ${process.execPath} ${SVC} --home ${sbx.home} dashboard --investor ${inv}`, { width: 160, height: 50 });
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
    await term.waitFor('Buy for ' + inv);
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
    const placed = await term.waitFor(/Placed (ord_\w+) buy 5 TMGH limit 60\.00 day: new/);
    const id = /Placed (ord_\w+)/.exec(placed)![1];
    expect((await sbx.svc(['order', 'show', id, '--json'])).json).toMatchObject({ status: 'new', qty: 5, limit_price_micros: 60_000_000 });
    await term.waitFor(new RegExp(`› \\d\\d:\\d\\d\\s+${id}`));
    term.keys('c');
    await term.waitFor(`Cancel ${id} buy 5 TMGH limit 60.00 day: new?`);
    term.keys('y');
    await term.waitFor(`Cancel requested: ${id}`);
    expect((await sbx.svc(['order', 'show', id, '--json'])).json.status).toBe('pending_cancel');
  });

  it('q quits', async () => {
    term.keys('q');
    await term.waitForExit();
  });
});
