// A machine key's step-up window (docs/backoffice.md, "Step-up"): what a console session's passkey
// step-up is for a browser, for an operator key. A valid X-Step-Up-Code on a money or approval action
// opens (or renews) the window of that identity's key for STEP_UP_WINDOW_MS of the wall clock; inside
// it the same key's money and approval actions need no new code. Guarantees:
// - one key only: the row names the key it was opened with (its hash); another identity's key, or this
//   identity's key once rotated or revoked, finds no window (revocation and rotation also delete it);
// - the wall clock, never the sandbox clock: a frozen or fast sandbox clock neither keeps it nor ends it;
// - a row is worth nothing without the key-encryption key: each row carries an HMAC of its fields under
//   a key derived from the KEK (which the database never holds), so a row inserted into svc.db by hand,
//   or a fresh_until pushed later, is no window. A KEK rotation therefore ends every window.
import type { Db } from '../store/db.js';
import { rowMac, rowMacOk } from '../store/row-mac.js';
import type { OperatorStepUpWindowsRow, OperatorsRow } from '../store/rows.js';

/** How long a step-up keeps a key fresh: the console's 5 minutes (daemon/backoffice/sessions.ts). */
export const STEP_UP_WINDOW_MS = 5 * 60_000;

/** A window joined with its operator: the key it is bound to now, revoked or disabled. */
type WindowRow = OperatorStepUpWindowsRow & { current_key: string } & Pick<OperatorsRow, 'revoked_at' | 'disabled_at'>;

const iso = (ms: number): string => new Date(ms).toISOString();

export function createStepUpWindows(db: Db, kek: Buffer) {
  const q = {
    key: db.prepare<[string], { key_hash: string; revoked_at: string | null }>(
      'SELECT key_hash, revoked_at FROM operators WHERE id = ?',
    ),
    put: db.prepare(
      'INSERT OR REPLACE INTO operator_step_up_windows (operator_id, key_hash, stepped_up_at, fresh_until, ' +
        'mac) VALUES (?, ?, ?, ?, ?)',
    ),
    get: db.prepare<[string], WindowRow>(
      `SELECT w.*, o.key_hash AS current_key, o.revoked_at, o.disabled_at
       FROM operator_step_up_windows w JOIN operators o ON o.id = w.operator_id WHERE w.operator_id = ?`,
    ),
    end: db.prepare<[string]>('DELETE FROM operator_step_up_windows WHERE operator_id = ?'),
  };
  // the rows' MAC as every row that grants access carries one (store/row-mac.ts); derived at each use,
  // since a KEK rotation overwrites the shared KEK buffer in place
  const fields = (r: Pick<WindowRow, 'operator_id' | 'key_hash' | 'stepped_up_at' | 'fresh_until'>) => [
    r.operator_id,
    r.key_hash,
    r.stepped_up_at,
    r.fresh_until,
  ];
  const macOf = (r: Parameters<typeof fields>[0]): string => rowMac(kek, 'operator_step_up_windows', fields(r));

  /** Opens (or renews) the window of the identity's current key at a wall-clock instant; its end, or null (no usable
   * key). */
  function open(operatorId: string, wallMs: number): string | null {
    const op = q.key.get(operatorId);
    if (!op || op.revoked_at !== null) return null;
    const row = {
      operator_id: operatorId,
      key_hash: op.key_hash,
      stepped_up_at: iso(wallMs),
      fresh_until: iso(wallMs + STEP_UP_WINDOW_MS),
    };
    q.put.run(row.operator_id, row.key_hash, row.stepped_up_at, row.fresh_until, macOf(row));
    return row.fresh_until;
  }

  /** When the identity's window ends, if it is open now for its current key; else null. */
  function freshUntil(operatorId: string, wallMs: number): string | null {
    const r = q.get.get(operatorId);
    if (!r || r.revoked_at !== null || r.disabled_at !== null || r.key_hash !== r.current_key) return null;
    if (!rowMacOk(kek, 'operator_step_up_windows', fields(r), r.mac)) return null;
    const from = Date.parse(r.stepped_up_at);
    const until = Date.parse(r.fresh_until);
    if (!(until - from <= STEP_UP_WINDOW_MS && from <= wallMs && wallMs < until)) return null;
    return r.fresh_until;
  }

  return {
    open,
    freshUntil,
    /** Ends the identity's window now (key revoked or rotated, sessions revoked); whether one was open. */
    end: (operatorId: string): boolean => q.end.run(operatorId).changes > 0,
  };
}

export type StepUpWindows = ReturnType<typeof createStepUpWindows>;
