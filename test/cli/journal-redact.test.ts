// svc sandbox journal --redact (docs/snapshots.md, "Redaction"), through the real binary: a journal of
// onboarding (two applications with ID images, one of them referred and cleared by the dealer desk)
// written redacted holds no original name, national id, phone, email, address or image bytes; its fakes
// are consistent (one value, one fake, everywhere) and pass the daemon's rules; and it replays into a
// fresh sandbox with the original's statuses and the same bodies apart from the redacted fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { nationalId, SAMPLE_FRONT } from '../helpers/onboarding.js';
import { checkNationalId, imageTypeOf } from '../../daemon/contract/kyc.js';

let a: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'svc-redact-test-'));
const plainFile = join(dir, 'plain.ndjson');
const redactedFile = join(dir, 'redacted.ndjson');
/** A JPEG of its own (the daemon checks the magic bytes), with bytes no fake could contain. */
const BACK_JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  Buffer.from('ORIGINAL-BACK-IMAGE-'.repeat(40)),
  Buffer.from([0xff, 0xd9]),
]);
const people = [
  {
    name: 'Salma Redactable',
    id: nationalId(),
    email: 'salma.private@example.org',
    phone: '01198765432',
    address: '7 Hidden Lane, Zamalek, Cairo',
  },
  {
    name: 'Karim Referred-Person',
    id: nationalId('9999'),
    email: 'karim.private@example.net',
    phone: '+201512345678',
    address: '99 Secret Road, Giza',
  },
];
let plain: any[];
let redacted: any[];
let redactRun: any;

beforeAll(async () => {
  a = await startSandbox(['--seed', '21']);
  writeFileSync(join(dir, 'front.png'), SAMPLE_FRONT);
  writeFileSync(join(dir, 'back.jpg'), BACK_JPEG);
  const apps: string[] = [];
  for (const p of people) {
    const r = await a.svc([
      'kyc',
      'apply',
      '--full-name',
      p.name,
      '--national-id',
      p.id.nationalId,
      '--dob',
      p.id.dateOfBirth,
      '--email',
      p.email,
      '--phone',
      p.phone,
      '--address',
      p.address,
      '--front',
      join(dir, 'front.png'),
      '--back',
      join(dir, 'back.jpg'),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    apps.push(r.json.application_id);
  }
  const cleared = await a.svc(['desk', 'kyc', 'clear', apps[1], '--json']);
  expect(cleared.code, cleared.stderr).toBe(0);
  expect((await a.svc(['sandbox', 'journal', plainFile])).code).toBe(0);
  const r = await a.svc(['sandbox', 'journal', '--redact', redactedFile, '--json']);
  expect(r.code, r.stderr).toBe(0);
  redactRun = r.json;
  const read = (f: string) =>
    readFileSync(f, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
  plain = read(plainFile);
  redacted = read(redactedFile);
}, 120_000);

afterAll(async () => {
  await a?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('svc sandbox journal --redact', () => {
  it('leaves no original name, national id, phone, email, address or image bytes in the file (private, 0600)', () => {
    const text = readFileSync(redactedFile, 'utf8');
    const plainText = readFileSync(plainFile, 'utf8');
    for (const p of people) {
      for (const v of [p.name, p.id.nationalId, p.email, p.phone, p.address]) {
        expect(plainText, 'the plain journal holds it').toContain(JSON.stringify(v).slice(1, -1));
        expect(text).not.toContain(v);
      }
    }
    expect(text).not.toContain('*'.repeat(10) + people[0].id.nationalId.slice(-4));
    for (const img of [SAMPLE_FRONT, BACK_JPEG]) {
      const b64 = img.toString('base64');
      expect(plainText).toContain(b64);
      for (let i = 0; i + 40 < b64.length; i += 400) expect(text).not.toContain(b64.slice(i, i + 40));
    }
    expect(text).not.toContain('ORIGINAL-BACK');
    expect(statSync(redactedFile).mode & 0o777).toBe(0o600);
    expect(redactRun.redacted).toEqual({ names: 2, national_ids: 2, emails: 2, phones: 2, addresses: 2, images: 2 });
  });

  it('fakes are consistent and valid: one fake per value in requests and answers, national ids that pass the rules with the same birth date and magic suffix, tiny images of the same type', () => {
    const apply = redacted
      .slice(1)
      .filter((e) => e.route === 'POST /v1/kyc/applications')
      .map((e) => JSON.parse(e.body));
    expect(apply).toHaveLength(2);
    for (const [i, body] of apply.entries()) {
      const p = people[i];
      const check = checkNationalId(body.national_id);
      expect(check).toMatchObject({ ok: true, birthDate: p.id.dateOfBirth });
      expect(body.national_id).not.toBe(p.id.nationalId);
      expect(body.date_of_birth).toBe(p.id.dateOfBirth);
      expect(body.national_id.slice(-4) === '9999').toBe(i === 1);
      expect(body.phone.slice(0, i === 0 ? 3 : 5)).toBe(p.phone.slice(0, i === 0 ? 3 : 5));
    }
    expect(new Set(apply.map((b) => b.full_name)).size).toBe(2);
    // The dealer's answers name the same fake name and the same masked fake id as the request.
    const answers = redacted
      .slice(1)
      .map((e) => e.response ?? '')
      .join('\n');
    expect(answers).toContain(apply[1].full_name);
    const images = redacted
      .slice(1)
      .filter((e) => e.body_base64 !== null)
      .map((e) => Buffer.from(e.body_base64, 'base64'));
    expect(images.map((b) => imageTypeOf(b))).toEqual(['image/png', 'image/jpeg', 'image/png', 'image/jpeg']);
    expect(images.every((b) => b.length < 400)).toBe(true);
    // The same image (both applicants sent the same two files) gets the same fake; the two sides differ.
    expect(images[0].equals(images[2]) && images[1].equals(images[3]) && !images[0].equals(images[1])).toBe(true);
    const uploads = redacted
      .slice(1)
      .filter((e) => e.body_base64 !== null)
      .map((e) => JSON.parse(e.response));
    expect(uploads[0]).toMatchObject({ size_bytes: images[0].length, content_type: 'image/png' });
  });

  it('replays into a fresh sandbox with the original statuses, every recorded (redacted) body matched', async () => {
    expect(redacted.slice(1).map((e) => [e.seq, e.route, e.status])).toEqual(
      plain.slice(1).map((e) => [e.seq, e.route, e.status]),
    );
    const r = await runSvc(['sandbox', 'replay', redactedFile, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      entries: plain.length - 1,
      matched: plain.length - 1,
      bodies_compared: plain.length - 1,
      mismatched: [],
    });
  });

  it('the same journal redacted twice gives the same file (the fakes depend only on the order values appear in)', async () => {
    const again = join(dir, 'again.ndjson');
    expect((await a.svc(['sandbox', 'journal', '--redact', again])).code).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(redactedFile, 'utf8'));
  });
});
