// svc admin actions|propose|approve|reject|audit against a real daemon, without a TTY: maker-checker
// from the terminal with --as choosing the identity from the sandbox's credentials (propose acts as
// security, approve and reject as approver, reads as admin by default), the step-up code computed by
// svc, amounts in EGP and times in Cairo for people, the API's body with --json, refusals with the
// spec's code (exit 1) and usage errors before anything is sent (exit 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { formatMoney } from '../../daemon/contract/money.js';

let sbx: CliSandbox;
let inv: string;
let tenant: string;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await onboardViaCli(sbx, { fullName: 'Omar Farouk' });
  tenant = sbx.info.tenant_id;
}, 120_000);

afterAll(async () => sbx?.stop());

const adjust = (amount: string, reason: string, extra: string[] = []) =>
  sbx.svc([
    'admin',
    'propose',
    'ledger:adjust',
    '--param',
    `tenant_id=${tenant}`,
    '--param',
    `investor_id=${inv}`,
    '--param',
    `amount_micros=${amount}`,
    '--reason',
    reason,
    ...extra,
  ]);
const settledCash = async () =>
  (await sbx.svc(['balances', '--investor', inv, '--json'])).json.cash.find((c: any) => c.asset === 'cash:EGP')
    ?.settled ?? 0;

