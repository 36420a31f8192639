// Tenant branding on the real app and a real SQLite file: the defaults, a partial update that merges,
// every bad input refused with its code and nothing changed, the logo judged by its magic bytes and
// served back byte for byte, tenants kept apart, every change audited, the logo sealed at rest, and
// brandingOf (what reports read) agreeing with the API.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { noisyJpeg, paddedPng } from '../helpers/png.js';
import { brandingOf } from '../../daemon/branding/service.js';
import { BRAND_FONTS } from '../../daemon/contract/brand-fonts.js';

let t: TestApp;
let other: { tenant_id: string; name: string; api_key: string; signing_secret: string };
const PNG = readFileSync('fixtures/documents/national_id_front.png');
/** The smallest thing that passes for a JPEG: SOI, an APP0 (JFIF) segment, then noise, then EOI. */
const JPEG = noisyJpeg(300);
const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" ' +
    'height="10"/></svg>',
);
/** Logos whose clear bytes must never reach the disk (any 32-byte window identifies one). */
const uploaded: Buffer[] = [PNG];
let lastLogo: Buffer;
let otherLogo: Buffer;

const get = (tenant?: typeof other) => t.req('GET', '/v1/branding', { tenant });
const put = (body: unknown, tenant?: typeof other) => t.req('PUT', '/v1/branding', { body, tenant });
const putLogo = (raw: Buffer, contentType = 'application/octet-stream', tenant?: typeof other) =>
  t.req('PUT', '/v1/branding/logo', { raw, contentType, tenant });
const storedRow = () => t.deps.db.prepare('SELECT * FROM brandings WHERE tenant_id = ?').get(t.creds.tenant.tenant_id);
const randomPng = (size: number) => paddedPng(size);
/** The bytes with one bit flipped at `at` (inside the first chunk after the signature: a checksum fails). */
const flipped = (bytes: Buffer, at: number) =>
  Buffer.concat([bytes.subarray(0, at), Buffer.from([bytes[at] ^ 1]), bytes.subarray(at + 1)]);

beforeAll(async () => {
  t = await makeApp();
  const res = await t.req('POST', '/admin/tenants', { body: { name: 'Nile Wealth Partners' } });
  expect(res.status).toBe(201);
  other = res.body;
});
afterAll(() => t.close());

describe('GET /v1/branding answers every field, with the defaults before any change', () => {
  it("answers the tenant's name, #1F3A5F, #C8102E, Noto Sans, no footer, no logo, and the tenant's creation time", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const created = (
      t.deps.db.prepare('SELECT created_at FROM tenants WHERE id = ?').get(t.creds.tenant.tenant_id) as {
        created_at: string;
      }
    ).created_at;
    expect(res.body).toEqual({
      display_name: t.creds.tenant.name,
      primary_color: '#1F3A5F',
      accent_color: '#C8102E',
      font: 'Noto Sans',
      footer_text: '',
      logo_url: null,
      updated_at: created,
    });
    expect(storedRow()).toBeUndefined();
  });

  it('GET /v1/branding/logo is 404 NOT_FOUND before any upload, and the routes need the bearer key', async () => {
    const res = await t.req('GET', '/v1/branding/logo');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const anon = await t.req('GET', '/v1/branding', { as: 'none' });
    expect(anon.status).toBe(401);
  });
});

