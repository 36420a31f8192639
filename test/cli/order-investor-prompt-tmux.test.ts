// svc order buy|sell SYMBOL QTY with no investor (no --investor, no $SVC_INVESTOR_ID), in a real
// terminal (tmux) against a real daemon: it asks which of the tenant's accounts (newest first, filtered
// as you type, or an id typed in), asks nothing else, shows the estimate and places the order only once
// confirmed. With --json it stays the usage error it is in scripts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SVC, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { cliInvestor } from '../helpers/cli-investor.js';
import { TmuxSession } from '../helpers/tmux.js';

let sbx: CliSandbox;
let omar: string;
let mona: string;
let term: TmuxSession | undefined;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  omar = await cliInvestor(sbx, { name: 'Omar Farouk', depositEgp: '50000' });
  mona = await cliInvestor(sbx, { name: 'Mona Hassan' });
  expect((await sbx.svc(['clock', 'advance', '--until', 'next_open'])).code).toBe(0);
});

afterEach(() => term?.kill());
afterAll(async () => sbx?.stop());

/** Runs `svc ARGS` in tmux with no investor set and keeps the pane open after it exits, showing its exit code. */
function svcInTerminal(args: string): TmuxSession {
  return new TmuxSession(
    `env -u CI -u SVC_INVESTOR_ID ${process.execPath} ${SVC} --home ${sbx.home} ${args}; echo "EXIT=$?"; sleep 60`,
    { width: 140, height: 40 },
  );
}

async function ordersOf(investorId: string): Promise<unknown[]> {
  return (await sbx.svc(['order', 'list', '--investor', investorId, '--json'])).json.orders;
}

describe('svc order buy|sell SYMBOL QTY on a terminal asks for the missing investor', () => {
  it('offers the accounts newest first, filters them as you type; the chosen one is shown in the estimate; confirming places the order', async () => {
    term = svcInTerminal('order buy COMI 10');
    // the question shows first and the accounts once the tenant's list has loaded: wait for the last one
    const asked = await term.waitFor(
      new RegExp(`Investor \\(type a name, account number or id\\)[\\s\\S]*${omar} {2}Omar Farouk`),
    );
    expect(asked.indexOf(`${mona}  Mona Hassan`)).toBeGreaterThan(-1);
    expect(asked.indexOf(`${mona}  Mona Hassan`)).toBeLessThan(asked.indexOf(`${omar}  Omar Farouk`));
    term.type('farouk');
    await term.waitFor(new RegExp(`farouk\\n\\S ${omar} {2}Omar Farouk\\n`));
    term.keys('Enter');
    const screen = await term.waitFor('Place this order?');
    expect(screen).toContain(`buy 10 COMI market day for ${omar}`);
    expect(screen).toMatch(/Fees \d+\.\d+ EGP \(commission/);
    for (const question of ['Symbol', 'Quantity', 'Order type', 'Time in force'])
      expect(screen).not.toContain(question);
    expect(await ordersOf(omar)).toHaveLength(0);
    term.keys('Enter');
    const done = await term.waitFor('EXIT=0');
    expect(done).toMatch(/ord_\w+ {2}buy 10 COMI {2}market day {2}filled {2}filled 10\/10/);
    expect(await ordersOf(omar)).toEqual([
      expect.objectContaining({ symbol: 'COMI', side: 'buy', type: 'market', qty: 10, status: 'filled' }),
    ]);
    expect(await ordersOf(mona)).toHaveLength(0);
  });

  it('a typed id that is no account of the tenant is refused in the prompt; another can be chosen; declining places nothing', async () => {
    term = svcInTerminal('order sell COMI 1 --limit 90');
    await term.waitFor('Investor (type a name, account number or id)');
    term.type('inv_zzzzzzzzzz');
    await term.waitFor('the id as typed: not among the accounts listed');
    term.keys('Enter');
    await term.waitFor('no account inv_zzzzzzzzzz at this tenant');
    term.keys(...Array<string>(14).fill('BSpace'));
    term.type('hassan');
    await term.waitFor(new RegExp(`hassan\\n\\S ${mona} {2}Mona Hassan\\n`));
    term.keys('Enter');
    const screen = await term.waitFor('Place this order?');
    expect(screen).toContain(`sell 1 COMI limit 90 day for ${mona}`);
    expect(screen).toContain('More than the settled shares (0)');
    term.type('n');
    term.keys('Enter');
    const done = await term.waitFor('EXIT=0');
    expect(done).toContain('Nothing placed.');
    expect(await ordersOf(mona)).toHaveLength(0);
  });

  it('Ctrl-C at the question leaves quietly: exit 130, no stack trace, nothing placed', async () => {
    term = svcInTerminal('order buy COMI 3');
    await term.waitFor('Investor (type a name, account number or id)');
    term.keys('C-c');
    const done = await term.waitFor('EXIT=130');
    expect(done).toContain('cancelled');
    expect(done).not.toMatch(/ExitPromptError|at .*\.js:\d+/);
    expect((await ordersOf(omar)).filter((o) => (o as { qty: number }).qty === 3)).toHaveLength(0);
  });

  it('with --json nothing is asked even on a terminal: exit 2 naming the missing investor', async () => {
    term = svcInTerminal('order buy COMI 10 --json');
    const done = await term.waitFor('EXIT=2');
    expect(done).toContain('error missing --investor INV (or set SVC_INVESTOR_ID)');
    expect(done).not.toContain('Investor (');
  });
});
