// KYC application: states and transitions, the sandbox magic values, the dossier-only path, ID document
// uploads, idempotency, bad input (stable codes, nothing created), tenant isolation, the dealer review.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp, addConsoleOperator } from '../helpers/app.js';
import { SAMPLE_BACK, SAMPLE_FRONT, applicant, onboardInvestor } from '../helpers/onboarding.js';

let t: TestApp;
let other: { tenant_id: string; api_key: string; signing_secret: string };

beforeAll(async () => {
  t = await makeApp();
  const res = await t.req('POST', '/admin/tenants', { body: { name: 'second-app' } });
  other = res.body;
});
afterAll(() => t.close());

function appCount(): number {
  return (t.deps.db.prepare('SELECT COUNT(*) AS n FROM kyc_applications').get() as { n: number }).n;
}

async function create(over: Record<string, unknown> = {}, suffix?: string): Promise<string> {
  const res = await t.req('POST', '/v1/kyc/applications', { body: applicant(over, suffix) });
  expect(res.status).toBe(201);
  return res.body.application_id;
}

async function upload(
  id: string,
  side: string,
  raw: Buffer = side === 'national_id_back' ? SAMPLE_BACK : SAMPLE_FRONT,
  contentType = 'image/png',
) {
  return t.req('PUT', `/v1/kyc/applications/${id}/documents/${side}`, { raw, contentType });
}

async function withBothSides(suffix?: string): Promise<string> {
  const id = await create({}, suffix);
  expect((await upload(id, 'national_id_front')).status).toBe(200);
  expect((await upload(id, 'national_id_back')).status).toBe(200);
  return id;
}

const get = (id: string) => t.req('GET', `/v1/kyc/applications/${id}`);
const submit = (id: string) => t.req('POST', `/v1/kyc/applications/${id}/submit`);

async function auditActions(subject: string): Promise<any[]> {
  const res = await t.req('GET', '/admin/audit?limit=200');
  return res.body.entries.filter((e: any) => e.subject === subject).reverse();
}

/** A console identity holding only some grants (the bootstrap dealer holds them all). */
const consoleKey = (name: string, grants: string[], brokerId?: string) => addConsoleOperator(t, name, grants, brokerId);

describe('POST /v1/kyc/applications: valid details -> screened (the create response shows this)', () => {
  it('answers 201 with a kyc_ application id in state screened', async () => {
    const res = await t.req('POST', '/v1/kyc/applications', { body: applicant() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ application_id: expect.stringMatching(/^kyc_[0-9a-z]{10}$/), state: 'screened' });
    const read = await get(res.body.application_id);
    expect(read.body).toMatchObject({
      state: 'screened',
      investor_id: null,
      path: null,
      documents: [],
      reason_code: null,
      submitted_at: null,
    });
  });

  it('accepts an Arabic full name and the +20 phone form', async () => {
    const res = await t.req('POST', '/v1/kyc/applications', {
      body: applicant({ full_name: 'منى عبد الله حسن', phone: '+201512345678' }),
    });
    expect(res.status).toBe(201);
  });

  it('the status read never returns the national id', async () => {
    const body = applicant();
    const res = await t.req('POST', '/v1/kyc/applications', { body });
    const read = await get(res.body.application_id);
    expect(read.text).not.toContain(body.national_id);
    expect(Object.keys(read.body).sort()).toEqual([
      'application_id',
      'created_at',
      'decided_at',
      'documents',
      'investor_id',
      'path',
      'reason_code',
      'state',
      'submitted_at',
      'updated_at',
    ]);
  });
});