describe('PUT /v1/branding merges the fields sent into the theme', () => {
  it('changes only the fields sent, stores colours in upper case, and moves updated_at to the change', async () => {
    const before = (await get()).body;
    await advance(t, { minutes: 5 });
    const res = await put({ primary_color: '#0a7e8c', footer_text: '  Licensed by the FRA, licence 123.  ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...before,
      primary_color: '#0A7E8C',
      footer_text: 'Licensed by the FRA, licence 123.',
      updated_at: res.body.updated_at,
    });
    expect(Date.parse(res.body.updated_at) - Date.parse(before.updated_at)).toBeGreaterThanOrEqual(5 * 60_000);
    const again = await put({ font: 'Amiri', display_name: 'شركة النيل', accent_color: '#FFCC00' });
    expect(again.body).toMatchObject({
      primary_color: '#0A7E8C',
      footer_text: 'Licensed by the FRA, licence 123.',
      font: 'Amiri',
      display_name: 'شركة النيل',
      accent_color: '#FFCC00',
    });
    expect((await get()).body).toEqual(again.body);
  });

  it('{} and values equal to the current ones change nothing, not even updated_at', async () => {
    const before = (await get()).body;
    await advance(t, { minutes: 1 });
    for (const body of [{}, { font: before.font, primary_color: before.primary_color.toLowerCase() }]) {
      const res = await put(body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(before);
    }
  });

  it('takes a display name of exactly 80 characters (counted as characters, Arabic included) and an empty footer', async () => {
    const name = 'م'.repeat(80);
    const res = await put({ display_name: name, footer_text: '' });
    expect(res.status).toBe(200);
    expect(res.body.display_name).toBe(name);
    expect(res.body.footer_text).toBe('');
    const footer = 'x'.repeat(300);
    expect((await put({ footer_text: footer })).body.footer_text).toBe(footer);
  });
});

describe('A bad field is refused with its stable code and changes nothing', () => {
  const cases: Array<[string, unknown, string]> = [
    ['a short colour', { primary_color: '#fff' }, 'INVALID_COLOR'],
    ['a colour name', { accent_color: 'red' }, 'INVALID_COLOR'],
    ['a colour with a non-hex digit', { primary_color: '#12345G' }, 'INVALID_COLOR'],
    ['a colour without its #', { primary_color: '1F3A5F' }, 'INVALID_COLOR'],
    ['a colour with alpha', { accent_color: '#1F3A5F80' }, 'INVALID_COLOR'],
    ['a colour that is not a string', { primary_color: 0x1f3a5f }, 'INVALID_COLOR'],
    ['an unknown font', { font: 'Comic Sans MS' }, 'UNSUPPORTED_FONT'],
    ['a font in the wrong case', { font: 'noto sans' }, 'UNSUPPORTED_FONT'],
    ['an empty display name', { display_name: '' }, 'VALIDATION_FAILED'],
    ['a blank display name', { display_name: '   ' }, 'VALIDATION_FAILED'],
    ['a display name of 81 characters', { display_name: 'a'.repeat(81) }, 'VALIDATION_FAILED'],
    ['a display name on two lines', { display_name: 'Nile\nWealth' }, 'VALIDATION_FAILED'],
    ['a footer of 301 characters', { footer_text: 'f'.repeat(301) }, 'VALIDATION_FAILED'],
    ['an unknown field', { logo_url: 'https://example.com/logo.png' }, 'VALIDATION_FAILED'],
    ['null for a field', { footer_text: null }, 'VALIDATION_FAILED'],
    ['a good field next to a bad one', { display_name: 'Changed Name', primary_color: '#fff' }, 'INVALID_COLOR'],
  ];
  for (const [what, body, code] of cases) {
    it(`${what}: 422 ${code}`, async () => {
      const before = (await get()).body;
      const row = storedRow();
      const res = await put(body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe(code);
      expect((await get()).body).toEqual(before);
      expect(storedRow()).toEqual(row);
    });
  }

  it('UNSUPPORTED_FONT names the font refused and every embedded font', async () => {
    const res = await put({ font: 'Helvetica' });
    expect(res.body.error.message).toContain('"Helvetica"');
    for (const font of BRAND_FONTS) expect(res.body.error.message).toContain(font);
  });

  it('INVALID_COLOR names the field and the value refused, and what a colour must be', async () => {
    const res = await put({ accent_color: '#fff' });
    expect(res.body.error.message).toMatch(/^body\.accent_color: "#fff" is not #rrggbb/);
  });

  it('the table refuses what the API refuses, a second time', () => {
    const db = t.deps.db;
    const tenantId = t.creds.tenant.tenant_id;
    for (const sql of [
      "UPDATE brandings SET primary_color = '#fff' WHERE tenant_id = ?",
      "UPDATE brandings SET accent_color = '#c8102e' WHERE tenant_id = ?",
      "UPDATE brandings SET display_name = '' WHERE tenant_id = ?",
      "UPDATE brandings SET footer_text = printf('%.301c', 'x') WHERE tenant_id = ?",
      "UPDATE brandings SET logo_content_type = 'image/png' WHERE tenant_id = ? AND logo_sealed IS NULL",
    ]) {
      expect(() => db.prepare(sql).run(tenantId), sql).toThrow(/CHECK constraint failed/);
    }
  });
});

describe('PUT /v1/branding/logo takes a PNG or JPEG by its magic bytes, at most 512 KiB, that the renderer can draw', () => {
  it('a PNG sent as application/octet-stream is a PNG; GET logo_url serves it back byte for byte', async () => {
    const res = await putLogo(PNG);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      logo_url: '/v1/branding/logo',
      content_type: 'image/png',
      bytes: PNG.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const branding = (await get()).body;
    expect(branding.logo_url).toBe('/v1/branding/logo');
    const served = await t.app.inject({
      method: 'GET',
      url: branding.logo_url,
      headers: { authorization: `Bearer ${t.creds.tenant.api_key}` },
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers.etag).toBe(`"${res.body.sha256}"`);
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('a JPEG sent as image/png is a JPEG, and replaces the PNG', async () => {
    const before = (await get()).body;
    await advance(t, { minutes: 1 });
    const res = await putLogo(JPEG, 'image/png');
    expect(res.status).toBe(200);
    expect(res.body.content_type).toBe('image/jpeg');
    expect(res.body.bytes).toBe(JPEG.length);
    uploaded.push(JPEG);
    const served = await t.app.inject({
      method: 'GET',
      url: '/v1/branding/logo',
      headers: { authorization: `Bearer ${t.creds.tenant.api_key}` },
    });
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.equals(JPEG)).toBe(true);
    expect((await get()).body.updated_at > before.updated_at).toBe(true);
  });

  it('exactly 512 KiB is accepted', async () => {
    const logo = randomPng(512 * 1024);
    uploaded.push(logo);
    lastLogo = logo;
    const res = await putLogo(logo, 'image/png');
    expect(res.status).toBe(200);
    expect(res.body.bytes).toBe(512 * 1024);
  });

  const refused: Array<[string, () => Buffer, string, number, string]> = [
    ['an SVG (even sent as image/png)', () => SVG, 'image/png', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an SVG sent as image/svg+xml', () => SVG, 'image/svg+xml', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'a GIF',
      () => Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      'image/gif',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['text', () => Buffer.from('this is not an image'), 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an empty body', () => Buffer.alloc(0), 'image/png', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['512 KiB + 1 byte', () => randomPng(512 * 1024 + 1), 'image/png', 413, 'PAYLOAD_TOO_LARGE'],
    [
      'a PNG signature followed by noise',
      () => Buffer.concat([randomPng(200).subarray(0, 8), Buffer.alloc(64, 7)]),
      'image/png',
      422,
      'LOGO_NOT_RENDERABLE',
    ],
    [
      'a PNG with one flipped bit in its image data',
      () => flipped(randomPng(300), 50),
      'image/png',
      422,
      'LOGO_NOT_RENDERABLE',
    ],
    ['a PNG cut before its end', () => randomPng(400).subarray(0, 250), 'image/png', 422, 'LOGO_NOT_RENDERABLE'],
    [
      'a JPEG signature followed by noise',
      () => Buffer.concat([JPEG.subarray(0, 3), Buffer.alloc(64, 7)]),
      'image/jpeg',
      422,
      'LOGO_NOT_RENDERABLE',
    ],
    ['a JPEG cut before its scan', () => JPEG.subarray(0, 200), 'image/jpeg', 422, 'LOGO_NOT_RENDERABLE'],
  ];
  for (const [what, body, type, status, code] of refused) {
    it(`${what}: ${status} ${code}, and the logo on file stays`, async () => {
      const before = (await get()).body;
      const logoBefore = await t.app.inject({
        method: 'GET',
        url: '/v1/branding/logo',
        headers: { authorization: `Bearer ${t.creds.tenant.api_key}` },
      });
      const res = await putLogo(body(), type);
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect((await get()).body).toEqual(before);
      const logoAfter = await t.app.inject({
        method: 'GET',
        url: '/v1/branding/logo',
        headers: { authorization: `Bearer ${t.creds.tenant.api_key}` },
      });
      expect(logoAfter.rawPayload.equals(logoBefore.rawPayload)).toBe(true);
    });
  }

  it('a retried upload (same Idempotency-Key, same bytes) replays the first answer and changes nothing more', async () => {
    const logo = randomPng(2048);
    const uploads = () =>
      (
        t.deps.db.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'branding.logo_uploaded'").get() as {
          n: number;
        }
      ).n;
    const first = await t.req('PUT', '/v1/branding/logo', {
      raw: logo,
      contentType: 'image/png',
      idempotencyKey: 'logo-retry-1',
    });
    expect(first.status).toBe(200);
    const count = uploads();
    const again = await t.req('PUT', '/v1/branding/logo', {
      raw: logo,
      contentType: 'image/png',
      idempotencyKey: 'logo-retry-1',
    });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(uploads()).toBe(count);
    // put the 512 KiB logo back, as the tests below expect it on file
    expect((await putLogo(lastLogo, 'image/png')).status).toBe(200);
    uploaded.push(logo);
  });

  it('PUT /v1/branding and PUT /v1/branding/logo without an Idempotency-Key are accepted (the spec requires none there)', async () => {
    const auth = { authorization: `Bearer ${t.creds.tenant.api_key}` };
    const current = (await get()).body;
    const theme = await t.app.inject({
      method: 'PUT',
      url: '/v1/branding',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ primary_color: current.primary_color }),
    });
    expect(theme.statusCode, theme.body).toBe(200);
    const logo = await t.app.inject({
      method: 'PUT',
      url: '/v1/branding/logo',
      headers: { ...auth, 'content-type': 'image/png' },
      payload: lastLogo,
    });
    expect(logo.statusCode, logo.body).toBe(200);
  });

  it('a file that starts like a PNG but would not decode is refused at upload, with a message saying why, not left to fail every report', async () => {
    const res = await putLogo(Buffer.concat([randomPng(200).subarray(0, 8), Buffer.alloc(64, 7)]), 'image/png');
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('LOGO_NOT_RENDERABLE');
    expect(res.body.error.message).toMatch(/starts like a PNG but the statement renderer could not draw it: \S/);
  });

  it('an SVG is refused with a message that says so', async () => {
    const res = await putLogo(SVG, 'image/svg+xml');
    expect(res.body.error.message).toMatch(/SVG/);
  });
});

describe("Another tenant's branding is its own", () => {
  it('starts at the defaults with its own name, and has no logo, whatever the first tenant did', async () => {
    const res = await get(other);
    expect(res.body).toMatchObject({
      display_name: 'Nile Wealth Partners',
      primary_color: '#1F3A5F',
      font: 'Noto Sans',
      footer_text: '',
      logo_url: null,
    });
    const logo = await t.req('GET', '/v1/branding/logo', { tenant: other });
    expect(logo.status).toBe(404);
  });

  it("a change by one tenant leaves the other's untouched", async () => {
    const mine = (await get()).body;
    const logo = randomPng(4096);
    uploaded.push(logo);
    otherLogo = logo;
    expect((await put({ primary_color: '#112233', display_name: 'Other Co' }, other)).status).toBe(200);
    expect((await putLogo(logo, 'image/png', other)).status).toBe(200);
    expect((await get()).body).toEqual(mine);
    expect((await get(other)).body).toMatchObject({
      primary_color: '#112233',
      display_name: 'Other Co',
      logo_url: '/v1/branding/logo',
    });
    const served = await t.app.inject({
      method: 'GET',
      url: '/v1/branding/logo',
      headers: { authorization: `Bearer ${other.api_key}` },
    });
    expect(served.rawPayload.equals(logo)).toBe(true);
  });
});

describe('Every change is audited', () => {
  it('each successful PUT has its request entry, and each change of value its branding entry', async () => {
    const res = await t.req('GET', `/admin/audit?tenant_id=${t.creds.tenant.tenant_id}&limit=200`);
    const actions = (res.body.entries as Array<{ action: string; detail: string }>).map((e) => e.action);
    expect(actions).toContain('PUT /v1/branding');
    expect(actions).toContain('PUT /v1/branding/logo');
    expect(actions).toContain('branding.updated');
    expect(actions).toContain('branding.logo_uploaded');
    const updated = res.body.entries.find((e: { action: string }) => e.action === 'branding.updated');
    expect(JSON.parse(updated.detail).fields.length).toBeGreaterThan(0);
    const otherActions = (await t.req('GET', `/admin/audit?tenant_id=${other.tenant_id}&limit=200`)).body.entries.map(
      (e: { action: string }) => e.action,
    );
    expect(otherActions).toEqual(expect.arrayContaining(['branding.updated', 'branding.logo_uploaded']));
    expect((await t.req('GET', '/admin/audit/verify')).body.ok).toBe(true);
  });
});

describe('brandingOf, what reports read, is the branding current when it is called', () => {
  it('answers every field as GET /v1/branding does, and the logo opened from its seal', async () => {
    const api = (await get()).body;
    const b = brandingOf(t.deps, t.creds.tenant.tenant_id);
    const { logo, ...fields } = b;
    expect(fields).toEqual(api);
    expect(logo?.contentType).toBe('image/png');
    expect(logo?.bytes.equals(lastLogo)).toBe(true);
    expect(brandingOf(t.deps, other.tenant_id).logo?.bytes.equals(otherLogo)).toBe(true);
    await put({ accent_color: '#00AA00' });
    expect(brandingOf(t.deps, t.creds.tenant.tenant_id).accent_color).toBe('#00AA00');
  });

  it('has no logo for a tenant that never uploaded one', async () => {
    const res = await t.req('POST', '/admin/tenants', { body: { name: 'Plain Tenant' } });
    expect(brandingOf(t.deps, res.body.tenant_id)).toMatchObject({
      display_name: 'Plain Tenant',
      logo: null,
      logo_url: null,
    });
  });
});

/** Every file under dir, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('The logo is sealed at rest: its clear bytes are in no file of the home', () => {
  const windows = (img: Buffer) => [
    img.subarray(8, 40),
    img.subarray(img.length >> 1, (img.length >> 1) + 32),
    img.subarray(img.length - 32),
  ];

  it('neither svc.db, nor its WAL, nor any other file holds a window of an uploaded logo, before and after a checkpoint', () => {
    expect(uploaded.length).toBe(5);
    for (const checkpoint of [false, true]) {
      if (checkpoint) t.deps.db.pragma('wal_checkpoint(TRUNCATE)');
      const files = filesUnder(t.dir);
      expect(files.map((f) => f.slice(t.dir.length + 1))).toContain('svc.db');
      const raw = Buffer.concat(files.map((f) => readFileSync(f)));
      // positive control: a value stored in clear is found by the same search
      expect(raw.includes(Buffer.from('Nile Wealth Partners'))).toBe(true);
      for (const img of uploaded) for (const w of windows(img)) expect(raw.includes(w)).toBe(false);
    }
  });
});
