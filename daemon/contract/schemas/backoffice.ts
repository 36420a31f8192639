// Wire schemas of the back office: tenant credentials and the hash-chained audit log (daemon/store/audit.ts).
import { z } from 'zod';
import { timestamp } from './formats.js';

const sha256Hex = (what: string) => z.string().describe(`${what} (64 lowercase hex characters)`);

export const TenantCredentialsSchema = z
  .object({
    tenant_id: z.string().describe('tnt_...'),
    name: z.string(),
    api_key: z.string().describe('bearer key; shown once'),
    signing_secret: z.string().describe('HMAC secret of the v1 request signature; shown once'),
  })
  .meta({ id: 'TenantCredentials' });

export const AuditEntrySchema = z
  .object({
    seq: z.int().describe('position in the chain, from 1'),
    at: timestamp().describe('simulated time of the change (RFC 3339, Cairo offset)'),
    actor: z.string().describe('who did it: tenant:<id>, operator:<name> or system'),
    action: z.string().describe("what was done: the route ('POST /v1/orders') or a domain event ('kyc.approved')"),
    subject: z.string().describe('what it was done to: the request path or an id'),
    tenant_id: z.string().nullable().describe('the tenant concerned; null for sandbox-wide changes'),
    detail: z.string().describe('JSON text of the details (e.g. the status and idempotency key), exactly as hashed'),
    prev_hash: sha256Hex("the previous entry's hash (64 zeros for the first)"),
    hash: sha256Hex('SHA-256 of this entry with prev_hash'),
    on_behalf_of: z
      .string()
      .nullable()
      .describe(
        'for a replayed journal entry, the recorded principal the actor (the replaying operator) acted for; ' +
          'null otherwise',
      ),
  })
  .meta({ id: 'AuditEntry' });

export const AuditListSchema = z
  .object({ entries: z.array(AuditEntrySchema).describe('newest first; at most limit') })
  .meta({ id: 'AuditList' });

export const AuditVerifySchema = z
  .object({
    ok: z.boolean().describe('true when every hash recomputes and the chain reaches the recorded head'),
    count: z.int().describe('entries recorded in the head'),
    head: z.string().describe('the recorded head hash (empty before the first entry)'),
    first_bad_seq: z.int().nullable().describe('the first entry that fails; null when ok'),
    reason: z.string().nullable().describe('why it fails; null when ok'),
  })
  .meta({ id: 'AuditVerification' });

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type TenantCredentials = z.infer<typeof TenantCredentialsSchema>;
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export type AuditList = z.infer<typeof AuditListSchema>;
export type AuditVerification = z.infer<typeof AuditVerifySchema>;
