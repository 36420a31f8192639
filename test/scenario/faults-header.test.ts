// The scenario header's `faults:` and `expect_report:` (docs/scenarios.md, docs/faults.md): the rules are
// added before the first step, and the fault report is asserted after the last one; a client that
// retries with a new Idempotency-Key fails the file, naming the finding.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-scenario-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SHIPPED = 'scenarios/22-faults-retry.yaml';

describe('scenario header faults: and expect_report:', () => {
  it('a retry with the same key passes expect_report: { findings: 0 }', async () => {
    const res = await runSvc(['scenario', 'run', SHIPPED], { timeoutMs: 60_000 });
    expect(res.code, res.stdout + res.stderr).toBe(0);
  });

  it('a retry with a new key fails the file with the finding', async () => {
    const text = readFileSync(SHIPPED, 'utf8').split('idempotency_key: deposit-1');
    const f = join(dir, 'new-key.yaml');
    writeFileSync(f, `${text[0]}idempotency_key: deposit-1${text[1]}idempotency_key: deposit-2${text[2]}`);
    const res = await runSvc(['scenario', 'run', f], { timeoutMs: 60_000 });
    expect(res.code).toBe(1);
    expect(res.stdout + res.stderr).toMatch(/expect_report: findings 1, expected 0 .*new Idempotency-Key/);
  });

  it("a rule the daemon refuses is the file's error, and no step runs", async () => {
    const f = join(dir, 'bad-rule.yaml');
    const shipped = readFileSync(SHIPPED, 'utf8');
    writeFileSync(f, shipped.replace('route: POST /v1/transfers', 'route: POST /v1/nowhere'));
    const res = await runSvc(['scenario', 'run', f], { timeoutMs: 60_000 });
    expect(res.code).not.toBe(0);
    expect(res.stdout + res.stderr).toContain('FAULT_ROUTE_UNKNOWN');
  });
});
