// The order wizard in a real terminal (tmux) against a real daemon: a limit off the tick is refused as it
// is typed, naming the nearest prices on the grid, and ioc and fok are not offered while the market is
// closed (they are once it opens).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SVC, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { cliInvestor } from '../helpers/cli-investor.js';
import { TmuxSession } from '../helpers/tmux.js';

let sbx: CliSandbox;
let inv: string;
let term: TmuxSession | undefined;

beforeAll(async () => {
  // 09:00 Cairo on a trading day: the market opens at 10:00
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await cliInvestor(sbx, { depositEgp: '50000' });
  expect((await sbx.svc(['clock', 'advance', '--minutes', '3'])).code).toBe(0);
});

afterEach(() => term?.kill());
afterAll(async () => sbx?.stop());

function svcInTerminal(args: string): TmuxSession {
  return new TmuxSession(
    `env -u CI -u SVC_INVESTOR_ID ${process.execPath} ${SVC} --home ${sbx.home} ${args}; echo "EXIT=$?"; sleep 60`,
    { width: 140, height: 40 },
  );
}

/** The time-in-force choices the select lists (its lines after the question). */
function tifChoicesShown(screen: string): string[] {
  const after = screen.slice(screen.lastIndexOf('Time in force'));
  return [...after.matchAll(/^\s*(?:❯\s*)?(day|gtc|ioc|fok)\s*$/gm)].map((m) => m[1]);
}

describe('svc order buy asks for a limit on the tick and a time in force the session allows', () => {
  it('85.125 is refused naming 85.12 and 85.13; while closed only day and gtc are offered; nothing is placed until confirmed', async () => {
    term = svcInTerminal(`order buy COMI --investor ${inv}`);
    await term.waitFor('market closed: day and gtc orders queue for the open');
    await term.waitFor('Quantity (whole shares)');
    term.type('5');
    term.keys('Enter');
    await term.waitFor('Order type');
    term.keys('Down', 'Enter');
    await term.waitFor('Limit price (EGP)');
    term.type('85.125');
    term.keys('Enter');
    await term.waitFor('85.125 EGP is not on the 0.01 EGP tick: use 85.12 or 85.13 EGP');
    expect(term.screen()).not.toContain('Time in force');
    term.keys('BSpace');
    term.keys('Enter');
    const tif = await term.waitFor('Time in force (ioc and fok need an open market)');
    expect(tifChoicesShown(tif)).toEqual(['day', 'gtc']);
    term.keys('Enter');
    const confirm = await term.waitFor('Place this order?');
    expect(confirm).toContain(`buy 5 COMI limit 85.12 day for ${inv}`);
    term.type('n');
    term.keys('Enter');
    expect(await term.waitFor('EXIT=0')).toContain('Nothing placed.');
    expect((await sbx.svc(['order', 'list', '--investor', inv, '--json'])).json.orders).toHaveLength(0);
  });

  it('in session all four times in force are offered', async () => {
    expect((await sbx.svc(['clock', 'advance', '--until', 'next_open'])).code).toBe(0);
    term = svcInTerminal(`order buy COMI --investor ${inv} --limit 85.12`);
    await term.waitFor('Quantity (whole shares)');
    term.type('5');
    term.keys('Enter');
    const tif = await term.waitFor(/Time in force\s*\n[\s\S]*fok/);
    expect(tif).not.toContain('need an open market');
    expect(tifChoicesShown(tif)).toEqual(['day', 'gtc', 'ioc', 'fok']);
    term.keys('C-c');
    await term.waitFor('EXIT=130');
  });
});
