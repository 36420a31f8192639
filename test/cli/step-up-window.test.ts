// svc steps up once and reuses the window (docs/backoffice.md, "Step-up"): each svc command is its own
// process, so it sends a money or approval request with no code first, and computes a code only when
// the daemon answers STEP_UP_REQUIRED. Three decisions in a row by the approver: one code, one step_up
// in the audit log, the next two decisions audited as using the window, and no command waits for the
// next 30-second step (three codes in a row would: the daemon accepts this step's and the next one's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
}, 120_000);

afterAll(async () => sbx?.stop());

describe('svc and the step-up window', () => {
  it('three svc admin reject commands in a row step up once and then use the window', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await sbx.svc([
        'admin',
        'propose',
        'broker:create',
        '--param',
        `name=Broker ${i}`,
        '--param',
        'name_ar=وسيط',
        '--param',
        `fra_license_no=${100 + i}/2026`,
        '--param',
        'contact_email=ops@example.com',
        '--param',
        'contact_phone=+20221234567',
        '--reason',
        'drill',
        '--json',
      ]);
      expect(p.code, p.stderr).toBe(0);
      ids.push(p.json.action_id);
    }
    for (const id of ids) {
      const r = await sbx.svc(['admin', 'reject', id, '--reason', 'not now', '--json']);
      expect([r.code, r.json.state], r.stderr).toEqual([0, 'rejected']);
    }
    const steps = await sbx.svc(['admin', 'audit', '--action', 'step_up', '--json']);
    expect(steps.json.entries.map((e: { actor: string }) => e.actor)).toEqual(['operator:approver']);
    const decisions = await sbx.svc(['admin', 'audit', '--action', 'POST /admin/actions/:id/reject', '--json']);
    const via = decisions.json.entries.map((e: { detail: string }) => JSON.parse(e.detail).step_up.via).reverse();
    expect(via).toEqual(['code', 'window', 'window']);
  }, 120_000);
});
