// The library's pure pieces, held to the daemon's own code and to the RFCs: the v1 signature equals the
// daemon's (daemon/contract/signing.ts) for the same bytes; TOTP matches RFC 6238's vectors and the
// daemon's step-up codes; the routes it keys and signs are the daemon's list; EGP strings convert to integer
// micros exactly; fields beyond 2^53 parse exactly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  DEFAULT_RETRY,
  egpToMicros,
  hotp,
  microsToEgp,
  parseJson,
  retryAfterMs,
  signV1,
  tenantAuthFor,
  totp,
} from '../../client/src/index.js';
import { tenantAuthFor as daemonAuthFor } from '../../daemon/contract/routes-auth.js';
import { sign } from '../../daemon/contract/signing.js';
import { stepUpCode } from '../../daemon/contract/grants.js';

describe('the v1 signature', () => {
  it('is the one the daemon computes, for JSON and for raw bytes, with and without a query', () => {
    const cases = [
      { method: 'POST', path: '/v1/orders', rawQuery: '', body: '{"qty":1,"note":"سهم"}' },
      { method: 'DELETE', path: '/v1/orders/ord_1', rawQuery: 'a=1&b=%20', body: '' },
      { method: 'PUT', path: '/v1/kyc/applications/x/documents/national_id_front', rawQuery: '', body: '\x89PNG\r\n' },
    ];
    for (const c of cases) {
      const input = { ...c, timestamp: '1764300000', idempotencyKey: 'k-1' };
      const bytes = new Uint8Array(Buffer.from(c.body, 'latin1'));
      expect(signV1('secret', { ...input, body: bytes })).toBe(sign('secret', { ...input, body: Buffer.from(bytes) }));
    }
  });
});

describe('TOTP (RFC 6238) for the step-up', () => {
  it('matches the RFC test vectors (SHA-1, 8 digits)', () => {
    const secret = new Uint8Array(Buffer.from('12345678901234567890'));
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1234567890, '89005924'],
      [20000000000, '65353130'],
    ];
    for (const [t, code] of vectors) expect(hotp(secret, Math.floor(t / 30), 8)).toBe(code);
  });

  it("gives the daemon's step-up code for the same secret and step", () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    for (const step of [0, 1, 58_800_000, 58_800_001]) expect(totp(secret, step)).toBe(stepUpCode(secret, { step }));
  });
});

describe('the keyed and signed routes', () => {
  it("are the daemon's list for every /v1 route and method (svc keys and signs by the library's)", () => {
    const generated = readFileSync('client/src/generated/api.ts', 'utf8');
    const templates = [...generated.matchAll(/^ {4}"(\/v1\/[^"]+)": \{/gm)].map((m) => m[1]);
    expect(templates.length).toBeGreaterThan(30);
    for (const template of templates) {
      const path = template.replace(/\{[^}]+\}/g, 'x_1');
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
        expect(tenantAuthFor(method, path), `${method} ${template}`).toBe(daemonAuthFor(method, path));
    }
  });
});

describe('money helpers', () => {
  it('convert EGP strings to integer micros exactly, refusing what is finer than a micro unless told to round', () => {
    expect(egpToMicros('85.125')).toBe(85_125_000);
    expect(egpToMicros('0.000001')).toBe(1);
    expect(egpToMicros('-12')).toBe(-12_000_000);
    expect(egpToMicros('0.1') + egpToMicros('0.2')).toBe(egpToMicros('0.3'));
    expect(() => egpToMicros('1.0000005')).toThrow(RangeError);
    expect(egpToMicros('1.0000005', 'half-up')).toBe(1_000_001);
    expect(egpToMicros('1.0000004', 'half-up')).toBe(1_000_000);
    expect(egpToMicros('1.0000009', 'down')).toBe(1_000_000);
    expect(() => egpToMicros('1e3')).toThrow(RangeError);
    expect(() => egpToMicros('99999999999999')).toThrow(RangeError);
  });

  it('write micros back as EGP strings, number or bigint', () => {
    expect(microsToEgp(85_125_000)).toBe('85.125');
    expect(microsToEgp(85_000_000)).toBe('85.00');
    expect(microsToEgp(-1)).toBe('-0.000001');
    expect(microsToEgp(123_456_789_012_345_678_901n)).toBe('123456789012345.678901');
    expect(() => microsToEgp(0.5)).toThrow(RangeError);
  });
});

describe('exact JSON', () => {
  it('parses market_cap_micros and net_income_micros beyond 2^53 as exact bigints, and nothing else', () => {
    const text =
      '{"fundamentals":{"market_cap_micros":123456789012345678901,"net_income_micros":-9007199254740993,' +
      '"pe_x100":1234},"note":"\\"market_cap_micros\\":5","list":[{"market_cap_micros":1}],"other":9007199254740993}';
    const v = parseJson(text) as {
      fundamentals: { market_cap_micros: bigint; net_income_micros: bigint; pe_x100: number };
      note: string;
      list: Array<{ market_cap_micros: bigint }>;
    };
    expect(v.fundamentals.market_cap_micros).toBe(123456789012345678901n);
    expect(v.fundamentals.net_income_micros).toBe(-9007199254740993n);
    expect(v.fundamentals.pe_x100).toBe(1234);
    expect(v.note).toBe('"market_cap_micros":5');
    expect(v.list[0].market_cap_micros).toBe(1n);
    expect(BigInt(JSON.parse(text).fundamentals.market_cap_micros)).not.toBe(123456789012345678901n);
  });

  it('leaves a null big field null', () => {
    expect(parseJson('{"market_cap_micros":null}')).toEqual({ market_cap_micros: null });
  });
});

describe('backoff', () => {
  it('doubles from base to cap, half fixed and half jitter; reads Retry-After as seconds or a date', () => {
    expect([1, 2, 3].map((n) => backoffMs(n, DEFAULT_RETRY, () => 0))).toEqual([125, 250, 500]);
    expect(backoffMs(10, DEFAULT_RETRY, () => 0.999999)).toBe(8_000);
    expect(retryAfterMs('7', 0)).toBe(7_000);
    expect(retryAfterMs(new Date(60_000).toUTCString(), 0)).toBe(60_000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });
});
