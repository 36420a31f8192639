// svc order buy with nothing given, in a real terminal (tmux) against a real daemon: it asks for the
// symbol (searching the catalog), the quantity, the type, the limit and the time in force, shows the
// estimate (fees, stamp duty, reservation) and places the order only once confirmed.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SVC, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { cliInvestor } from '../helpers/cli-investor.js';
import { TmuxSession } from '../helpers/tmux.js';

let sbx: CliSandbox;
let inv: string;
let term: TmuxSession | undefined;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await cliInvestor(sbx, { depositEgp: '50000' });
  expect((await sbx.svc(['clock', 'advance', '--until', 'next_open'])).code).toBe(0);
});

afterEach(() => term?.kill());
afterAll(async () => sbx?.stop());

/** Runs `svc ARGS` in tmux and keeps the pane open after it exits, showing its exit code. */
function svcInTerminal(args: string): TmuxSession {
  return new TmuxSession(
    `env -u CI -u SVC_INVESTOR_ID ${process.execPath} ${SVC} --home ${sbx.home} ${args}; echo "EXIT=$?"; sleep 60`,
    { width: 140, height: 40 },
  );
}

describe('svc order buy on a terminal asks for what is missing', () => {
  it('symbol, quantity, limit, time in force; the estimate before confirming; then the order', async () => {
    term = svcInTerminal('order buy');
    await term.waitFor(`investor ${inv} (Omar Farouk), the only account`);
    await term.waitFor('Symbol (type to filter)');
    term.type('TMG');
    await term.waitFor('Talaat Moustafa');
    term.keys('Enter');
    await term.waitFor('Quantity (whole shares)');
    term.type('5');
    term.keys('Enter');
    await term.waitFor('Order type');
    term.keys('Down', 'Enter');
    await term.waitFor('Limit price (EGP)');
    term.type('60');
    term.keys('Enter');
    await term.waitFor('Time in force');
    term.keys('Enter');
    const screen = await term.waitFor('Place this order?');
    expect(screen).toContain(`buy 5 TMGH limit 60 day for ${inv}`);
    expect(screen).toContain('Value at the limit 60.00: 300.00 EGP');
    // money with two decimals, each figure rounded (IPF and FRA are 0.015 EGP, stamp duty 0.375)
    expect(screen).toMatch(/Fees 5\.\d\d EGP \(commission 5\.00, EGX 0\.03, MCDR 0\.03, IPF 0\.02, FRA 0\.02\)/);
    expect(screen).toContain('Stamp duty 0.38 EGP (withheld)');
    expect(screen).toMatch(/Reserved now: 305\.\d\d EGP of settled cash/);
    expect((await sbx.svc(['order', 'list', '--investor', inv, '--json'])).json.orders).toHaveLength(0);
    term.keys('Enter');
    const done = await term.waitFor('EXIT=0');
    expect(done).toMatch(/ord_\w+ {2}buy 5 TMGH {2}limit 60\.00 day {2}new/);
    expect((await sbx.svc(['order', 'list', '--investor', inv, '--json'])).json.orders).toEqual([
      expect.objectContaining({ symbol: 'TMGH', qty: 5, limit_price_micros: 60_000_000, status: 'new' }),
    ]);
  });

  it('given the symbol, asks only for the rest; declining places nothing', async () => {
    term = svcInTerminal('order sell COMI --tif gtc --limit 90');
    await term.waitFor('Quantity (whole shares)');
    expect(term.screen()).not.toContain('Symbol (type to filter)');
    term.type('3');
    term.keys('Enter');
    const screen = await term.waitFor('Place this order?');
    expect(screen).not.toContain('Order type');
    expect(screen).toContain(`sell 3 COMI limit 90 gtc for ${inv}`);
    expect(screen).toContain('More than the settled shares (0)');
    term.type('n');
    term.keys('Enter');
    const done = await term.waitFor('EXIT=0');
    expect(done).toContain('Nothing placed.');
    expect((await sbx.svc(['order', 'list', '--investor', inv, '--json'])).json.orders).toHaveLength(1);
  });
});
