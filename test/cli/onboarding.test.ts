// A CLI test that onboards an investor end to end through `svc` without a TTY: a real daemon, the
// built binary, every KYC field and suitability answer given as a flag, JSON on stdout.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nationalId } from '../helpers/onboarding.js';

const BIN = resolve('bin/svc');
let home: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs ./bin/svc with pipes (never a TTY) and NO_COLOR; CI is left unset so only the missing TTY stops the wizard. */
function svc(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    const childEnv: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...env };
    delete childEnv.CI;
    const child = execFile(
      process.execPath,
      [BIN, '--home', home, ...args],
      { env: childEnv, timeout: 60_000 },
      (err, stdout, stderr) => {
        let json: any;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        done({ code: err ? (typeof (err as any).code === 'number' ? (err as any).code : 1) : 0, stdout, stderr, json });
      },
    );
    child.stdin?.end();
  });
}

function applyFlags(suffix?: string): string[] {
  const { nationalId: id, dateOfBirth } = nationalId(suffix);
  return [
    '--full-name',
    'Mona Hassan',
    '--national-id',
    id,
    '--dob',
    dateOfBirth,
    '--email',
    'mona@example.com',
    '--phone',
    '01012345678',
    '--address',
    '12 Tahrir Street, Cairo',
  ];
}

beforeAll(async () => {
  // vitest's global setup builds dist/ once before any file runs; rebuilding here while other CLI test
  // files run their daemons would rewrite files under them, so build only when dist/ is missing.
  if (!existsSync('dist/cli/main.js') || !existsSync('dist/daemon/main.js'))
    execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  home = mkdtempSync(join(tmpdir(), 'svc-onboarding-'));
  const started = await svc(['sandbox', 'start', '--port', '0', '--json']);
  if (started.code !== 0) throw new Error(`sandbox start failed: ${started.stderr}`);
});

afterAll(async () => {
  await svc(['sandbox', 'stop']);
  rmSync(home, { recursive: true, force: true });
});

