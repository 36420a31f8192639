// Console sessions (docs/backoffice.md, "Sessions"): a sign-in opens one and answers its token once;
// only the token's SHA-256 is stored. A session is refused (401 SESSION_INVALID) when its token is
// unknown, when it was revoked, when its identity's key was revoked, or after 30 minutes without a
// request; each accepted request moves last_seen_at. No session is opened for an identity whose key
// was revoked or that is disabled (sessionBar: the sign-in refuses with KEY_REVOKED or
// IDENTITY_DISABLED). A passkey re-authentication marks it stepped up for 5 minutes. All times are
// wall clock: a session is a person at a browser now, and a frozen or fast sandbox clock must neither
// keep it alive nor end it. Ids come from the seeded id sequence.
//
// Every row carries a MAC under a key derived from the KEK (store/row-mac.ts) over its id, identity,
// token hash, creation, last use, step-up and revocation, written with each change and checked on
// every use: a row inserted or edited by whoever can write svc.db but not read kek.key (a session
// stepped up for a year, another identity, a revocation taken back) is refused and not listed.
import { randomBytes } from 'node:crypto';
import type { Db } from '../store/db.js';
import { sha256 } from '../store/crypto.js';
import { rowMac, rowMacOk } from '../store/row-mac.js';
import { formatId } from '../sim/ids.js';
import { ok, refuse, type Outcome, type Refusal } from '../contract/outcome.js';
import type { ConsoleSessionsRow, OperatorsRow } from '../store/rows.js';

export const SESSION_IDLE_MS = 30 * 60_000;
export const STEP_UP_SESSION_MS = 5 * 60_000;

export interface SessionView {
  session_id: string;
  identity_id: string;
  identity_name: string;
  /** The identity's name for people (console-users:manage), null when it has none. */
  identity_display_name: string | null;
  /** When the identity was disabled (console-users:disable); null while it is enabled. */
  identity_disabled_at: string | null;
  role: string;
  created_at: string;
  last_seen_at: string;
  /** When a session unused since last_seen_at stops being accepted. */
  idle_expires_at: string;
  stepped_up_until: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}

/** What the session functions need: the database and the KEK the rows' MACs are keyed by. */
export interface SessionStore {
  db: Db;
  kek: Buffer;
}

/** The stored fields of a session, as its MAC covers them. */
type StoredSession = ConsoleSessionsRow;

/** A session with its operator: the operator's key revoked, the operator disabled. */
type SessionRow = StoredSession & { key_revoked_at: string | null } & Pick<OperatorsRow, 'disabled_at'>;

const macFields = (r: Omit<StoredSession, 'mac'>) => [
  r.id,
  r.operator_id,
  r.token_sha256,
  r.created_at,
  r.last_seen_at,
  r.stepped_up_until,
  r.revoked_at,
  r.revoked_by,
];
/** The MAC a session row carries (also what a test that edits a row as the daemon would needs). */
export const sessionMac = (kek: Buffer, r: Omit<StoredSession, 'mac'>): string =>
  rowMac(kek, 'console_sessions', macFields(r));
const macOf = sessionMac;
/** True when the row is as the daemon wrote it (its MAC verifies under the KEK). */
export const sessionRowOk = (kek: Buffer, r: StoredSession): boolean =>
  rowMacOk(kek, 'console_sessions', macFields(r), r.mac);

const STORED = 'id, operator_id, token_sha256, created_at, last_seen_at, stepped_up_until, revoked_at, revoked_by, mac';

/** Writes the row's changed fields with its new MAC, only over the row as it was read (its MAC unchanged); true when
 * written. */
function writeOver(s: SessionStore, row: StoredSession, change: Partial<Omit<StoredSession, 'id' | 'mac'>>): boolean {
  const next = { ...row, ...change };
  return (
    s.db
      .prepare(
        'UPDATE console_sessions SET last_seen_at = ?, stepped_up_until = ?, revoked_at = ?, revoked_by = ?, ' +
          'mac = ? WHERE id = ? AND mac IS ?',
      )
      .run(
        next.last_seen_at,
        next.stepped_up_until,
        next.revoked_at,
        next.revoked_by,
        macOf(s.kek, next),
        row.id,
        row.mac,
      ).changes > 0
  );
}

/**
 * Writes the row's changed fields with its new MAC (the caller checked the old one). A row rewritten
 * since it was read (the whole row goes with each write, so an older read would undo that change) is
 * read again and the change applied to it as it is now, if it still verifies.
 */
