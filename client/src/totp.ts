// RFC 6238 TOTP (HMAC-SHA1, 6 digits, 30 s steps) with node:crypto: the step-up code of an operator
// identity, from the base32 secret the identity was issued (the repo's docs/backoffice.md, "Step-up").
import { createHmac } from 'node:crypto';

export const TOTP_PERIOD_S = 30;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (case-insensitive, padding and spaces ignored) to bytes; throws on a foreign character. */
export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new TypeError(`not a base32 character: ${JSON.stringify(ch)}`);
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** The HOTP value (RFC 4226) of `counter`, as `digits` decimal digits. */
export function hotp(secret: Uint8Array, counter: number, digits = 6): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(msg).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** The 30-second step a wall-clock instant falls in. */
export const totpStep = (wallMs: number): number => Math.floor(wallMs / 1000 / TOTP_PERIOD_S);

/** The TOTP code of a base32 secret at a step (default: the step of `Date.now()`). */
export function totp(secretBase32: string, step: number = totpStep(Date.now())): string {
  return hotp(base32Decode(secretBase32), step);
}
