// The console's open WebAuthn challenges, in the database (migration 027; docs/console.md): a ceremony
// started before a daemon restart finishes after it. Each challenge is issued for one purpose (enrol
// for one identity, sign in, step up one session), expires two minutes later on the wall clock and is
// used once. Only its SHA-256 is stored. Taking one is a single DELETE ... RETURNING that matches
// hash, purpose and freshness, so of two finishes with the same challenge exactly one gets it; a
// challenge shown for another purpose is refused and stays open for its own. Expired rows are purged
// on every issue and take.
import type { Db } from '../store/db.js';
import { sha256 } from '../store/crypto.js';

export const CHALLENGE_TTL_MS = 2 * 60_000;

export type Purpose =
  | { kind: 'enrol'; operatorId: string }
  | { kind: 'sign-in' }
  | { kind: 'step-up'; sessionId: string };

type Key = [string, string, string | null, string | null, number];

export function createChallenges(db: Db, wallNow: () => number) {
  const q = {
    purge: db.prepare<[number]>('DELETE FROM console_challenges WHERE expires_at_ms <= ?'),
    put: db.prepare<[string, string, string | null, string | null, number]>(
      'INSERT INTO console_challenges (challenge_sha256, purpose, operator_id, session_id, expires_at_ms) ' +
        'VALUES (?, ?, ?, ?, ?)',
    ),
    open: db.prepare<Key, { one: number }>(
      'SELECT 1 AS one FROM console_challenges WHERE challenge_sha256 = ? AND purpose = ? AND operator_id IS ? ' +
        'AND session_id IS ? AND expires_at_ms > ?',
    ),
    take: db.prepare<Key, { one: number }>(
      'DELETE FROM console_challenges WHERE challenge_sha256 = ? AND purpose = ? AND operator_id IS ? AND ' +
        'session_id IS ? AND expires_at_ms > ? RETURNING 1 AS one',
    ),
  };
  const key = (challenge: string, p: Purpose, now: number): Key => [
    sha256(challenge),
    p.kind,
    p.kind === 'enrol' ? p.operatorId : null,
    p.kind === 'step-up' ? p.sessionId : null,
    now,
  ];
  const sane = (challenge: string) => typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 200;

  return {
    issue(challenge: string, purpose: Purpose): void {
      const now = wallNow();
      db.transaction(() => {
        q.purge.run(now);
        const [hash, kind, operatorId, sessionId] = key(challenge, purpose, now);
        q.put.run(hash, kind, operatorId, sessionId, now + CHALLENGE_TTL_MS);
      })();
    },
    /** Whether the challenge is open for this purpose now; it stays open. */
    isOpen(challenge: string, purpose: Purpose): boolean {
      return sane(challenge) && q.open.get(...key(challenge, purpose, wallNow())) !== undefined;
    },
    /** Uses the challenge up if it is open for this purpose now: true for exactly one caller. */
    take(challenge: string, purpose: Purpose): boolean {
      if (!sane(challenge)) return false;
      const now = wallNow();
      return db.transaction(() => {
        const taken = q.take.get(...key(challenge, purpose, now)) !== undefined;
        q.purge.run(now);
        return taken;
      })();
    },
  };
}

export type Challenges = ReturnType<typeof createChallenges>;

/**
 * One finish of a ceremony: `matches` is the verifier's challenge check (it notes the challenge the
 * response signed and checks it is open, without using it up); `take` then uses that challenge up,
 * inside the transaction that acts on the verified response, or after a failed verification so that
 * a challenge is tried once.
 */
export function ceremonyFinish(challenges: Challenges, purpose: Purpose) {
  let seen: string | null = null;
  return {
    matches: (challenge: string): boolean => {
      seen = challenge;
      return challenges.isOpen(challenge, purpose);
    },
    take: (): boolean => seen !== null && challenges.take(seen, purpose),
  };
}
