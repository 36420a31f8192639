// Text a statement draws is text its embedded fonts can draw (docs/reports.md, "Fonts"). Typst sets it
// in (brand font, Amiri) with fallback off, so a character neither font has (Tamil, Yi, an emoji) used
// to vanish from the PDF of a report answered `ready`. Now the text is refused where it is written
// (branding, an investor's name, a broker's names, a tenant's name), judged from the fonts' own cmap
// tables, and a statement whose stored text the fonts cannot draw fails (RENDER_FAILED) instead of
// becoming ready without it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { applicant } from '../helpers/onboarding.js';
import { trader } from '../helpers/trading.js';
import { createReport, settle } from '../helpers/reports.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const TAMIL = 'Nile தமிழ்';
const YI = 'ꆈꌠ Capital';
const EMOJI = 'Licensed by the FRA 😀';
const put = (body: Record<string, unknown>) => t.req('PUT', '/v1/branding', { body });
const stored = () => t.deps.db.prepare('SELECT * FROM brandings').all();

describe('text no embedded font can draw is refused where it is written', () => {
  it.each([
    ['display_name', TAMIL, 'U+0BA4'],
    ['display_name', YI, 'U+A188'],
    ['footer_text', EMOJI, 'U+1F600'],
  ])(
    'a branding %s of %j is 422 UNDRAWABLE_TEXT naming the field and the character, and nothing changes',
    async (field, text, cp) => {
      const before = stored();
      const res = await put({ [field]: text });
      expect([res.status, res.body.error.code]).toEqual([422, 'UNDRAWABLE_TEXT']);
      expect(res.body.error.message).toMatch(new RegExp(`^body\\.${field}: .*${cp.replace('+', '\\+')}`));
      expect(stored()).toEqual(before);
    },
  );

  it('a font that cannot draw the display name already stored is refused, naming body.font', async () => {
    expect((await put({ display_name: 'Ελληνικά Capital' })).status).toBe(200); // Noto Sans draws Greek
    const res = await put({ font: 'Amiri' }); // Amiri does not
    expect([res.status, res.body.error.code]).toEqual([422, 'UNDRAWABLE_TEXT']);
    expect(res.body.error.message).toMatch(/^body\.font: Amiri cannot draw U\+0395 .* of the stored display_name/);
    expect((await t.req('GET', '/v1/branding')).body.font).toBe('Noto Sans');
  });

  it("an investor's full_name in Tamil is 422 INVALID_FULL_NAME naming the character", async () => {
    const res = await t.req('POST', '/v1/kyc/applications', { body: applicant({ full_name: 'Kavya தமிழ்' }) });
    expect([res.status, res.body.error.code]).toEqual([422, 'INVALID_FULL_NAME']);
    expect(res.body.error.message).toMatch(/^body\.full_name: .*U\+0BA4/);
  });

  it('a proposed broker whose name carries an emoji is 422 INVALID_ACTION_PARAMS naming params.name', async () => {
    const res = await t.req('POST', '/admin/actions', {
      as: 'security',
      body: {
        action: 'broker:create',
        reason: 'r',
        params: {
          name: 'Delta 😀',
          name_ar: 'دلتا',
          fra_license_no: '9/9',
          contact_email: 'a@b.example',
          contact_phone: '+20221234567',
        },
      },
    });
    expect([res.status, res.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(res.body.error.message).toMatch(/name.*U\+1F600/);
  });

  it("a tenant named in Yi (its statements' default display name) is 422 UNDRAWABLE_TEXT naming body.name", async () => {
    const res = await t.req('POST', '/admin/tenants', { body: { name: YI } });
    expect([res.status, res.body.error.code]).toEqual([422, 'UNDRAWABLE_TEXT']);
    expect(res.body.error.message).toMatch(/^body\.name: .*U\+A188/);
  });

  it('Arabic, Latin with accents, the euro sign and the bidi marks a statement uses stay accepted', async () => {
    const res = await put({ display_name: 'شركة النيل Łódź €', footer_text: 'Licensed by the FRA.\nمرخصة من الهيئة.' });
    expect(res.status, res.text).toBe(200);
  });
});

describe('a statement that would drop a glyph fails instead of becoming ready', () => {
  it('a footer stored with an emoji (written before the check) fails the report with RENDER_FAILED; no PDF is stored', async () => {
    expect((await put({ footer_text: 'Licensed.' })).status).toBe(200);
    t.deps.db.prepare('UPDATE brandings SET footer_text = ? WHERE tenant_id = ?').run(EMOJI, t.creds.tenant.tenant_id);
    const inv = await trader(t, 1_000);
    const created = await createReport(t, {
      investor_id: inv,
      period_start: '2026-11-01',
      period_end: '2026-11-22',
      sections: ['summary'],
    });
    expect(created.status).toBe(201);
    await advance(t, { minutes: 2 });
    const report = await settle(t, created.body.report_id);
    expect(report).toMatchObject({ state: 'failed', reason_code: 'RENDER_FAILED', bytes: null, sha256: null });
  });
});
