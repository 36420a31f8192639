// svc admin complaints against a real daemon, without a TTY: a complaint is received with its due date
// (15 EGX business days), investigated and resolved one step at a time with a note; a skipped step or a
// missing note keeps the API's codes (exit 1); after the due date an open complaint is flagged overdue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;
let inv: string;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await onboardViaCli(sbx, { fullName: 'Laila Mostafa' });
}, 120_000);

afterAll(async () => sbx?.stop());

const file = (summary: string, extra: string[] = []) =>
  sbx.svc(['admin', 'complaints', 'new', '--investor', inv, '--category', 'fees', '--summary', summary, ...extra]);

describe('svc admin complaints', () => {
  it('new: received on Sunday 22 Nov, due Sunday 13 Dec (15 business days), with its history for people', async () => {
    const res = await file('Charged commission twice on the COMI buy', ['--channel', 'phone']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^cmp_\w+ {2}fees complaint of \S+ \(phone\): received\n/);
    expect(res.stdout).toContain('received 2026-11-22 09:00 (Cairo); response due 2026-12-13');
    expect(res.stdout).toMatch(/new -> received {2}by operator:admin/);
    expect(res.stdout).toContain('--to investigating');
  });

  it('a skipped step is COMPLAINT_TRANSITION_INVALID and resolving without a note COMPLAINT_NOTE_REQUIRED (exit 1, nothing changes); one step at a time it resolves', async () => {
    const id = (await sbx.svc(['admin', 'complaints', '--json'])).json.complaints[0].complaint_id;
    const skip = await sbx.svc(['admin', 'complaints', 'move', id, '--to', 'resolved', '--note', 'refunded']);
    expect([skip.code, skip.stderr.includes('COMPLAINT_TRANSITION_INVALID')]).toEqual([1, true]);
    expect((await sbx.svc(['admin', 'complaints', 'show', id, '--json'])).json.state).toBe('received');
    expect((await sbx.svc(['admin', 'complaints', 'move', id, '--to', 'investigating'])).stdout).toContain(
      ': investigating',
    );
    const noNote = await sbx.svc(['admin', 'complaints', 'move', id, '--to', 'resolved', '--json']);
    expect([noNote.code, noNote.json.error.code]).toEqual([1, 'COMPLAINT_NOTE_REQUIRED']);
    const done = await sbx.svc([
      'admin',
      'complaints',
      'move',
      id,
      '--to',
      'resolved',
      '--note',
      'Refunded the duplicate commission',
    ]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('outcome  Refunded the duplicate commission');
    expect(done.stdout).toMatch(/investigating -> resolved {2}by operator:admin: Refunded the duplicate commission/);
    expect(done.stdout).not.toContain('next:');
  });

  it('after its due date an open complaint is overdue: --overdue lists only it, flagged for people', async () => {
    expect((await file('Statement for October never arrived')).code).toBe(0);
    expect((await sbx.svc(['clock', 'advance', '--until', '2026-12-14T09:00:00+02:00', '--json'])).code).toBe(0);
    const json = await sbx.svc(['admin', 'complaints', '--overdue', '--json']);
    expect(json.json.complaints.map((c: any) => [c.summary, c.overdue])).toEqual([
      ['Statement for October never arrived', true],
    ]);
    const plain = await sbx.svc(['admin', 'complaints']);
    expect(plain.stdout).toMatch(/received\s+2026-12-13 OVERDUE\s+Statement for October/);
    expect(plain.stdout).toMatch(/resolved\s+2026-12-13\s+Charged commission/);
    expect(plain.stdout).toContain('1 overdue');
    for (const line of plain.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  }, 120_000);

  it('usage errors before anything is sent (exit 2): a missing --category, an unknown state', async () => {
    expect((await sbx.svc(['admin', 'complaints', 'new', '--investor', inv, '--summary', 'x'])).code).toBe(2);
    expect((await sbx.svc(['admin', 'complaints', 'list', '--state', 'closed'])).code).toBe(2);
    const unknown = await sbx.svc([
      'admin',
      'complaints',
      'new',
      '--investor',
      'inv_nothere',
      '--category',
      'other',
      '--summary',
      'x',
      '--json',
    ]);
    expect([unknown.code, unknown.json.error.code]).toEqual([1, 'NOT_FOUND']);
  });
});
