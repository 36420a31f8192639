// svc admin recon run|breaks|ack|resolve against a real daemon, without a TTY: a cash break injected on
// the bank's side is found by a run, listed in EGP, resolved `adjusted` through `resolve --adjust` and an
// approval (the next run finds nothing), a position break in shares is accepted with a note, and the
// refusals keep the API's codes (exit 1) or are usage errors (exit 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { formatMoney } from '../../daemon/contract/money.js';

let sbx: CliSandbox;
let inv: string;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await onboardViaCli(sbx, { fullName: 'Nadia Samir', depositEgp: '1000' });
}, 120_000);

afterAll(async () => sbx?.stop());

const inject = async (body: Record<string, unknown>) => {
  const res = await sbx.svc([
    'api',
    'POST',
    '/admin/sandbox/inject-break',
    '-d',
    JSON.stringify({ investor_id: inv, ...body }),
  ]);
  expect(res.code, res.stderr).toBe(0);
};
const breaks = async (args: string[] = []) =>
  (await sbx.svc(['admin', 'recon', 'breaks', ...args, '--json'])).json.breaks as any[];

describe('a cash break, found and adjusted', () => {
  it('a clean sandbox reconciles with 0 breaks (the date defaults to the latest business day)', async () => {
    const res = await sbx.svc(['admin', 'recon', 'run']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^rcn_\w+ {2}reconciled 2026-11-22 at 2026-11-22 \d\d:\d\d \(Cairo\)/);
    expect(res.stdout).toContain('0 breaks: the book agrees with the custodian and the bank');
  });

  it('the bank shows 125 EGP more: the run opens one cash break, listed in EGP with book, statement and difference', async () => {
    await inject({ kind: 'cash', amount: 125_000_000 });
    const run = await sbx.svc(['admin', 'recon', 'run', '--date', '2026-11-22', '--json']);
    expect(run.json).toMatchObject({ date: '2026-11-22', breaks_found: 1, breaks_opened: 1 });
    const [b] = await breaks(['--state', 'open']);
    expect(b).toMatchObject({ kind: 'cash', investor_id: inv, asset: 'cash:EGP', difference: -125_000_000 });
    const plain = await sbx.svc(['admin', 'recon', 'breaks', '--state', 'open']);
    const row = plain.stdout.split('\n').find((l) => l.startsWith(b.break_id));
    expect(row).toMatch(
      new RegExp(
        `cash\\s+${inv}\\s+EGP\\s+${formatMoney(b.ledger_value).replace('.', '\\.')}\\s+` +
          `${formatMoney(b.external_value).replace('.', '\\.')}\\s+-125\\.00\\s+open`,
      ),
    );
    expect(plain.stdout).toContain('difference = book - statement');
  });

  it('resolve --adjust proposes the ledger:adjust of -difference naming the break; the approval resolves it adjusted and the next run finds nothing', async () => {
    const [b] = await breaks(['--state', 'open']);
    const proposed = await sbx.svc(['admin', 'recon', 'resolve', b.break_id, '--adjust', '--json']);
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(proposed.json).toMatchObject({
      action: 'ledger:adjust',
      maker: 'security',
      params: { investor_id: inv, amount_micros: 125_000_000, break_id: b.break_id },
    });
    const approved = await sbx.svc(['admin', 'approve', proposed.json.action_id, '--json']);
    expect(approved.json).toMatchObject({
      state: 'approved',
      result: { break_id: b.break_id, break_resolution: 'adjusted' },
    });
    const [after] = await breaks(['--investor', inv, '--kind', 'cash']);
    expect(after).toMatchObject({
      break_id: b.break_id,
      state: 'resolved',
      resolution: 'adjusted',
      resolved_by: proposed.json.action_id,
    });
    expect((await sbx.svc(['admin', 'recon', 'breaks'])).stdout).toMatch(new RegExp(`${b.break_id}.*adjusted`));
    const again = await sbx.svc(['admin', 'recon', 'run', '--json']);
    expect(again.json).toMatchObject({ breaks_found: 0, breaks_opened: 0 });
    const twice = await sbx.svc(['admin', 'recon', 'resolve', b.break_id, '--adjust']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('BREAK_STATE_CONFLICT');
  }, 60_000);
});

describe('a position break, acknowledged and accepted', () => {
  it("shares for positions; ack then --accept --note resolves it accepted; --adjust is refused for shares (exit 2); a second resolve is the API's 409", async () => {
    await inject({ kind: 'position', symbol: 'COMI', amount: 7 });
    expect((await sbx.svc(['admin', 'recon', 'run', '--json'])).json.breaks_opened).toBe(1);
    const [b] = await breaks(['--state', 'open', '--kind', 'position']);
    expect(b).toMatchObject({ asset: 'COMI', ledger_value: 0, external_value: 7, difference: -7 });
    expect((await sbx.svc(['admin', 'recon', 'breaks', '--kind', 'position'])).stdout).toMatch(
      /position\s+\S+\s+COMI\s+0\s+7\s+-7\s+open/,
    );
    const adjust = await sbx.svc(['admin', 'recon', 'resolve', b.break_id, '--adjust']);
    expect([adjust.code, adjust.stderr.includes('moves cash only')]).toEqual([2, true]);
    const ack = await sbx.svc(['admin', 'recon', 'ack', b.break_id, '--note', 'asked MCDR']);
    expect(ack.stdout).toContain(`${b.break_id}  position break of ${inv} COMI: acknowledged by operator:admin`);
    expect((await sbx.svc(['admin', 'recon', 'resolve', b.break_id, '--accept'])).stderr).toContain('missing --note');
    expect((await sbx.svc(['admin', 'recon', 'resolve', b.break_id, '--accept', '--adjust', '--note', 'x'])).code).toBe(
      2,
    );
    const accepted = await sbx.svc([
      'admin',
      'recon',
      'resolve',
      b.break_id,
      '--accept',
      '--note',
      'MCDR confirms a pending transfer',
    ]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('accepted by operator:admin');
    expect(accepted.stdout).toContain('note: MCDR confirms a pending transfer');
    const second = await sbx.svc(['admin', 'recon', 'resolve', b.break_id, '--accept', '--note', 'again', '--json']);
    expect([second.code, second.json.error.code]).toEqual([1, 'BREAK_STATE_CONFLICT']);
  }, 60_000);

  it("a run on a future date or a malformed one: the API's RECONCILIATION_DATE_INVALID (exit 1); a bad --state is a usage error (exit 2)", async () => {
    const future = await sbx.svc(['admin', 'recon', 'run', '--date', '2099-01-04']);
    expect([future.code, future.stderr.includes('RECONCILIATION_DATE_INVALID')]).toEqual([1, true]);
    expect((await sbx.svc(['admin', 'recon', 'run', '--date', 'today'])).code).toBe(2);
    expect((await sbx.svc(['admin', 'recon', 'breaks', '--state', 'closed'])).code).toBe(2);
  });
});
