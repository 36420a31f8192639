// What keys:rotate-kek re-seals, and its switch-over. The request journal's non-tenant bodies and
// answers (the one collection under the KEK that grows) are re-sealed in slices by
// rotation-runner.ts; everything else under the KEK (each tenant's data key, each identity's step-up
// secret: one row per tenant or identity) is re-sealed by the switch-over, in one transaction with
// the journal's last rows and key_state.kek_check naming the new key.
//
// While the slices run, deps.kek (one Buffer shared by every sealer) is still the old key, paired
// with the next one (daemon/store/crypto.ts pairKey): writers seal under the old key, and the slices,
// which follow the journal by seq, re-seal what they append; readers open either. The next key is in
// kek.next.key (fsynced by the approval, before anything is sealed under it) and named by
// key_state.kek_next_check, so a start in the middle keeps both files and resumes.
import type { Deps } from '../../deps.js';
import { unpairKey } from '../../store/crypto.js';
import { auditSealKeyOf, kekCheck, promoteNextKek } from '../../store/kek-file.js';
import { resealSlice, stallMs, type SealedColumn } from './reseal.js';
import { remacSessions } from '../sessions.js';
import { remacPasskeys } from '../passkeys.js';

/** The journal's entries sealed under the KEK (every principal but a tenant's). */
export const KEK_SEALED: SealedColumn[] = [
  {
    names: ['journal_bodies', 'journal_answers'],
    select: `SELECT seq AS k, body_sealed AS sealed, CASE answer_in_body WHEN 1 THEN 'journal+response:' ELSE
      'journal:' END || principal AS aad,
      response_sealed AS sealed2, 'journal-response:' || principal AS aad2 FROM journal WHERE principal NOT LIKE
        'tenant:%' AND seq > ? ORDER BY seq LIMIT ?`,
    update: 'UPDATE journal SET body_sealed = ?, response_sealed = ? WHERE seq = ?',
  },
];

/** Re-sealed whole by the switch-over: one row per tenant or identity. */
export const KEK_SMALL: SealedColumn[] = [
  {
    names: ['data_keys'],
    select:
      "SELECT rowid AS k, dek_wrapped AS sealed, 'dek:' || id AS aad FROM tenants WHERE rowid > ? ORDER BY " +
      'rowid LIMIT ?',
    update: 'UPDATE tenants SET dek_wrapped = ? WHERE rowid = ?',
  },
  {
    names: ['step_up_secrets'],
    select:
      "SELECT rowid AS k, secret_sealed AS sealed, 'stepup:' || operator_id AS aad FROM operator_step_up WHERE " +
      'rowid > ? ORDER BY rowid LIMIT ?',
    update: 'UPDATE operator_step_up SET secret_sealed = ? WHERE rowid = ?',
  },
];

/** The KEK every sealer uses from now on (in memory): the shared buffer, the audit seal's key, the caches. */
export function useKek(deps: Pick<Deps, 'kek' | 'auditSealKey' | 'keys'>, kek: Buffer): void {
  deps.kek.set(kek);
  deps.auditSealKey.set(auditSealKeyOf(kek));
  deps.keys.clearCaches();
}

/**
 * The KEK switch-over, the one place a new KEK takes over (call inside one transaction, with
 * key_state.resealing raised): the journal's rows after `afterSeq` re-sealed, every data key and
 * step-up secret re-wrapped, key_state naming the new key, and the KEK in memory replaced, so that
 * whatever this transaction appends next (the rotation's audit entry, and so the audit seal) is
 * signed under the key derived from the new one. Anything else MAC'd or sealed under the KEK joins
 * here. The caller puts the old key back in memory if the transaction rolls back.
 */
export function switchOverKek(deps: Deps, next: Buffer, afterSeq: number, at: string): Record<string, number> {
  const ring = [Buffer.from(deps.kek), next];
  const counts: Record<string, number> = {};
  for (const col of [...KEK_SEALED.map((c) => ({ c, after: afterSeq })), ...KEK_SMALL.map((c) => ({ c, after: 0 }))]) {
    Object.assign(
      counts,
      resealSlice(deps.db, col.c, [], ring, next, { after: col.after, limit: -1, budgetMs: Infinity }).counts,
    );
  }
  // the console's session, passkey and enrolment rows that verify under the old KEK get their MACs
  // under the new one (a row that did not verify still does not)
  counts.console_rows = remacSessions(deps.db, ring[0], next) + remacPasskeys(deps.db, ring[0], next);
  deps.db
    .prepare(
      'UPDATE key_state SET kek_check = ?, kek_next_check = NULL, kek_version = kek_version + 1, rotated_at = ' +
        '? WHERE id = 1',
    )
    .run(kekCheck(next), at);
  useKek(deps, next);
  return counts;
}

/** Daemons whose switch-over committed and whose kek.next.key is not yet kek.key: no new KEK rotation until it is. */
const promoting = new WeakSet<Deps>();

export const kekFilePending = (deps: Deps): boolean => promoting.has(deps);

/** After the switch-over committed: the shared buffer is the new key alone, and kek.next.key becomes kek.key. */
export function afterKekSwitchOver(deps: Deps): void {
  unpairKey(deps.kek);
  deps.kekNext = null;
  promoting.add(deps);
  const promote = () => {
    promoting.delete(deps);
    if (deps.home && deps.db.open) promoteNextKek(deps.home); // closed meanwhile: the next start promotes it
  };
  const stall = stallMs();
  if (stall > 0) setTimeout(promote, stall);
  else promote();
}
