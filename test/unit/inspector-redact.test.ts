// The request inspector's redaction (daemon/record/inspector-redact.ts): what an integrator may see
// of a body or a header, with secrets and personal data replaced by markers.
import { describe, expect, it } from 'vitest';
import { redactBody, redactHeaders, redactText, redactValue } from '../../daemon/record/inspector-redact.js';

const PERSON = {
  full_name: 'Mona Hassan',
  national_id: '29001010112345',
  date_of_birth: '1990-01-01',
  email: 'mona@example.com',
  phone: '01012345678',
  address: '12 Tahrir Street, Cairo',
  symbol: 'COMI',
  qty: 10,
};

describe('redaction', () => {
  it('replaces personal fields by name and keeps the rest', () => {
    expect(redactValue(PERSON)).toEqual({
      full_name: '[redacted:name]',
      national_id: '[redacted:national_id]',
      date_of_birth: '[redacted:date_of_birth]',
      email: '[redacted:email]',
      phone: '[redacted:phone]',
      address: '[redacted:address]',
      symbol: 'COMI',
      qty: 10,
    });
  });

  it('replaces credentials by field name at any depth, and keys of ours by their prefix anywhere', () => {
    const out = redactValue({
      tenant: { api_key: 'sk_sbx_abc', signing_secret: 'ss_sbx_def', password: 'hunter2' },
      note: 'use sk_sbx_zzz9 now',
      idempotency_key: 'k-1',
    });
    expect(out).toEqual({
      tenant: {
        api_key: '[redacted:credential]',
        signing_secret: '[redacted:credential]',
        password: '[redacted:credential]',
      },
      note: 'use [redacted:credential] now',
      idempotency_key: 'k-1',
    });
  });

  it("hides a console enrolment code wherever it appears: the field, a link carrying it, and a request body's code", () => {
    const code = 'enr_AbCdEfGhIjKlMnOpQrStUvWx';
    const out = redactValue({
      answered_once: { enrolment_code: code, enrolment_path: `/console/enroll?code=${code}` },
      body: JSON.stringify({ code }),
    });
    expect(JSON.stringify(out)).not.toContain(code);
    expect(out).toEqual({
      answered_once: {
        enrolment_code: '[redacted:credential]',
        enrolment_path: '/console/enroll?code=[redacted:credential]',
      },
      body: '{"code":"[redacted:credential]"}',
    });
  });

  it('finds emails, Egyptian mobiles and national ids inside free text and inside JSON carried in a string', () => {
    expect(redactValue({ message: 'call +201012345678 or write to a@b.io about 29001010112345' })).toEqual({
      message: 'call [redacted:phone] or write to [redacted:email] about [redacted:national_id]',
    });
    const entry = { body: JSON.stringify({ full_name: 'Mona Hassan', qty: 3 }) };
    expect(redactValue(entry)).toEqual({ body: JSON.stringify({ full_name: '[redacted:name]', qty: 3 }) });
  });

  it('redacts name-value pairs of text that is not whole JSON (a truncated or malformed body)', () => {
    expect(redactText('{"national_id": "29001010112345", "full_name": "Mona')).not.toContain('Mona');
    expect(redactText('{"email":"x@y.com","qty":5,')).toBe('{"email":"[redacted:email]","qty":5,');
  });

  it('never shows bytes: an image is its size and type; long base64 is a marker', () => {
    expect(redactBody(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png')).toBe(
      '[redacted:bytes] (4 bytes, image/png)',
    );
    expect(redactValue({ body_base64: 'iVBORw0KGgo=' })).toEqual({ body_base64: '[redacted:bytes]' });
    expect(redactValue({ blob: 'A'.repeat(600) })).toEqual({ blob: '[redacted:bytes] (600 base64 characters)' });
  });

  it('parses a JSON body so it reads as a value, and redacts NDJSON line by line', () => {
    expect(redactBody('{"email":"a@b.io"}', 'application/json')).toEqual({ email: '[redacted:email]' });
    expect(redactBody('{"a":1}\n{"phone":"01012345678"}', 'application/x-ndjson; charset=utf-8')).toBe(
      '{"a":1}\n{"phone":"[redacted:phone]"}',
    );
  });

  it('stays linear on a long run of letters (a body of 200,000 characters takes well under a second)', () => {
    const started = performance.now();
    expect(redactText(`{"note":"${'a'.repeat(200_000)}`)).toHaveLength(200_009);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('shows headers with credentials replaced', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer sk_sbx_1',
        'x-admin-key': 'ak_sbx_2',
        'x-svc-signature': 'v1=00',
        'idempotency-key': 'k',
        accept: ['a', 'b'],
      }),
    ).toEqual({
      authorization: 'Bearer [redacted:credential]',
      'x-admin-key': '[redacted:credential]',
      'x-svc-signature': '[redacted:credential]',
      'idempotency-key': 'k',
      accept: 'a, b',
    });
  });
});
