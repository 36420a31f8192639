// Envelope encryption: each tenant has a data key (DEK) wrapped by the sandbox's key-encryption key
// (KEK, a file in $SVC_HOME). Sealed values are AES-256-GCM: 12-byte IV, 16-byte tag, ciphertext.
import { createCipheriv, createDecipheriv, createHmac, hash, randomBytes } from 'node:crypto';

// IVs are drawn from a pool of random bytes refilled 4 KiB at a time: the same randomness as one
// randomBytes(12) per seal (a fresh random IV for every message), without a trip to the system's
// generator for each of the journal's per-request seals.
const IV_BYTES = 12;
let ivPool = Buffer.alloc(0);
let ivOffset = 0;

function freshIv(): Buffer {
  if (ivOffset + IV_BYTES > ivPool.length) {
    ivPool = randomBytes(IV_BYTES * 341);
    ivOffset = 0;
  }
  const iv = Buffer.from(ivPool.subarray(ivOffset, ivOffset + IV_BYTES));
  ivPool.fill(0, ivOffset, ivOffset + IV_BYTES);
  ivOffset += IV_BYTES;
  return iv;
}

export function seal(key: Buffer, plaintext: Buffer, aad = ''): Buffer {
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]);
}

function openUnder(key: Buffer, sealed: Buffer, aad: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  if (aad) decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}

// A key being rotated has a partner while its values are re-sealed in slices (docs/backoffice.md "Key
// rotation"): the key a rotation moves values to, or the one it moves them from. A value sealed under
// either opens, so every reader keeps working whatever slice the rotation is at. Keyed by the Buffer
// object a key store hands out (a tenant's data key, the daemon's KEK), never by its bytes.
const partners = new WeakMap<Buffer, Buffer>();

/** While a rotation re-seals: what opens under `key` may be sealed under `partner` instead. */
export function pairKey(key: Buffer, partner: Buffer): void {
  partners.set(key, partner);
}

export function unpairKey(key: Buffer): void {
  partners.delete(key);
}

/** The key and its partner (if a rotation is re-sealing): every key a value handed to `open(key)` may be under. */
export function keyRing(key: Buffer): Buffer[] {
  const partner = partners.get(key);
  return partner ? [key, partner] : [key];
}

/** Opens a sealed value under `key`, or under its partner while a rotation re-seals (pairKey). */
export function open(key: Buffer, sealed: Buffer, aad = ''): Buffer {
  const partner = partners.get(key);
  if (!partner) return openUnder(key, sealed, aad);
  try {
    return openUnder(key, sealed, aad);
  } catch {
    return openUnder(partner, sealed, aad);
  }
}

export function newKey(): Buffer {
  return randomBytes(32);
}

export function sha256(data: string | Buffer): string {
  // one-shot: no Hash object per call (the audit chain hashes a row per request)
  return hash('sha256', data, 'hex');
}

/** Keyed hash for lookups of sensitive values (e.g. national ids) without storing them in clear. */
export function keyedHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

/** A random secret of `bytes` bytes, base64url, with a readable prefix. */
export function newSecret(prefix: string, bytes = 24): string {
  return prefix + randomBytes(bytes).toString('base64url');
}
