// The logo at rest (docs/branding.md, "At rest"): sealed under the tenant's data key (AES-256-GCM,
// daemon/store/crypto.ts) with additional authenticated data naming its tenant, so a sealed logo
// copied to another tenant's row fails to open. Its clear bytes never reach the database.
import { open, seal } from '../store/crypto.js';

const aad = (tenantId: string) => `branding:logo:${tenantId}`;

export function sealLogo(dek: Buffer, tenantId: string, bytes: Buffer): Buffer {
  return seal(dek, bytes, aad(tenantId));
}

export function openLogo(dek: Buffer, tenantId: string, sealed: Buffer): Buffer {
  return open(dek, sealed, aad(tenantId));
}
