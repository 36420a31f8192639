// svc sandbox export --redact (docs/snapshots.md, "Redaction"), through the real binary: the snapshot is
// the sandbox rebuilt from its redacted journal, so imported elsewhere it has the same applications,
// investors and balances under the same ids, but fake names and national ids, and keys of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { nationalId, SAMPLE_FRONT } from '../helpers/onboarding.js';

let a: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'svc-export-redact-'));
const file = join(dir, 'support.svcsnap');
const elsewhere = join(dir, 'elsewhere');
const person = { name: 'Nadia Exportable', id: nationalId() };
let applicationId: string;
let exported: any;

beforeAll(async () => {
  a = await startSandbox(['--seed', '33']);
  writeFileSync(join(dir, 'front.png'), SAMPLE_FRONT);
  const r = await a.svc([
    'kyc',
    'apply',
    '--full-name',
    person.name,
    '--national-id',
    person.id.nationalId,
    '--dob',
    person.id.dateOfBirth,
    '--email',
    'nadia.private@example.org',
    '--phone',
    '01012345678',
    '--address',
    '3 Private Street, Maadi',
    '--front',
    join(dir, 'front.png'),
    '--back',
    join(dir, 'front.png'),
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  applicationId = r.json.application_id;
  const e = await a.svc(['sandbox', 'export', '--redact', file, '--json'], {});
  expect(e.code, e.stderr).toBe(0);
  exported = e.json;
}, 180_000);

afterAll(async () => {
  await runSvc(['sandbox', 'stop'], { home: elsewhere });
  await a?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('svc sandbox export --redact', () => {
  it('writes a private snapshot (0600) and says how much it replayed and redacted', () => {
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(exported.file).toBe(file);
    expect(exported.replayed_entries).toBeGreaterThan(0);
    expect(exported.redacted).toMatchObject({ names: 1, national_ids: 1, emails: 1, phones: 1, addresses: 1 });
  });

  it('imported elsewhere, has the same application under the same id and state, with a fake name and national id, and keys of its own', async () => {
    const imp = await runSvc(['sandbox', 'import', file, '--port', '0', '--json'], {
      home: elsewhere,
      timeoutMs: 120_000,
    });
    expect(imp.code, imp.stderr).toBe(0);
    const there = await runSvc(['api', 'GET', `/v1/kyc/applications/${applicationId}`], { home: elsewhere });
    const here = await a.svc(['api', 'GET', `/v1/kyc/applications/${applicationId}`]);
    expect(there.code, there.stderr).toBe(0);
    expect(here.code, here.stderr).toBe(0);
    expect(there.json.state).toBe(here.json.state);
    expect(there.json.investor_id).toBe(here.json.investor_id);
    // the ID images were replaced too: the same sides, other bytes
    expect(there.json.documents.map((d: any) => d.side)).toEqual(here.json.documents.map((d: any) => d.side));
    expect(there.json.documents[0].sha256).not.toBe(here.json.documents[0].sha256);
    const investor = `/v1/investors/${here.json.investor_id}`;
    const invHere = await a.svc(['api', 'GET', investor]);
    const invThere = await runSvc(['api', 'GET', investor], { home: elsewhere });
    expect(invHere.json.full_name).toBe(person.name);
    expect(invThere.json.full_name).toEqual(expect.any(String));
    expect(invThere.json.full_name).not.toBe(person.name);
    expect(invThere.json.account_number).toBe(invHere.json.account_number);
    const keyHere = (await a.svc(['sandbox', 'env'])).stdout;
    const keyThere = (await runSvc(['sandbox', 'env'], { home: elsewhere })).stdout;
    const apiKey = (s: string) => /SVC_API_KEY=['"]?([^'"\s]+)/.exec(s)?.[1];
    expect(apiKey(keyHere)).toBeTruthy();
    expect(apiKey(keyThere)).not.toBe(apiKey(keyHere));
  });
});
