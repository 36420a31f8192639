// svc admin propose corp-action:process --param kind=split ... then svc admin approve, against a real
// daemon: the split is applied at the approval (the quote divided by the ratio, the result naming the
// split), and a second split of the symbol at the same instant is refused with its code (exit 1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { roundRatioToTick } from '../../daemon/market/ticks.js';

let sbx: CliSandbox;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
}, 120_000);

afterAll(async () => sbx?.stop());

const quote = async () =>
  (await sbx.svc(['market', 'quotes', 'COMI', '--json'])).json.quotes[0] as {
    price_micros: number;
    ref_price_micros: number;
  };
const proposeSplit = (ratio: string) =>
  sbx.svc([
    'admin',
    'propose',
    'corp-action:process',
    '--param',
    'kind=split',
    '--param',
    'symbol=COMI',
    '--param',
    `ratio=${ratio}`,
    '--reason',
    'COMI 2-for-1 split',
    '--json',
  ]);

describe('svc admin: a stock split from the terminal', () => {
  it('security proposes a 2-for-1 split of COMI, the approver approves it, and the quote is divided by 2', async () => {
    const before = await quote();
    const proposed = await proposeSplit('2');
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(proposed.json).toMatchObject({
      action: 'corp-action:process',
      state: 'proposed',
      params: { kind: 'split', symbol: 'COMI', ratio: 2 },
    });
    const approved = await sbx.svc(['admin', 'approve', proposed.json.action_id]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/state\s+approved/);
    expect(approved.stdout).toContain('split');
    const after = await quote();
    expect(after.price_micros).toBe(roundRatioToTick(BigInt(before.price_micros), 2n, 'nearest'));
    expect(after.ref_price_micros).toBe(roundRatioToTick(BigInt(before.ref_price_micros), 2n, 'nearest'));
    const shown = await sbx.svc(['admin', 'actions', '--state', 'approved', '--json']);
    expect(shown.json.actions[0]).toMatchObject({
      action_id: proposed.json.action_id,
      result: { kind: 'split', symbol: 'COMI', ratio: 2 },
    });
  }, 60_000);

  it('a second split of COMI at the same instant is SPLIT_ALREADY_APPLIED (exit 1) and the proposal stays open', async () => {
    const proposed = await proposeSplit('5');
    expect(proposed.code, proposed.stderr).toBe(0);
    const refused = await sbx.svc(['admin', 'approve', proposed.json.action_id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/SPLIT_ALREADY_APPLIED \(HTTP 409\)/);
    const open = await sbx.svc(['admin', 'actions', '--state', 'proposed', '--json']);
    expect(open.json.actions.map((a: { action_id: string }) => a.action_id)).toContain(proposed.json.action_id);
  }, 60_000);
});
