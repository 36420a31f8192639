// svc report create|status|download against a real daemon through the built bin/svc, without a TTY:
// the period from the sandbox clock (not the machine's), a frozen clock's --wait that says to advance
// it, the 409 before ready with its hint and exit 1, every field of status, the PDF written 0600 with
// the report's sha256 and never over a file without --force, --open without xdg-open, the daemon's
// refusals of bad input, --wait on a running clock, and --json everywhere.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { cliInvestor } from '../helpers/cli-investor.js';

let sbx: CliSandbox;
let inv: string;
/** Where PDFs are written: outside the home. */
const out = mkdtempSync(join(tmpdir(), 'svc-report-'));
/** A report asked for on the frozen clock and made ready by advancing it (the tests below share it). */
let reportId: string;

// A sandbox date far from the machine's: the default period must come from the sandbox clock.
const START = '2026-03-15T09:00:00+02:00';

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen', '--start', START]);
  inv = await cliInvestor(sbx, { name: 'Nour Hassan', depositEgp: '5000' });
  const adv = await sbx.svc(['clock', 'advance', '--minutes', '3', '--json']);
  expect(adv.code, adv.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await sbx?.stop();
  rmSync(out, { recursive: true, force: true });
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('svc report create', () => {
  it('asks for this month up to today on the sandbox clock; --wait on a frozen clock says to advance it (exit 0, still pending)', async () => {
    const res = await sbx.svc(['report', 'create', '--investor', inv, '--wait', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({
      investor_id: inv,
      state: 'pending',
      period_start: '2026-03-01',
      period_end: '2026-03-15',
      locale: 'en',
    });
    expect(res.stderr).toContain('clock is frozen');
    expect(res.stderr).toContain(`svc --home ${sbx.home} clock advance --minutes 2`);
    reportId = res.json.report_id;
    expect(reportId).toMatch(/^rpt_/);
  });

  it('takes the investor from $SVC_INVESTOR_ID, the period, locale and sections as given; without an investor it is a usage error', async () => {
    const res = await sbx.svc(
      [
        'report',
        'create',
        '--from',
        '2026-03-02',
        '--to',
        '2026-03-10',
        '--locale',
        'ar',
        '--sections',
        'holdings,summary',
        '--json',
      ],
      { SVC_INVESTOR_ID: inv },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({
      investor_id: inv,
      period_start: '2026-03-02',
      period_end: '2026-03-10',
      locale: 'ar',
      sections: ['summary', 'holdings'],
    });
    // --from defaults to the first of --to's month (the account was opened on 2026-03-15: a statement
    // starts no earlier than the first of that month, PERIOD_BEFORE_ACCOUNT otherwise)
    const plain = await sbx.svc(['report', 'create', '--to', '2026-03-14'], { SVC_INVESTOR_ID: inv });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^rpt_\w+ {2}pending {2}2026-03-01 to 2026-03-14 {2}en\n$/);
    const none = await sbx.svc(['report', 'create'], { SVC_INVESTOR_ID: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('missing --investor');
  });

  it('--idempotency-key makes a retried create answer the same report, although the route requires no key', async () => {
    const args = [
      'report',
      'create',
      '--investor',
      inv,
      '--from',
      '2026-03-03',
      '--to',
      '2026-03-12',
      '--idempotency-key',
      'cli-statement-mar',
      '--json',
    ];
    const first = await sbx.svc(args);
    const again = await sbx.svc(args);
    expect([first.code, again.code], first.stderr + again.stderr).toEqual([0, 0]);
    expect(again.json.report_id).toBe(first.json.report_id);
  });

  it('bad input is the daemon refusal with its code and hint, exit 1: --locale fr, --from after --to, a future --to', async () => {
    const fr = await sbx.svc(['report', 'create', '--investor', inv, '--locale', 'fr']);
    expect(fr.code).toBe(1);
    expect(fr.stderr).toContain('UNSUPPORTED_LOCALE');
    expect(fr.stderr).toContain(
      `hint: Ask for en (English) or ar (Arabic): svc --home ${sbx.home} report create --locale ar`,
    );
    const frJson = await sbx.svc(['report', 'create', '--investor', inv, '--locale', 'fr', '--json']);
    expect(frJson.code).toBe(1);
    expect(frJson.json.error.code).toBe('UNSUPPORTED_LOCALE');
    const reversed = await sbx.svc([
      'report',
      'create',
      '--investor',
      inv,
      '--from',
      '2026-03-10',
      '--to',
      '2026-03-01',
    ]);
    expect(reversed.code).toBe(1);
    expect(reversed.stderr).toContain('INVALID_PERIOD');
    expect(reversed.stderr).toContain(
      'hint: Give --from <= --to <= today on the sandbox clock, as YYYY-MM-DD; ' +
        `today: svc --home ${sbx.home} clock show`,
    );
    const future = await sbx.svc(['report', 'create', '--investor', inv, '--to', '2026-03-16', '--json']);
    expect(future.code).toBe(1);
    expect(future.json.error.code).toBe('INVALID_PERIOD');
    const section = await sbx.svc(['report', 'create', '--investor', inv, '--sections', 'summary,charts', '--json']);
    expect(section.code).toBe(1);
    expect(section.json.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('svc report download before ready, and status', () => {
  it('a download before ready is REPORT_NOT_READY with the hint to ask again, exit 1, and writes nothing', async () => {
    const file = join(out, 'early.pdf');
    const res = await sbx.svc(['report', 'download', reportId, '-o', file]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('REPORT_NOT_READY (HTTP 409)');
    expect(res.stderr).toContain(`svc --home ${sbx.home} report status REPORT_ID`);
    expect(existsSync(file)).toBe(false);
    const json = await sbx.svc(['report', 'download', reportId, '--json']);
    expect(json.code).toBe(1);
    expect(json.json.error.code).toBe('REPORT_NOT_READY');
  });

  it('status prints every field; once the clock advances two minutes the report is ready with its size and sha256', async () => {
    const adv = await sbx.svc(['clock', 'advance', '--minutes', '2', '--json']);
    expect(adv.code, adv.stderr).toBe(0);
    const json = await sbx.svc(['report', 'status', reportId, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(Object.keys(json.json).sort()).toEqual(
      [
        'bytes',
        'created_at',
        'expires_at',
        'investor_id',
        'locale',
        'period_end',
        'period_start',
        'ready_at',
        'reason_code',
        'report_id',
        'sections',
        'sha256',
        'state',
        'type',
      ].sort(),
    );
    expect(json.json).toMatchObject({
      state: 'ready',
      sections: ['summary', 'performance', 'holdings', 'trades'],
      reason_code: null,
      expires_at: '2033-03-15T09:03:00+02:00',
    });
    expect(json.json.bytes).toBeGreaterThan(1000);
    const plain = await sbx.svc(['report', 'status', reportId]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/period\s+2026-03-01 to 2026-03-15/);
    expect(plain.stdout).toMatch(/sections\s+summary, performance, holdings, trades, then the disclosures/);
    expect(plain.stdout).toMatch(/locale\s+en \(English\)/);
    expect(plain.stdout).toMatch(/state\s+ready/);
    expect(plain.stdout).toContain(
      `${(json.json.bytes / 1024).toFixed(1)} KiB (${json.json.bytes.toLocaleString('en-US')} bytes)`,
    );
    expect(plain.stdout).toMatch(new RegExp(`sha256\\s+${json.json.sha256}`));
    expect(plain.stderr).toContain(`svc --home ${sbx.home} report download ${reportId}`);
  });
});

describe('svc report download', () => {
  it("writes the PDF under the daemon's file name, mode 0600, with the report's sha256; never over an existing file without --force", async () => {
    const status = (await sbx.svc(['report', 'status', reportId, '--json'])).json;
    const dir = join(out, 'named');
    mkdirSync(dir);
    const res = await sbx.svc(['report', 'download', reportId, '-o', dir, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const file = join(dir, `statement-${inv}-2026-03-01-2026-03-15-en.pdf`);
    expect(res.json).toEqual({
      report_id: reportId,
      path: file,
      bytes: status.bytes,
      sha256: status.sha256,
      content_type: 'application/pdf',
      opened: false,
    });
    const pdf = readFileSync(file);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(sha256(pdf)).toBe(status.sha256);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const again = await sbx.svc(['report', 'download', reportId, '-o', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    const mine = join(out, 'mine.pdf');
    writeFileSync(mine, 'my notes');
    const refused = await sbx.svc(['report', 'download', reportId, '-o', mine]);
    expect(refused.code).toBe(2);
    expect(readFileSync(mine, 'utf8')).toBe('my notes');
    const forced = await sbx.svc(['report', 'download', reportId, '-o', mine, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(mine);
    expect(forced.stdout).toContain(`sha256 ${status.sha256}`);
    expect(sha256(readFileSync(mine))).toBe(status.sha256);
    expect(statSync(mine).mode & 0o777).toBe(0o600);
  });

  it('--open on a machine without xdg-open still writes the file, says where it is and exits 0', async () => {
    const file = join(out, 'open.pdf');
    // PATH holds one directory with node alone (node's own directory may be /usr/bin, where xdg-open is).
    const bin = mkdtempSync(join(tmpdir(), 'svc-node-only-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const res = await sbx.svc(['report', 'download', reportId, '-o', file, '--open'], { PATH: bin });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`the statement is at ${file}`);
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('an unknown report is NOT_FOUND, exit 1', async () => {
    const res = await sbx.svc(['report', 'download', 'rpt_nosuchreport', '--json']);
    expect(res.code).toBe(1);
    expect(res.json.error.code).toBe('NOT_FOUND');
    const status = await sbx.svc(['report', 'status', 'rpt_nosuchreport']);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('NOT_FOUND');
  });

  it('after the seven-year retention the download is REPORT_PURGED (exit 1) and status says the PDF is purged', async () => {
    const adv = await sbx.svc(['clock', 'advance', '--days', '2558', '--json']);
    expect(adv.code, adv.stderr).toBe(0);
    const res = await sbx.svc(['report', 'download', reportId, '-o', join(out, 'late.pdf')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('REPORT_PURGED (HTTP 410)');
    expect(res.stderr).toContain(`svc --home ${sbx.home} report create`);
    expect(existsSync(join(out, 'late.pdf'))).toBe(false);
    const status = await sbx.svc(['report', 'status', reportId]);
    expect(status.stdout).toContain('passed: the PDF is purged');
    expect(status.stderr).toContain(
      `svc --home ${sbx.home} report create --investor ${inv} --from 2026-03-01 --to 2026-03-15 --locale en`,
    );
  }, 60_000);
});

describe('svc report create --wait on a running clock', () => {
  it('polls until ready and prints the size and sha256', async () => {
    // 1200x: the two simulated minutes of a render pass in a tenth of a second, within --wait's first pause
    const mode = await sbx.svc(['api', 'POST', '/admin/sandbox/clock', '-d', '{"mode":"running","speed":1200}']);
    expect(mode.code, mode.stderr).toBe(0);
    const res = await sbx.svc(['report', 'create', '--investor', inv, '--wait', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({
      state: 'ready',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: expect.any(Number),
    });
    const plain = await sbx.svc(['report', 'create', '--investor', inv, '--wait']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(
      new RegExp(
        String.raw`^rpt_\w+ {2}ready {2}\d{4}-\d{2}-01 to \d{4}-\d{2}-\d{2} {2}en {2}[\d.]+ KiB \([\d,]+ bytes\)` +
          String.raw`\n {2}sha256 [0-9a-f]{64}\n$`,
      ),
    );
    expect(plain.stderr).toContain('pending -> ');
  }, 60_000);
});