describe('propose and approve', () => {
  it('security proposes (the default identity): the stored proposal for people, amount_micros an integer shown in EGP', async () => {
    const res = await adjust('1500250000', 'goodwill credit for the outage');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^act_\w+\n/);
    expect(res.stdout).toMatch(/state\s+proposed/);
    expect(res.stdout).toMatch(/maker\s+security, \d{4}-\d{2}-\d{2} 09:00/); // Cairo wall time of the 09:00 start
    expect(res.stdout).toContain(`${formatMoney(1_500_250_000)} EGP (1500250000 micros)`);
    expect(res.stdout).toContain('admin approve act_');
    const listed = await sbx.svc(['admin', 'actions', '--state', 'proposed', '--json']);
    expect(listed.json.actions[0]).toMatchObject({
      action: 'ledger:adjust',
      maker: 'security',
      params: { amount_micros: 1_500_250_000, tenant_id: tenant, investor_id: inv },
    });
  });

  it('the approver approves (the default identity, step-up code sent by svc): the action runs and the cash moves', async () => {
    const id = (await sbx.svc(['admin', 'actions', '--state', 'proposed', '--json'])).json.actions[0].action_id;
    const before = await settledCash();
    const res = await sbx.svc(['admin', 'approve', id, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({
      action_id: id,
      state: 'approved',
      checker: 'approver',
      result: { activity_id: expect.any(String) },
    });
    expect(await settledCash()).toBe(before + 1_500_250_000);
    const table = await sbx.svc(['admin', 'actions']);
    expect(table.stdout.split('\n').find((l) => l.includes(id))).toMatch(
      /ledger:adjust\s+approved\s+security\s+.+approver/,
    );
  });

  it('security cannot approve its own proposal: the API refuses with FORBIDDEN (exit 1), nothing runs; --json prints the error body', async () => {
    expect((await adjust('1000000', 'small correction')).code).toBe(0);
    const id = (await sbx.svc(['admin', 'actions', '--state', 'proposed', '--json'])).json.actions[0].action_id;
    const plain = await sbx.svc(['admin', '--as', 'security', 'approve', id]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/FORBIDDEN \(HTTP 403\).*ledger:adjust:approve/);
    const json = await sbx.svc(['admin', 'approve', id, '--as', 'security', '--json']);
    expect([json.code, json.json.error.code]).toEqual([1, 'FORBIDDEN']);
    const rejected = await sbx.svc(['admin', 'reject', id, '--reason', 'wrong amount', '--json']);
    expect(rejected.json).toMatchObject({ state: 'rejected', checker: 'approver', decision_reason: 'wrong amount' });
    const again = await sbx.svc(['admin', 'approve', id, '--as', 'approver']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('ACTION_ALREADY_DECIDED');
  }, 60_000);

  it("params the base refuses are the API's INVALID_ACTION_PARAMS (exit 1); params svc cannot read, a missing reason or an unknown --as are usage errors (exit 2); --as auditor reads", async () => {
    const bad = await sbx.svc([
      'admin',
      'propose',
      'ledger:adjust',
      '--param',
      `tenant_id=${tenant}`,
      '--param',
      `investor_id=${inv}`,
      '--param',
      'amount_micros=0',
      '--reason',
      'x',
      '--json',
    ]);
    expect([bad.code, bad.json.error.code]).toEqual([1, 'INVALID_ACTION_PARAMS']);
    const unknown = await sbx.svc(['admin', 'propose', 'ledger:delete', '--reason', 'x']);
    expect([unknown.code, unknown.stderr.includes('UNKNOWN_ACTION')]).toEqual([1, true]);
    expect((await adjust('1.5', 'x')).stderr).toContain('--param amount_micros must be a whole number');
    expect((await adjust('1.5', 'x')).code).toBe(2);
    expect((await sbx.svc(['admin', 'propose', 'ledger:adjust', '--param', 'oops'])).code).toBe(2);
    expect((await sbx.svc(['admin', 'propose', 'ledger:adjust', '--param', 'a=b'])).stderr).toContain(
      'missing --reason',
    );
    // the first start mints an auditor now: it reads the actions (a home without one: test/cli/admin-identity.test.ts)
    const auditor = await sbx.svc(['admin', '--as', 'auditor', 'actions']);
    expect(auditor.code, auditor.stderr).toBe(0);
    expect((await sbx.svc(['admin', '--as', 'root', 'actions'])).code).toBe(2);
  });

  it('key:=JSON and dotted keys reach the stored params as JSON and nested objects', async () => {
    const res = await sbx.svc([
      'admin',
      'propose',
      'break-glass',
      '--param',
      'identity_id=opr_nobody',
      '--param',
      'minutes:=30',
      '--reason',
      'incident 42',
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.params).toEqual({ identity_id: 'opr_nobody', minutes: 30 });
    const nested = await sbx.svc([
      'admin',
      'propose',
      'keys:rotate-kek',
      '--param',
      'a.b=1',
      '--reason',
      'x',
      '--json',
    ]);
    expect(nested.json.error.message).toContain('params');
  });
});

describe('svc admin audit', () => {
  it('filters by action: the approval with its actor, Cairo time for people; --json the entries', async () => {
    const json = await sbx.svc(['admin', 'audit', '--action', 'admin_action.approved', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.json.entries).toHaveLength(1);
    expect(json.json.entries[0]).toMatchObject({ actor: 'operator:approver', action: 'admin_action.approved' });
    const plain = await sbx.svc(['admin', 'audit', '--action', 'admin_action.approved']);
    expect(plain.stdout).toMatch(/at \(Cairo\)/);
    expect(plain.stdout).toMatch(
      new RegExp(
        `${json.json.entries[0].seq}\\s+\\d{4}-\\d{2}-\\d{2} 09:00\\s+operator:approver\\s+admin_action.approved act_`,
      ),
    );
    for (const line of plain.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    const byActor = await sbx.svc([
      'admin',
      'audit',
      '--actor',
      'operator:security',
      '--from',
      '2026-11-22',
      '--to',
      '2026-11-22',
      '--json',
    ]);
    expect(byActor.json.entries.length).toBeGreaterThan(0);
    expect(byActor.json.entries.every((e: any) => e.actor === 'operator:security')).toBe(true);
    expect((await sbx.svc(['admin', 'audit', '--from', 'yesterday'])).code).toBe(2);
  });

  it('--verify: ok (exit 0) on an untouched chain', async () => {
    const res = await sbx.svc(['admin', 'audit', '--verify']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^ok: \d+ entries/);
    expect((await sbx.svc(['admin', 'audit', '--verify', '--json'])).json).toMatchObject({
      ok: true,
      first_bad_seq: null,
    });
  });
});