describe('screened -> POST submit with both ID sides on file -> screening_referred, routed to the broker review', () => {
  it('any other national id is cleared by the sandbox broker at submit time: the next GET shows approved with investor_id', async () => {
    const id = await withBothSides();
    const res = await submit(id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ state: 'screening_referred' });
    const read = await get(id);
    expect(read.body).toMatchObject({
      state: 'approved',
      path: 'documents',
      investor_id: expect.stringMatching(/^inv_[0-9a-z]{10}$/),
      reason_code: null,
    });
    expect(read.body.documents.map((d: any) => [d.side, d.size_bytes])).toEqual([
      ['national_id_front', SAMPLE_FRONT.length],
      ['national_id_back', SAMPLE_BACK.length],
    ]);
    const account = await t.req('GET', `/v1/accounts/${read.body.investor_id}`);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ status: 'active', account_number: expect.stringMatching(/^NSB-\d{8}$/) });
  });

  it('the ID images are reviewed and audited: the submission and the decision are in the audit log', async () => {
    const id = await withBothSides();
    await submit(id);
    const entries = await auditActions(id);
    const submitted = entries.find((e) => e.action === 'kyc.submitted');
    expect(JSON.parse(submitted.detail)).toMatchObject({
      path: 'documents',
      documents: [{ side: 'national_id_front', size_bytes: SAMPLE_FRONT.length }, { side: 'national_id_back' }],
    });
    const approved = entries.find((e) => e.action === 'kyc.approved');
    expect(approved.actor).toBe(`broker:${t.creds.broker_id}`);
  });

  it('national_id ending 0000: the broker rejects (reason_code SCREENING_MATCH, no investor)', async () => {
    const id = await withBothSides('0000');
    expect((await submit(id)).body).toEqual({ state: 'screening_referred' });
    const read = await get(id);
    expect(read.body).toMatchObject({
      state: 'rejected',
      investor_id: null,
      reason_code: 'SCREENING_MATCH',
      path: 'documents',
    });
    expect(read.body.decided_at).toEqual(expect.any(String));
  });

  it('national_id ending 9999: stays screening_referred until a dealer clears it; the clear resubmits automatically and assigns investor_id', async () => {
    const id = await withBothSides('9999');
    await submit(id);
    expect((await get(id)).body).toMatchObject({ state: 'screening_referred', investor_id: null });
    const queue = await t.req('GET', '/broker/v1/kyc');
    expect(queue.status).toBe(200);
    const item = queue.body.applications.find((a: any) => a.application_id === id);
    expect(item).toMatchObject({
      state: 'screening_referred',
      tenant_id: t.creds.tenant.tenant_id,
      full_name: 'Mona Hassan',
      national_id_masked: '**********9999',
    });
    const cleared = await t.req('POST', `/broker/v1/kyc/${id}/clear`);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({
      application_id: id,
      state: 'approved',
      investor_id: expect.stringMatching(/^inv_/),
    });
    expect((await get(id)).body).toMatchObject({ state: 'approved', investor_id: cleared.body.investor_id });
    const approved = (await auditActions(id)).find((e) => e.action === 'kyc.approved');
    expect(approved.actor).toBe('operator:dealer');
    expect((await t.req('GET', '/broker/v1/kyc')).body.applications.map((a: any) => a.application_id)).not.toContain(
      id,
    );
  });

  it('national_id ending 9999: a dealer decline rejects it with the reason code, audited', async () => {
    const id = await withBothSides('9999');
    await submit(id);
    const declined = await t.req('POST', `/broker/v1/kyc/${id}/decline`, {
      body: { reason_code: 'DOCUMENTS_ILLEGIBLE', note: 'glare on the front' },
    });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ state: 'rejected', reason_code: 'DOCUMENTS_ILLEGIBLE', investor_id: null });
    expect((await get(id)).body).toMatchObject({ state: 'rejected', reason_code: 'DOCUMENTS_ILLEGIBLE' });
    const rejected = (await auditActions(id)).find((e) => e.action === 'kyc.rejected');
    expect(rejected.actor).toBe('operator:dealer');
    expect(JSON.parse(rejected.detail)).toEqual({ reason_code: 'DOCUMENTS_ILLEGIBLE', note: 'glare on the front' });
  });
});

describe('A dossier-only submission (no documents) keeps a direct path', () => {
  it('any other national id: approved directly, and the answer carries the investor_id it assigned', async () => {
    const id = await create();
    const res = await submit(id);
    expect(res.body).toEqual({ state: 'approved', investor_id: expect.stringMatching(/^inv_/) });
    const read = (await get(id)).body as { investor_id: string };
    expect(read).toMatchObject({
      state: 'approved',
      path: 'dossier',
      documents: [],
      investor_id: (res.body as { investor_id: string }).investor_id,
    });
  });

  it('national_id ending 0000: rejected directly', async () => {
    const id = await create({}, '0000');
    expect((await submit(id)).body).toEqual({ state: 'rejected' });
    expect((await get(id)).body).toMatchObject({ state: 'rejected', path: 'dossier', reason_code: 'SCREENING_MATCH' });
  });

  it('national_id ending 9999: screening_referred until a dealer clears it', async () => {
    const id = await create({}, '9999');
    expect((await submit(id)).body).toEqual({ state: 'screening_referred' });
    const cleared = await t.req('POST', `/broker/v1/kyc/${id}/clear`);
    expect(cleared.body).toMatchObject({ state: 'approved', path: 'dossier' });
  });
});

