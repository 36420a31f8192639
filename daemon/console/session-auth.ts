// A console session as a way in for operator routes (docs/console.md): the session cookie names a
// session of daemon/backoffice/sessions.ts, which names an operator identity; the identity's grants are
// then checked exactly as for its machine key (daemon/http/auth.ts). A state-changing call must come
// from the console's own origin (Origin header) and carry the session's CSRF token (X-CSRF-Token), a
// value derived from the session token that only the page (GET /console/api/me) learns.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../store/db.js';
import type { Operator, OperatorRealm } from '../contract/route.js';
import type { Outcome, Refusal } from '../contract/outcome.js';
import type { PasskeyStore } from '../backoffice/passkeys.js';
import type { SessionStore } from '../backoffice/sessions.js';
import { AppError } from '../http/errors.js';
import { header } from '../http/request.js';

export const SESSION_COOKIE = 'svc_console';
export const CSRF_HEADER = 'x-csrf-token';

/** The session calls the console needs (daemon/backoffice/sessions.ts implements them). */
export interface SessionPort {
  /** Why the identity may not hold a session now (key revoked, disabled), or null. */
  identityBar(db: Db, identityId: string): Refusal | null;
  openSession(s: SessionStore, identityId: string, wallNowMs: number): { session_id: string; token: string };
  authenticateSession(
    s: SessionStore,
    token: string,
    wallNowMs: number,
  ): Outcome<{ session_id: string; identity_id: string; stepped_up: boolean }>;
  markSteppedUp(s: SessionStore, sessionId: string, wallNowMs: number): void;
  revokeSessions(
    s: SessionStore,
    which: { session_ids?: string[]; identity_id?: string },
    actor: string,
    wallNowMs?: number,
  ): unknown;
}

export interface ConsoleSession {
  sessionId: string;
  operator: Operator & { realm: OperatorRealm };
  steppedUp: boolean;
  csrfToken: string;
}

export interface SessionAuthDeps {
  db: Db;
  /** The KEK the session rows' MACs are keyed by (the live buffer a rotation rewrites). */
  kek: Buffer;
  wallNow(): number;
  passkeys: PasskeyStore;
  scopesOf(operatorId: string): Map<string, string[]>;
  sessions: SessionPort;
}

export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const raw = header(req, 'cookie');
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(token: string, maxAgeS: number): string {
  return `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeS}`;
}

export const csrfTokenOf = (token: string): string => createHash('sha256').update(`csrf:${token}`).digest('base64url');

/** The origins the console is served from: this daemon's port on localhost (WebAuthn's relying party) or 127.0.0.1. */
export function consoleOrigins(req: FastifyRequest): string[] {
  const port = req.socket?.localPort;
  return port ? [`http://localhost:${port}`, `http://127.0.0.1:${port}`] : [];
}

/** Origin and CSRF token of a state-changing call made with a session cookie. */
export function checkCsrf(req: FastifyRequest, token: string): void {
  const origin = header(req, 'origin');
  if (!origin || !consoleOrigins(req).includes(origin))
    throw new AppError('CSRF_REFUSED', 'The call did not come from the console page (Origin).');
  const sent = Buffer.from(header(req, CSRF_HEADER) ?? '');
  const want = Buffer.from(csrfTokenOf(token));
  if (sent.length !== want.length || !timingSafeEqual(sent, want))
    throw new AppError('CSRF_REFUSED', 'Send X-CSRF-Token: the token of GET /console/api/me.');
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The console session of a request, or null when it sends no session cookie; refusals are AppErrors. */
export function createSessionAuth(deps: SessionAuthDeps) {
  return function sessionOf(req: FastifyRequest): ConsoleSession | null {
    const token = readCookie(req, SESSION_COOKIE);
    if (token === undefined || token === '') return null;
    const s = deps.sessions.authenticateSession(deps, token, deps.wallNow());
    if (!s.ok) throw new AppError(s.code, s.message);
    if (!SAFE.has(req.method)) checkCsrf(req, token);
    const who = deps.passkeys.identity(s.value.identity_id);
    if (!who) throw new AppError('UNAUTHENTICATED', 'The session names an identity that no longer exists.');
    const scopes = deps.scopesOf(who.id);
    const operator = {
      id: who.id,
      name: who.name,
      role: who.role,
      realm: who.realm,
      brokerId: who.broker_id,
      scopes,
      grants: new Set(scopes.keys()),
    };
    return { sessionId: s.value.session_id, operator, steppedUp: s.value.stepped_up, csrfToken: csrfTokenOf(token) };
  };
}

export type SessionAuth = ReturnType<typeof createSessionAuth>;