describe('svc kyc apply / investor suitability / investor show without a TTY: every prompt has a flag', () => {
  it('onboards an investor end to end: apply with the sample documents, record suitability, show the investor', async () => {
    const applied = await svc(['kyc', 'apply', ...applyFlags(), '--sample-documents', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.json).toMatchObject({
      application_id: expect.stringMatching(/^kyc_/),
      state: 'approved',
      path: 'documents',
      investor_id: expect.stringMatching(/^inv_/),
    });
    expect(applied.json.documents.map((d: any) => d.side)).toEqual(['national_id_front', 'national_id_back']);
    const investorId = applied.json.investor_id;

    const suit = await svc([
      'investor',
      'suitability',
      investorId,
      '--experience',
      'moderate',
      '--horizon',
      '3_5y',
      '--risk',
      'medium',
      '--income',
      '300k_1m',
      '--net-worth',
      '1m_5m',
      '--objectives',
      'growth,income',
      '--ack-risk',
      '--json',
    ]);
    expect(suit.code, suit.stderr).toBe(0);
    expect(suit.json).toEqual({
      investor_id: investorId,
      suitability: { tier: 2, score: 11, recorded: true, risk_acknowledged: true },
      shariah_only: false,
    });

    const shown = await svc(['investor', 'show', '--json'], { SVC_INVESTOR_ID: investorId });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json).toMatchObject({
      investor_id: investorId,
      full_name: 'Mona Hassan',
      status: 'active',
      suitability_recorded: true,
      risk_acknowledged: true,
    });

    const plain = await svc(['kyc', 'status', applied.json.application_id]);
    expect(plain.stdout).toContain(`export SVC_INVESTOR_ID=${investorId}`);
  });

  it('--front/--back upload image files; --no-documents takes the dossier-only path', async () => {
    const files = await svc([
      'kyc',
      'apply',
      ...applyFlags(),
      '--front',
      'fixtures/documents/national_id_front.png',
      '--back',
      'fixtures/documents/national_id_back.png',
      '--json',
    ]);
    expect(files.json).toMatchObject({ state: 'approved', path: 'documents' });
    const dossier = await svc(['kyc', 'apply', ...applyFlags(), '--no-documents', '--json']);
    expect(dossier.json).toMatchObject({ state: 'approved', path: 'dossier', documents: [] });
  });

  it('a 9999 application waits for the dealer: svc desk kyc list shows it, clear approves it', async () => {
    const applied = await svc(['kyc', 'apply', ...applyFlags('9999'), '--sample-documents', '--json']);
    expect(applied.json.state).toBe('screening_referred');
    const id = applied.json.application_id;
    // without --json the outcome names the dealer's command, with the --home in use
    const status = await svc(['kyc', 'status', id]);
    expect(status.stdout).toContain(`A dealer decides with: svc --home ${home} desk kyc clear ${id}`);
    const list = await svc(['desk', 'kyc', 'list', '--json']);
    expect(list.json.applications.map((a: any) => a.application_id)).toContain(id);
    const cleared = await svc(['desk', 'kyc', 'clear', id, '--json']);
    expect(cleared.json).toMatchObject({ state: 'approved', investor_id: expect.stringMatching(/^inv_/) });
    const other = await svc(['kyc', 'apply', ...applyFlags('9999'), '--no-documents', '--json']);
    const declined = await svc([
      'desk',
      'kyc',
      'decline',
      other.json.application_id,
      '--reason',
      'IDENTITY_NOT_VERIFIED',
      '--json',
    ]);
    expect(declined.json).toMatchObject({ state: 'rejected', reason_code: 'IDENTITY_NOT_VERIFIED' });
  });

  it('a rejected application exits 1 like a rejected order (one rule for business refusals); reading it back exits 0', async () => {
    const rejected = await svc(['kyc', 'apply', ...applyFlags('0000'), '--sample-documents', '--json']);
    expect(rejected.code, rejected.stderr).toBe(1);
    // the answer is still printed whole: with --json the application on stdout
    expect(rejected.json).toMatchObject({ state: 'rejected', reason_code: 'SCREENING_MATCH' });
    const plain = await svc(['kyc', 'apply', ...applyFlags('0000'), '--sample-documents']);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('rejected');
    expect(plain.stdout).toContain('reason_code  SCREENING_MATCH');
    const status = await svc(['kyc', 'status', rejected.json.application_id]);
    expect(status.code).toBe(0);
  });

  it('a missing flag without a TTY exits 2, names the flag, prompts nothing and creates nothing', async () => {
    const before = (await svc(['desk', 'kyc', 'list', '--state', 'all', '--limit', '200', '--json'])).json.applications
      .length;
    const flags = applyFlags();
    const withoutPhone = flags.filter((_f, i) => i !== flags.indexOf('--phone') && i !== flags.indexOf('--phone') + 1);
    const res = await svc(['kyc', 'apply', ...withoutPhone, '--sample-documents']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('--phone');
    expect(res.stderr).not.toMatch(/\?\s/);
    const noDocs = await svc(['kyc', 'apply', ...flags]);
    expect(noDocs.code).toBe(2);
    expect(noDocs.stderr).toContain('--sample-documents');
    const suit = await svc(['investor', 'suitability', 'inv_0000000000', '--experience', 'moderate']);
    expect(suit.code).toBe(2);
    expect(suit.stderr).toContain('--horizon');
    expect((await svc(['investor', 'show'], { SVC_INVESTOR_ID: '' })).code).toBe(2);
    expect((await svc(['desk', 'kyc', 'decline', 'kyc_0000000000'])).code).toBe(2);
    const after = (await svc(['desk', 'kyc', 'list', '--state', 'all', '--limit', '200', '--json'])).json.applications
      .length;
    expect(after).toBe(before);
  });

  it('a file that is not an image is refused before anything is created (exit 2)', async () => {
    const notImage = join(home, 'scan.txt');
    writeFileSync(notImage, 'not an image');
    const res = await svc([
      'kyc',
      'apply',
      ...applyFlags(),
      '--front',
      notImage,
      '--back',
      'fixtures/documents/national_id_back.png',
    ]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('not a JPEG or PNG');
  });

  it('an API refusal exits 1 with the error code (JSON body on stdout with --json)', async () => {
    const flags = applyFlags();
    flags[flags.indexOf('--dob') + 1] = '1999-12-31';
    const res = await svc(['kyc', 'apply', ...flags, '--no-documents', '--json']);
    expect(res.code).toBe(1);
    expect(res.json.error.code).toBe('DATE_OF_BIRTH_MISMATCH');
  });
});
