// ID images and national ids are stored encrypted (AES-256-GCM under the tenant data key, itself
// wrapped by the key-encryption key): the raw database file and its WAL contain neither in clear,
// before and after a checkpoint. The holder's name is stored in clear and serves as the positive
// control that the byte search works.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { applicant } from '../helpers/onboarding.js';

let t: TestApp;
const NAME = 'Nour Elsayed Control';
const secrets: Buffer[] = [];
const images: Buffer[] = [];

/** A PNG signature followed by incompressible bytes: any 32-byte window identifies it. */
function image(): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(48 * 1024)]);
}

function rawStore(): Buffer {
  const db = join(t.dir, 'svc.db');
  const wal = `${db}-wal`;
  return Buffer.concat([readFileSync(db), existsSync(wal) ? readFileSync(wal) : Buffer.alloc(0)]);
}

function windows(img: Buffer): Buffer[] {
  return [img.subarray(8, 40), img.subarray(img.length / 2, img.length / 2 + 32), img.subarray(img.length - 32)];
}

beforeAll(async () => {
  t = await makeApp();
  for (const suffix of [undefined, '0000', '9999']) {
    const body = applicant(
      {
        full_name: NAME,
        email: 'nour.control@example.com',
        phone: '01198765432',
        address: '7 Corniche El Nil, Maadi, Cairo',
      },
      suffix,
    );
    secrets.push(Buffer.from(body.national_id, 'utf8'), Buffer.from(body.national_id, 'utf16le'));
    const created = await t.req('POST', '/v1/kyc/applications', { body });
    expect(created.status).toBe(201);
    const id = created.body.application_id;
    for (const side of ['national_id_front', 'national_id_back']) {
      const img = image();
      images.push(img);
      const res = await t.req('PUT', `/v1/kyc/applications/${id}/documents/${side}`, {
        raw: img,
        contentType: 'image/png',
      });
      expect(res.status).toBe(200);
    }
    expect((await t.req('POST', `/v1/kyc/applications/${id}/submit`)).status).toBe(200);
  }
  // A second upload of a side replaces the first: the replaced image must not linger either.
  const extra = await t.req('POST', '/v1/kyc/applications', { body: applicant({ full_name: NAME }) });
  for (let i = 0; i < 2; i++) {
    const img = image();
    images.push(img);
    await t.req('PUT', `/v1/kyc/applications/${extra.body.application_id}/documents/national_id_front`, {
      raw: img,
      contentType: 'image/png',
    });
  }
});
afterAll(() => t.close());

describe('Documents are stored encrypted under the tenant key; the database file must not contain the image bytes in clear', () => {
  it('before a checkpoint: the database file and its WAL hold no image bytes and no national id', () => {
    expect(existsSync(join(t.dir, 'svc.db-wal'))).toBe(true);
    const raw = rawStore();
    expect(raw.includes(Buffer.from(NAME))).toBe(true);
    for (const img of images) for (const w of windows(img)) expect(raw.includes(w)).toBe(false);
    for (const s of secrets) expect(raw.includes(s)).toBe(false);
    for (const pii of ['nour.control@example.com', '01198765432', 'Corniche El Nil'])
      expect(raw.includes(Buffer.from(pii))).toBe(false);
  });

  it('after a checkpoint into the main file: still none', () => {
    t.deps.db.pragma('wal_checkpoint(TRUNCATE)');
    const raw = rawStore();
    expect(readFileSync(join(t.dir, 'svc.db')).includes(Buffer.from(NAME))).toBe(true);
    for (const img of images) for (const w of windows(img)) expect(raw.includes(w)).toBe(false);
    for (const s of secrets) expect(raw.includes(s)).toBe(false);
  });

  it('the sealed values open with the tenant key: the dealer reads back the exact image', async () => {
    const queue = (await t.req('GET', '/broker/v1/kyc')).body.applications;
    const referred = queue.find((a: any) => a.full_name === NAME);
    const res = await t.app.inject({
      method: 'GET',
      url: `/broker/v1/kyc/${referred.application_id}/documents/national_id_front`,
      headers: { 'x-console-key': t.creds.operators.dealer_key },
    });
    expect(res.statusCode).toBe(200);
    expect(images.some((img) => img.equals(res.rawPayload))).toBe(true);
  });

  it('national ids are found by a keyed hash, not by their value', () => {
    const rows = t.deps.db
      .prepare('SELECT national_id_hash, typeof(national_id_enc) AS t FROM kyc_applications')
      .all() as Array<{ national_id_hash: string; t: string }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.national_id_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.t).toBe('blob');
    }
  });
});