describe('Submit preconditions', () => {
  it('one side only is 422 DOCUMENTS_INCOMPLETE and the application stays screened', async () => {
    for (const side of ['national_id_front', 'national_id_back']) {
      const id = await create();
      await upload(id, side);
      const res = await submit(id);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('DOCUMENTS_INCOMPLETE');
      expect((await get(id)).body).toMatchObject({ state: 'screened', path: null });
    }
  });

  it('submitting a decided application again is 409 APPLICATION_ALREADY_DECIDED', async () => {
    const id = await withBothSides();
    await submit(id);
    const again = await submit(id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('APPLICATION_ALREADY_DECIDED');
    const rejectedId = await create({}, '0000');
    await submit(rejectedId);
    expect((await submit(rejectedId)).body.error.code).toBe('APPLICATION_ALREADY_DECIDED');
  });

  it('submitting an application under review again is 409 APPLICATION_ALREADY_SUBMITTED', async () => {
    const id = await withBothSides('9999');
    await submit(id);
    const again = await submit(id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('APPLICATION_ALREADY_SUBMITTED');
  });

  it('documents are frozen after submit: an upload is 409', async () => {
    const referred = await withBothSides('9999');
    await submit(referred);
    expect((await upload(referred, 'national_id_front')).body.error.code).toBe('APPLICATION_ALREADY_SUBMITTED');
    const approved = await withBothSides();
    await submit(approved);
    expect((await upload(approved, 'national_id_front')).body.error.code).toBe('APPLICATION_ALREADY_DECIDED');
  });

  it('an unknown application is 404 NOT_FOUND on read, upload and submit', async () => {
    expect((await get('kyc_0000000000')).body.error.code).toBe('NOT_FOUND');
    expect((await upload('kyc_0000000000', 'national_id_front')).status).toBe(404);
    expect((await submit('kyc_0000000000')).status).toBe(404);
  });
});

describe('PUT .../documents/{side}: raw JPEG or PNG, at most 512 KiB, stored encrypted under the tenant key', () => {
  it('answers the side, size, sha256 and state; a second upload of a side replaces it', async () => {
    const id = await create();
    const first = await upload(id, 'national_id_front');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      application_id: id,
      side: 'national_id_front',
      content_type: 'image/png',
      size_bytes: SAMPLE_FRONT.length,
      sha256: createHash('sha256').update(SAMPLE_FRONT).digest('hex'),
      state: 'screened',
    });
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    const second = await upload(id, 'national_id_front', jpeg, 'image/jpeg');
    expect(second.body).toMatchObject({ content_type: 'image/jpeg', size_bytes: jpeg.length });
    const docs = (await get(id)).body.documents;
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ side: 'national_id_front', content_type: 'image/jpeg', size_bytes: jpeg.length });
  });

  it('bytes that are not a JPEG or PNG are 415 UNSUPPORTED_MEDIA_TYPE, whatever the Content-Type says', async () => {
    const id = await create();
    for (const [raw, type] of [
      [Buffer.from('GIF89a not an accepted image'), 'image/png'],
      [Buffer.from('%PDF-1.7'), 'image/jpeg'],
      [Buffer.from('{"image":"base64"}'), 'application/json'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png'],
      [Buffer.alloc(0), 'image/png'],
    ] as const) {
      const res = await upload(id, 'national_id_front', raw, type);
      expect(res.status, `${type} ${raw.subarray(0, 8).toString('hex')}`).toBe(415);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect((await get(id)).body.documents).toEqual([]);
  });

  it('an image over 512 KiB is 413 PAYLOAD_TOO_LARGE; exactly 512 KiB is accepted', async () => {
    const id = await create();
    const big = Buffer.concat([SAMPLE_FRONT.subarray(0, 8), Buffer.alloc(512 * 1024 + 1 - 8, 1)]);
    const tooBig = await upload(id, 'national_id_front', big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await get(id)).body.documents).toEqual([]);
    const exact = await upload(id, 'national_id_front', big.subarray(0, 512 * 1024));
    expect(exact.status).toBe(200);
    expect(exact.body.size_bytes).toBe(512 * 1024);
  });

  it('an unknown side is 404 UNKNOWN_DOCUMENT_SIDE', async () => {
    const id = await create();
    const res = await upload(id, 'passport');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('UNKNOWN_DOCUMENT_SIDE');
  });

  it('the dealer views an image under review decrypted, and the view is audited', async () => {
    const id = await withBothSides('9999');
    await submit(id);
    const res = await t.req('GET', `/broker/v1/kyc/${id}/documents/national_id_back`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const raw = await t.app.inject({
      method: 'GET',
      url: `/broker/v1/kyc/${id}/documents/national_id_back`,
      headers: { 'x-console-key': t.creds.operators.dealer_key },
    });
    expect(raw.rawPayload.equals(SAMPLE_BACK)).toBe(true);
    expect((await auditActions(id)).filter((e) => e.action === 'kyc.document_viewed')).toHaveLength(2);
  });
});