function rewrite(s: SessionStore, row: StoredSession, change: Partial<Omit<StoredSession, 'id' | 'mac'>>): void {
  if (writeOver(s, row, change)) return;
  const now = s.db.prepare<[string], StoredSession>(`SELECT ${STORED} FROM console_sessions WHERE id = ?`).get(row.id);
  if (now && sessionRowOk(s.kek, now)) writeOver(s, now, change);
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The next id of a prefix from the seeded sequence (id_seq), as daemon/sim/ids.ts makes them. */
function nextId(db: Db, prefix: string): string {
  const seed = db.prepare<[], number>('SELECT seed FROM sandbox_state WHERE id = 1').pluck().get() ?? 0;
  const n = db
    .prepare<[string], number>(
      'INSERT INTO id_seq (prefix, next) VALUES (?, 1) ON CONFLICT(prefix) DO UPDATE SET next = next + 1 ' +
        'RETURNING next',
    )
    .pluck()
    .get(prefix)!;
  return formatId(seed, prefix, n);
}

/**
 * Why an identity may not hold a console session now (its key was revoked, or it is disabled), or null
 * when it may. Sign-in asks before it opens one; authenticateSession asks of every session it accepts;
 * and the database refuses the row itself (migration 038).
 */
export function sessionBar(
  who: { key_revoked_at: string | null; disabled_at: string | null } | undefined,
): Refusal | null {
  if (!who) return refuse('UNAUTHENTICATED', 'The identity no longer exists.');
  if (who.key_revoked_at !== null)
    return refuse('KEY_REVOKED', `The identity's key was revoked at ${who.key_revoked_at}.`);
  if (who.disabled_at !== null) return refuse('IDENTITY_DISABLED', `The identity was disabled at ${who.disabled_at}.`);
  return null;
}

/** sessionBar of an identity by id, read now. */
export function identityBar(db: Db, identityId: string): Refusal | null {
  return sessionBar(
    db
      .prepare<[string], { key_revoked_at: string | null; disabled_at: string | null }>(
        'SELECT revoked_at AS key_revoked_at, disabled_at FROM operators WHERE id = ?',
      )
      .get(identityId),
  );
}

/** Opens a session for an identity: its id and its token (32 random bytes, base64url), answered once. */
export function openSession(
  s: SessionStore,
  identityId: string,
  wallNowMs: number,
): { session_id: string; token: string } {
  const { db } = s;
  const token = randomBytes(32).toString('base64url');
  const at = iso(wallNowMs);
  const id = db.transaction(() => {
    const sid = nextId(db, 'ses');
    const row = {
      id: sid,
      operator_id: identityId,
      token_sha256: sha256(token),
      created_at: at,
      last_seen_at: at,
      stepped_up_until: null,
      revoked_at: null,
      revoked_by: null,
    };
    db.prepare(
      'INSERT INTO console_sessions (id, operator_id, token_sha256, created_at, last_seen_at, mac) VALUES (?, ' +
        '?, ?, ?, ?, ?)',
    ).run(sid, identityId, row.token_sha256, at, at, macOf(s.kek, row));
    return sid;
  })();
  return { session_id: id, token };
}

/** The session a token opens, now: refused when unknown, revoked, its key revoked, or idle too long. */
export function authenticateSession(
  s: SessionStore,
  token: string,
  wallNowMs: number,
): Outcome<{ session_id: string; identity_id: string; stepped_up: boolean }> {
  if (typeof token !== 'string' || token.length === 0 || token.length > 200)
    return refuse('SESSION_INVALID', 'The session token is not known.');
  const row = s.db
    .prepare<[string], SessionRow>(
      `SELECT ${STORED.split(', ')
        .map((c) => `s.${c}`)
        .join(', ')}, o.revoked_at AS key_revoked_at, o.disabled_at
     FROM console_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.token_sha256 = ?`,
    )
    .get(sha256(token));
  if (!row) return refuse('SESSION_INVALID', 'The session token is not known.');
  if (!sessionRowOk(s.kek, row))
    return refuse('SESSION_INVALID', "The session's stored record does not verify; sign in again.");
  if (row.revoked_at !== null)
    return refuse('SESSION_INVALID', `The session was revoked at ${row.revoked_at}; sign in again.`);
  const bar = sessionBar(row);
  if (bar) return refuse('SESSION_INVALID', `The session is no longer accepted: ${bar.message ?? bar.code}`);
  if (wallNowMs - Date.parse(row.last_seen_at) > SESSION_IDLE_MS) {
    return refuse(
      'SESSION_INVALID',
      `The session was idle for more than 30 minutes (last seen ${row.last_seen_at}); sign in again.`,
    );
  }
  if (row.last_seen_at < iso(wallNowMs)) rewrite(s, row, { last_seen_at: iso(wallNowMs) });
  const steppedUp = row.stepped_up_until !== null && Date.parse(row.stepped_up_until) > wallNowMs;
  return ok({ session_id: row.id, identity_id: row.operator_id, stepped_up: steppedUp });
}

/** After a fresh passkey assertion: the session counts as stepped up for the next 5 minutes. */
export function markSteppedUp(s: SessionStore, sessionId: string, wallNowMs: number): void {
  const row = s.db
    .prepare<[string], StoredSession>(`SELECT ${STORED} FROM console_sessions WHERE id = ? AND revoked_at IS NULL`)
    .get(sessionId);
  if (row && sessionRowOk(s.kek, row)) rewrite(s, row, { stepped_up_until: iso(wallNowMs + STEP_UP_SESSION_MS) });
}

type ListedRow = Omit<SessionView, 'idle_expires_at'> & { token_sha256: string; mac: string | null };

/** Every session the daemon wrote, newest first, with its identity; a row whose MAC fails is no session. */
export function listSessions(s: SessionStore): SessionView[] {
  return s.db
    .prepare<[], ListedRow>(
      `SELECT s.id AS session_id, s.operator_id AS identity_id, o.name AS identity_name,
       o.display_name AS identity_display_name, o.disabled_at AS identity_disabled_at,
       o.role, s.created_at, s.last_seen_at,
       s.stepped_up_until, s.revoked_at, s.revoked_by, s.token_sha256, s.mac
     FROM console_sessions s JOIN operators o ON o.id = s.operator_id ORDER BY s.created_at DESC, s.id DESC`,
    )
    .all()
    .filter((r) => sessionRowOk(s.kek, { ...r, id: r.session_id, operator_id: r.identity_id }))
    .map(({ token_sha256: _t, mac: _m, ...r }) => ({
      ...r,
      idle_expires_at: iso(Date.parse(r.last_seen_at) + SESSION_IDLE_MS),
    }));
}

/**
 * Revokes sessions by id and/or every open session of an identity; answers the ids it revoked now
 * (already revoked ones are left as they were). An unknown session or identity is NOT_FOUND, and then
 * nothing is revoked.
 */
export function revokeSessions(
  s: SessionStore,
  target: { session_ids?: string[]; identity_id?: string },
  actor: string,
  wallNowMs: number = Date.now(),
): Outcome<{ revoked: string[] }> {
  const { db } = s;
  const ids = target.session_ids ?? [];
  if (ids.length === 0 && target.identity_id === undefined)
    return refuse('VALIDATION_FAILED', 'Name session_ids or identity_id.');
  return db.transaction((): Outcome<{ revoked: string[] }> => {
    const known = db.prepare<[string], { id: string; revoked_at: string | null }>(
      'SELECT id, revoked_at FROM console_sessions WHERE id = ?',
    );
    const open = new Set<string>();
    for (const id of ids) {
      const r = known.get(id);
      if (!r) return refuse('NOT_FOUND', `No session ${id}.`);
      if (r.revoked_at === null) open.add(id);
    }
    if (target.identity_id !== undefined) {
      if (!db.prepare('SELECT 1 FROM operators WHERE id = ?').get(target.identity_id))
        return refuse('NOT_FOUND', `No identity ${target.identity_id}.`);
      const theirs = db
        .prepare<[string], string>('SELECT id FROM console_sessions WHERE operator_id = ? AND revoked_at IS NULL')
        .pluck()
        .all(target.identity_id);
      for (const id of theirs) open.add(id);
    }
    const revoked = [...open].sort().filter((id) => revokeOne(s, id, actor, iso(wallNowMs)));
    return ok({ revoked });
  })();
}

/**
 * Revokes one open session: a genuine row gets the revocation and a new MAC; a row whose MAC fails
 * (it opened nothing anyway) is marked revoked and keeps its failing MAC, never a valid one.
 */
function revokeOne(s: SessionStore, id: string, actor: string, at: string): boolean {
  const row = s.db
    .prepare<[string], StoredSession>(`SELECT ${STORED} FROM console_sessions WHERE id = ? AND revoked_at IS NULL`)
    .get(id);
  if (!row) return false;
  if (sessionRowOk(s.kek, row)) rewrite(s, row, { revoked_at: at, revoked_by: actor });
  else s.db.prepare('UPDATE console_sessions SET revoked_at = ?, revoked_by = ? WHERE id = ?').run(at, actor, id);
  return true;
}

/**
 * A KEK rotation (backoffice/bases/rotate-kek.ts): every session whose MAC verifies under the old key
 * gets its MAC under the new one, in the rotation's transaction; a failing row keeps failing.
 */
export function remacSessions(db: Db, from: Buffer, to: Buffer): number {
  const rows = db.prepare<[], StoredSession>(`SELECT ${STORED} FROM console_sessions`).all();
  const upd = db.prepare('UPDATE console_sessions SET mac = ? WHERE id = ?');
  let n = 0;
  for (const r of rows) {
    if (!sessionRowOk(from, r)) continue;
    upd.run(macOf(to, r), r.id);
    n++;
  }
  return n;
}
