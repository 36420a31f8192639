// svc transfer deposit|withdraw|list and svc desk funding list|approve|reject against a real daemon,
// without a TTY: amounts typed in EGP, --json everywhere, exit codes 0 ok / 1 API error / 2 usage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;
let inv: string;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await onboardViaCli(sbx, { fullName: 'Mona Hassan' });
});

afterAll(async () => sbx?.stop());

describe('svc transfer', () => {
  it('deposit AMOUNT_EGP converts EGP to exact micros; --wait on a frozen clock returns at once and says how to advance', async () => {
    const res = await sbx.svc(['transfer', 'deposit', '1500.25', '--investor', inv, '--wait', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({
      investor_id: inv,
      direction: 'deposit',
      amount_micros: 1_500_250_000,
      state: 'received',
      approval: 'automatic',
    });
    // the hint keeps the --home in use (the helper passes --home)
    expect(res.stderr).toContain(`svc --home ${sbx.home} clock advance --minutes 3`);

    expect((await sbx.svc(['clock', 'advance', '--minutes', '3', '--json'])).code).toBe(0);
    const list = await sbx.svc(['transfer', 'list', '--investor', inv, '--json']);
    expect(list.code).toBe(0);
    expect(list.json.transfers).toEqual([
      expect.objectContaining({
        transfer_id: res.json.transfer_id,
        state: 'completed',
        rail_ref: expect.stringMatching(/^rail_/),
      }),
    ]);

    const plain = await sbx.svc(['transfer', 'list', '--investor', inv]);
    expect(plain.stdout).toContain('1,500.25');
    expect(plain.stdout).toContain('completed');
  });

  it('withdraw takes the investor from SVC_INVESTOR_ID; a refusal exits 1 with the error body on stdout under --json', async () => {
    const ok = await sbx.svc(['transfer', 'withdraw', '0.25', '--json'], { SVC_INVESTOR_ID: inv });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ direction: 'withdrawal', amount_micros: 250_000, state: 'received' });

    const refused = await sbx.svc(['transfer', 'withdraw', '100000', '--json'], { SVC_INVESTOR_ID: inv });
    expect(refused.code).toBe(1);
    expect(refused.json.error.code).toBe('TRANSFER_LIMIT_EXCEEDED');
    const short = await sbx.svc(['transfer', 'withdraw', '5000'], { SVC_INVESTOR_ID: inv });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('INSUFFICIENT_SETTLED_CASH');
  });

  it('bad amounts and a missing investor are usage errors (exit 2) and send nothing', async () => {
    const before = (await sbx.svc(['transfer', 'list', '--json'])).json.transfers.length;
    for (const amount of ['1.1234567', 'abc', '1e5', '0', '99999999999999']) {
      const res = await sbx.svc(['transfer', 'deposit', '--investor', inv, '--', amount]);
      expect(res.code, amount).toBe(2);
      expect(res.stderr, amount).toContain('AMOUNT_EGP');
    }
    const negative = await sbx.svc(['transfer', 'deposit', '--investor', inv, '--', '-5']);
    expect([negative.code, negative.stderr.includes('negative')]).toEqual([2, true]);
    const noInvestor = await sbx.svc(['transfer', 'deposit', '10'], { SVC_INVESTOR_ID: '' });
    expect(noInvestor.code).toBe(2);
    expect(noInvestor.stderr).toContain('--investor');
    expect((await sbx.svc(['transfer', 'list', '--json'])).json.transfers.length).toBe(before);
  });
});

describe('svc desk funding', () => {
  it('with manual approval on, list shows the waiting transfer; reject needs --reason; approve and reject decide', async () => {
    expect((await sbx.svc(['api', 'POST', '/admin/sandbox/manual-funding', '-d', '{"enabled":true}'])).code).toBe(0);
    const a = (await sbx.svc(['transfer', 'deposit', '10', '--investor', inv, '--json'])).json;
    const b = (await sbx.svc(['transfer', 'deposit', '20', '--investor', inv, '--json'])).json;
    expect(a.approval).toBe('pending');

    const waiting = await sbx.svc(['desk', 'funding', 'list', '--json']);
    expect(waiting.code).toBe(0);
    expect(waiting.json.funding.map((x: any) => x.transfer_id)).toEqual([b.transfer_id, a.transfer_id]);

    const noReason = await sbx.svc(['desk', 'funding', 'reject', a.transfer_id]);
    expect(noReason.code).toBe(2);
    const rejected = await sbx.svc(['desk', 'funding', 'reject', a.transfer_id, '--reason', 'AML_REVIEW', '--json']);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.json).toMatchObject({ state: 'failed', approval: 'rejected', reason_code: 'AML_REVIEW' });

    const approved = await sbx.svc(['desk', 'funding', 'approve', b.transfer_id]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('approved');
    const again = await sbx.svc(['desk', 'funding', 'approve', b.transfer_id, '--json']);
    expect([again.code, again.json.error.code]).toEqual([1, 'TRANSFER_NOT_PENDING_APPROVAL']);
    expect((await sbx.svc(['desk', 'funding', 'list'])).stdout).toContain('No transfers waiting');
    expect((await sbx.svc(['api', 'POST', '/admin/sandbox/manual-funding', '-d', '{"enabled":false}'])).code).toBe(0);
  });
});

describe('svc transfer --wait on a running clock', () => {
  it('polls until completed (exit 0) or failed (exit 1, e.g. the 666 EGP rail failure)', async () => {
    expect((await sbx.svc(['api', 'POST', '/admin/sandbox/clock', '-d', '{"mode":"running","speed":600}'])).code).toBe(
      0,
    );
    const done = await sbx.svc(['transfer', 'deposit', '25', '--investor', inv, '--wait', '--timeout', '30', '--json']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.json).toMatchObject({ state: 'completed', amount_micros: 25_000_000 });

    const failed = await sbx.svc(['transfer', 'deposit', '666', '--investor', inv, '--wait', '--timeout', '30']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('failed (RAIL_REJECTED)');
    expect(failed.stderr).toMatch(/-> failed \(rail rail_/);
  });
});