describe('Idempotency: KYC create, document upload and submit require an Idempotency-Key', () => {
  it('a replay of the same key and body returns the first response and creates nothing new', async () => {
    const body = applicant();
    const before = appCount();
    const first = await t.req('POST', '/v1/kyc/applications', { body, idempotencyKey: 'kyc-replay-1' });
    const second = await t.req('POST', '/v1/kyc/applications', { body, idempotencyKey: 'kyc-replay-1' });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(appCount()).toBe(before + 1);
  });

  it('the same key with a different body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    await t.req('POST', '/v1/kyc/applications', { body: applicant(), idempotencyKey: 'kyc-replay-2' });
    const res = await t.req('POST', '/v1/kyc/applications', { body: applicant(), idempotencyKey: 'kyc-replay-2' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a replayed submit answers the first outcome, not a 409', async () => {
    const id = await withBothSides();
    const first = await t.req('POST', `/v1/kyc/applications/${id}/submit`, { idempotencyKey: `submit-${id}` });
    const again = await t.req('POST', `/v1/kyc/applications/${id}/submit`, { idempotencyKey: `submit-${id}` });
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('a replayed upload is answered from the record', async () => {
    const id = await create();
    const key = `upload-${id}`;
    const opts = { raw: SAMPLE_FRONT, contentType: 'image/png', idempotencyKey: key };
    const first = await t.req('PUT', `/v1/kyc/applications/${id}/documents/national_id_front`, opts);
    const again = await t.req('PUT', `/v1/kyc/applications/${id}/documents/national_id_front`, opts);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('without an Idempotency-Key: 400 IDEMPOTENCY_KEY_REQUIRED and nothing created', async () => {
    const before = appCount();
    const res = await t.req('POST', '/v1/kyc/applications', { body: applicant(), headers: { 'idempotency-key': '' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(appCount()).toBe(before);
  });
});

describe('Bad input: every field tried wrong is a 4xx with a stable code, and no application is created', () => {
  const born2008 = (mmdd: string, last4 = '1234') => ({
    national_id: `308${mmdd}01${'5'}${last4}`,
    date_of_birth: `2008-${mmdd.slice(0, 2)}-${mmdd.slice(2)}`,
  });
  const cases: Array<[string, Record<string, unknown>, number, string]> = [
    ['full_name missing', { full_name: undefined }, 422, 'INVALID_FULL_NAME'],
    ['full_name empty', { full_name: '' }, 422, 'INVALID_FULL_NAME'],
    ['full_name one letter', { full_name: 'M' }, 422, 'INVALID_FULL_NAME'],
    ['full_name with digits', { full_name: 'Mona 2' }, 422, 'INVALID_FULL_NAME'],
    ['full_name a number', { full_name: 42 }, 422, 'INVALID_FULL_NAME'],
    ['full_name over 120', { full_name: 'M'.repeat(121) }, 422, 'INVALID_FULL_NAME'],
    ['national_id missing', { national_id: undefined }, 422, 'INVALID_NATIONAL_ID'],
    ['national_id 13 digits', { national_id: '2900101011234' }, 422, 'INVALID_NATIONAL_ID'],
    ['national_id 15 digits', { national_id: '290010101123456' }, 422, 'INVALID_NATIONAL_ID'],
    ['national_id with letters', { national_id: '2900101011234A' }, 422, 'INVALID_NATIONAL_ID'],
    ['national_id Arabic-Indic digits', { national_id: '٢٩٠٠١٠١٠١١٢٣٤٥' }, 422, 'INVALID_NATIONAL_ID'],
    ['national_id a number', { national_id: 29001010112345 }, 422, 'INVALID_NATIONAL_ID'],
    [
      'national_id century 1',
      { national_id: '19001010112345', date_of_birth: '1890-01-01' },
      422,
      'INVALID_NATIONAL_ID',
    ],
    [
      'national_id birth date 30 February',
      { national_id: '29002300112345', date_of_birth: '1990-02-28' },
      422,
      'INVALID_NATIONAL_ID',
    ],
    [
      'national_id month 13',
      { national_id: '29013010112345', date_of_birth: '1990-01-01' },
      422,
      'INVALID_NATIONAL_ID',
    ],
    [
      'national_id governorate 99',
      { national_id: '29001019912345', date_of_birth: '1990-01-01' },
      422,
      'INVALID_NATIONAL_ID',
    ],
    [
      'national_id governorate 05',
      { national_id: '29001010512345', date_of_birth: '1990-01-01' },
      422,
      'INVALID_NATIONAL_ID',
    ],
    [
      'national_id birth date in the future',
      { national_id: '32701010112345', date_of_birth: '2027-01-01' },
      422,
      'INVALID_NATIONAL_ID',
    ],
    ['date_of_birth missing', { date_of_birth: undefined }, 422, 'INVALID_DATE_OF_BIRTH'],
    ['date_of_birth with slashes', { date_of_birth: '1990/01/01' }, 422, 'INVALID_DATE_OF_BIRTH'],
    ['date_of_birth not a day', { date_of_birth: '1990-02-30' }, 422, 'INVALID_DATE_OF_BIRTH'],
    [
      'date_of_birth other than the id',
      { national_id: '29001010112345', date_of_birth: '1990-01-02' },
      422,
      'DATE_OF_BIRTH_MISMATCH',
    ],
    [
      'date_of_birth other century than the id',
      { national_id: '29001010112345', date_of_birth: '2090-01-01' },
      422,
      'DATE_OF_BIRTH_MISMATCH',
    ],
    ['applicant aged 17', { national_id: '31001010112345', date_of_birth: '2010-01-01' }, 422, 'UNDERAGE'],
    ['applicant 18 tomorrow', born2008('1123'), 422, 'UNDERAGE'],
    ['email missing', { email: undefined }, 422, 'INVALID_EMAIL'],
    ['email without @', { email: 'mona.example.com' }, 422, 'INVALID_EMAIL'],
    ['email without a domain dot', { email: 'mona@example' }, 422, 'INVALID_EMAIL'],
    ['email with a space', { email: 'mona hassan@example.com' }, 422, 'INVALID_EMAIL'],
    ['phone missing', { phone: undefined }, 422, 'INVALID_PHONE'],
    ['phone landline prefix 013', { phone: '01312345678' }, 422, 'INVALID_PHONE'],
    ['phone too short', { phone: '0101234567' }, 422, 'INVALID_PHONE'],
    ['phone with spaces', { phone: '010 1234 5678' }, 422, 'INVALID_PHONE'],
    ['phone 0020 form', { phone: '00201012345678' }, 422, 'INVALID_PHONE'],
    ['phone a number', { phone: 1012345678 }, 422, 'INVALID_PHONE'],
    ['address missing', { address: undefined }, 422, 'INVALID_ADDRESS'],
    ['address too short', { address: 'Giza' }, 422, 'INVALID_ADDRESS'],
    ['address with a control character', { address: '12 Tahrir\u0000 Street' }, 422, 'INVALID_ADDRESS'],
    ['address over 300', { address: 'a'.repeat(301) }, 422, 'INVALID_ADDRESS'],
    ['an extra field', { nationality: 'EG' }, 422, 'VALIDATION_FAILED'],
  ];

  for (const [name, over, status, code] of cases) {
    it(`${name}: ${status} ${code}`, async () => {
      const before = appCount();
      const body = applicant(over);
      for (const k of Object.keys(over)) if (over[k] === undefined) delete (body as Record<string, unknown>)[k];
      const res = await t.req('POST', '/v1/kyc/applications', { body });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(appCount()).toBe(before);
    });
  }

  it('an applicant who is 18 today is accepted (the sandbox date is 2026-11-22 in Cairo)', async () => {
    const res = await t.req('POST', '/v1/kyc/applications', { body: applicant(born2008('1122')) });
    expect(res.status).toBe(201);
  });

  it('messages never echo the national id', async () => {
    const res = await t.req('POST', '/v1/kyc/applications', {
      body: applicant({ national_id: '29001010112345', date_of_birth: '1990-01-02' }),
    });
    expect(res.text).not.toContain('29001010112345');
  });

  it('a body that is not JSON is refused and nothing is created', async () => {
    const before = appCount();
    expect(
      (await t.req('POST', '/v1/kyc/applications', { raw: '{"full_name":', contentType: 'application/json' })).status,
    ).toBe(400);
    expect(
      (
        await t.req('POST', '/v1/kyc/applications', {
          raw: 'full_name=Mona',
          contentType: 'application/x-www-form-urlencoded',
        })
      ).status,
    ).toBe(415);
    expect((await t.req('POST', '/v1/kyc/applications', { body: [applicant()] })).status).toBe(422);
    expect(appCount()).toBe(before);
  });

  it('the national id of an approved investor of the tenant is 409 DUPLICATE_NATIONAL_ID; another tenant may onboard the same person', async () => {
    const { nationalId: nid } = await onboardInvestor(t, { suitability: false });
    const before = appCount();
    const dup = await t.req('POST', '/v1/kyc/applications', {
      body: applicant({ national_id: nid, date_of_birth: dobOf(nid) }),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('DUPLICATE_NATIONAL_ID');
    expect(appCount()).toBe(before);
    const elsewhere = await t.req('POST', '/v1/kyc/applications', {
      body: applicant({ national_id: nid, date_of_birth: dobOf(nid) }),
      tenant: other,
    });
    expect(elsewhere.status).toBe(201);
  });
});

function dobOf(nid: string): string {
  return `${nid[0] === '2' ? '19' : '20'}${nid.slice(1, 3)}-${nid.slice(3, 5)}-${nid.slice(5, 7)}`;
}

describe("Tenant scoping: another tenant's application behaves as unknown (404 NOT_FOUND)", () => {
  it("read, upload and submit of another tenant's application are 404", async () => {
    const id = await create();
    const read = await t.req('GET', `/v1/kyc/applications/${id}`, { tenant: other });
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('NOT_FOUND');
    expect(
      (
        await t.req('PUT', `/v1/kyc/applications/${id}/documents/national_id_front`, {
          raw: SAMPLE_FRONT,
          contentType: 'image/png',
          tenant: other,
        })
      ).status,
    ).toBe(404);
    expect((await t.req('POST', `/v1/kyc/applications/${id}/submit`, { tenant: other })).status).toBe(404);
    expect((await get(id)).body).toMatchObject({ state: 'screened', documents: [] });
  });

  it("the broker's dealer reviews applications across its tenants", async () => {
    const res = await t.req('POST', '/v1/kyc/applications', { body: applicant({}, '9999'), tenant: other });
    const id = res.body.application_id;
    await t.req('POST', `/v1/kyc/applications/${id}/submit`, { tenant: other });
    const queue = await t.req('GET', `/broker/v1/kyc?tenant_id=${other.tenant_id}`);
    expect(queue.body.applications.map((a: any) => a.application_id)).toContain(id);
    const cleared = await t.req('POST', `/broker/v1/kyc/${id}/clear`);
    expect(cleared.body.state).toBe('approved');
    const read = await t.req('GET', `/v1/kyc/applications/${id}`, { tenant: other });
    expect(read.body.investor_id).toBe(cleared.body.investor_id);
    expect((await t.req('GET', `/v1/accounts/${cleared.body.investor_id}`)).status).toBe(404);
  });
});

describe('Dealer KYC desk: GET /broker/v1/kyc (kyc:read), POST .../clear and .../decline (kyc:decide)', () => {
  it('the queue is the referred applications, oldest submission first; state=all lists every application', async () => {
    const a = await withBothSides('9999');
    await submit(a);
    const b = await create({}, '9999');
    await submit(b);
    const queue = (await t.req('GET', '/broker/v1/kyc')).body.applications;
    expect(queue.every((x: any) => x.state === 'screening_referred')).toBe(true);
    const ids = queue.map((x: any) => x.application_id);
    expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
    const all = (await t.req('GET', '/broker/v1/kyc?state=all&limit=200')).body.applications;
    expect(new Set(all.map((x: any) => x.state)).size).toBeGreaterThan(1);
    expect((await t.req('GET', '/broker/v1/kyc?state=approved&limit=1')).body.applications).toHaveLength(1);
    expect((await t.req('GET', '/broker/v1/kyc?state=pending')).status).toBe(422);
    expect((await t.req('GET', '/broker/v1/kyc?limit=0')).status).toBe(422);
  });

  it('clear or decline of an application that is not under review is 409', async () => {
    const screened = await create();
    const notReferred = await t.req('POST', `/broker/v1/kyc/${screened}/clear`);
    expect(notReferred.status).toBe(409);
    expect(notReferred.body.error.code).toBe('APPLICATION_NOT_REFERRED');
    const approved = await withBothSides();
    await submit(approved);
    const decided = await t.req('POST', `/broker/v1/kyc/${approved}/decline`, { body: { reason_code: 'OTHER' } });
    expect(decided.status).toBe(409);
    expect(decided.body.error.code).toBe('APPLICATION_ALREADY_DECIDED');
    expect((await get(approved)).body.state).toBe('approved');
  });

  it('a decline needs a known reason_code: 422 INVALID_REASON_CODE, nothing changes', async () => {
    const id = await create({}, '9999');
    await submit(id);
    for (const body of [{}, { reason_code: 'because' }, { reason_code: 7 }]) {
      const res = await t.req('POST', `/broker/v1/kyc/${id}/decline`, { body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('INVALID_REASON_CODE');
    }
    expect((await get(id)).body.state).toBe('screening_referred');
  });

  it('unknown application: 404; missing console key: 401; a console identity without the grant: 403 FORBIDDEN', async () => {
    expect((await t.req('POST', '/broker/v1/kyc/kyc_0000000000/clear')).body.error.code).toBe('NOT_FOUND');
    expect((await t.req('GET', '/broker/v1/kyc', { as: 'none' })).status).toBe(401);
    expect((await t.req('GET', '/broker/v1/kyc', { as: 'admin' })).status).toBe(401);
    const readOnly = consoleKey('kyc-reader', ['kyc:read']);
    const id = await create({}, '9999');
    await submit(id);
    expect((await t.req('GET', '/broker/v1/kyc', { headers: { 'x-console-key': readOnly } })).status).toBe(200);
    const res = await t.req('POST', `/broker/v1/kyc/${id}/clear`, { headers: { 'x-console-key': readOnly } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const noRead = consoleKey('no-kyc', ['queue:read']);
    expect((await t.req('GET', '/broker/v1/kyc', { headers: { 'x-console-key': noRead } })).status).toBe(403);
    expect((await get(id)).body.state).toBe('screening_referred');
  });

  it("a dealer of another broker sees none of this broker's applications", async () => {
    t.deps.db
      .prepare(
        'INSERT INTO brokers (id, name, name_ar, fra_license_no, contact_email, contact_phone) VALUES ' +
          "('brk_other000001', 'Delta Brokerage', 'دلتا', '999/2020', 'ops@delta.example', '+20221234567')",
      )
      .run();
    const key = consoleKey('other-dealer', ['kyc:read', 'kyc:decide'], 'brk_other000001');
    const id = await create({}, '9999');
    await submit(id);
    expect(
      (await t.req('GET', '/broker/v1/kyc?state=all', { headers: { 'x-console-key': key } })).body.applications,
    ).toEqual([]);
    expect((await t.req('POST', `/broker/v1/kyc/${id}/clear`, { headers: { 'x-console-key': key } })).status).toBe(404);
  });
});

describe('Sandbox reset wipes applications and their documents', () => {
  it('after reset an application is unknown', async () => {
    const local = await makeApp();
    try {
      const res = await local.req('POST', '/v1/kyc/applications', { body: applicant() });
      const id = res.body.application_id;
      await local.req('PUT', `/v1/kyc/applications/${id}/documents/national_id_front`, {
        raw: SAMPLE_FRONT,
        contentType: 'image/png',
      });
      expect((await local.req('POST', '/admin/sandbox/reset', { body: {} })).status).toBe(200);
      expect((await local.req('GET', `/v1/kyc/applications/${id}`)).status).toBe(404);
      expect(local.deps.db.prepare('SELECT COUNT(*) AS n FROM kyc_documents').get()).toEqual({ n: 0 });
    } finally {
      await local.close();
    }
  });
});
