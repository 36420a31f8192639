// One row of the hash-chained audit log and its hash (daemon/store/audit.ts): shared by the log and
// by its anchors (daemon/store/audit-anchor.ts), which recompute rows without appending any.
import { sha256 } from './crypto.js';
import type { AuditLogRow } from './rows.js';

/** A row of audit_log. on_behalf_of: set when an operator replayed the request, the principal the actor acted for. */
export type AuditRow = AuditLogRow;

/** The previous hash of the first row. */
export const GENESIS = '0'.repeat(64);

export function rowHash(r: Omit<AuditRow, 'hash' | 'on_behalf_of'> & { on_behalf_of?: string | null }): string {
  const fields: Array<string | number | null> = [
    r.seq,
    r.at,
    r.actor,
    r.action,
    r.subject,
    r.tenant_id,
    r.detail,
    r.prev_hash,
  ];
  // Only rows written on someone's behalf hash the field: every other row (and every row older than
  // the column) keeps the hash it always had.
  if (r.on_behalf_of !== null && r.on_behalf_of !== undefined) fields.push(r.on_behalf_of);
  return sha256(JSON.stringify(fields));
}
