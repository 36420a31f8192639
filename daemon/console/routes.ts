// The console's own calls under /console/api (docs/console.md): enrol a passkey with a one-time code,
// sign in with a passkey (which opens a session: an HttpOnly, SameSite=Strict cookie), step up with a
// fresh passkey assertion, read who is signed in (with the CSRF token), sign out. They are not part
// of the brokerage API: everything the console does after signing in goes to the daemon's own routes
// with the session cookie (daemon/http/auth.ts). Every sign-in, enrolment, step-up and sign-out is
// audited. Answers and refusals use the spec's error body.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Db } from '../store/db.js';
import type { Audit } from '../store/audit.js';
import type { PasskeyRow, PasskeyStore } from '../backoffice/passkeys.js';
import { AppError, errorBody } from '../http/errors.js';
import { assertionOptions, registrationOptions, verifyAssertion, verifyRegistration } from './ceremony.js';
import { ceremonyFinish, createChallenges, type Challenges } from './challenges.js';
import { sessionCookie, type SessionAuth, type SessionPort } from './session-auth.js';

export interface ConsoleApiDeps {
  db: Db;
  kek: Buffer;
  wallNow(): number;
  nowIso(): string;
  audit: Pick<Audit, 'append'>;
  passkeys: PasskeyStore;
  sessions: SessionPort;
  sessionOf: SessionAuth;
}

const SESSION_MAX_AGE_S = 12 * 3600;
const JSON_TYPE = 'application/json; charset=utf-8';

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Answers a handler's value as JSON, and an AppError as the spec's error body. */
function api(fn: Handler): Handler {
  return async (req, reply) => {
    try {
      const out = await fn(req, reply);
      return reply.type(JSON_TYPE).header('cache-control', 'no-store').send(JSON.stringify(out));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.headers) reply.headers(err.headers);
      return reply
        .code(err.status)
        .type(JSON_TYPE)
        .send(JSON.stringify(errorBody(err.code, err.message, String(req.id))));
    }
  };
}

/** The page's origin as WebAuthn sees it: localhost on this daemon's port. */
function rpOrigin(req: FastifyRequest): string {
  return `http://localhost:${req.socket?.localPort ?? 0}`;
}

function body<T>(req: FastifyRequest): Partial<T> {
  return (req.body && typeof req.body === 'object' ? req.body : {}) as Partial<T>;
}

/** A response that did not verify: its challenge, if it named an open one, is used up all the same. */
function rejected(finish: ReturnType<typeof ceremonyFinish>): AppError {
  finish.take();
  return new AppError('PASSKEY_REJECTED');
}

function requireSession(deps: ConsoleApiDeps, req: FastifyRequest) {
  const s = deps.sessionOf(req);
  if (!s) throw new AppError('UNAUTHENTICATED', 'Sign in to the console first.');
  return s;
}

/** Who is signed in: identity, grants with their scopes, step-up state and the CSRF token. */
function me(deps: ConsoleApiDeps, req: FastifyRequest) {
  const s = requireSession(deps, req);
  const grants = [...(s.operator.scopes ?? new Map<string, readonly string[]>())].map(([grant, scopes]) => ({
    grant,
    scopes: [...scopes],
  }));
  const { id, name, role, realm, brokerId } = s.operator;
  return {
    identity: { id, name, role, realm, broker_id: brokerId },
    session_id: s.sessionId,
    stepped_up: s.steppedUp,
    csrf_token: s.csrfToken,
    grants,
  };
}

function enrolRoutes(app: FastifyInstance, deps: ConsoleApiDeps, challenges: Challenges): void {
  app.post(
    '/console/api/enroll/options',
    api(async (req) => {
      const who = deps.passkeys.enrolmentIdentity(String(body<{ code: string }>(req).code ?? ''), deps.wallNow());
      if (!who) throw new AppError('ENROLMENT_CODE_INVALID');
      const options = await registrationOptions(who, deps.passkeys.passkeysOf(who.id));
      challenges.issue(options.challenge, { kind: 'enrol', operatorId: who.id });
      return { identity: { id: who.id, name: who.name, role: who.role }, options };
    }),
  );
  app.post(
    '/console/api/enroll/verify',
    api(async (req) => {
      const b = body<{ code: string; response: RegistrationResponseJSON }>(req);
      const code = String(b.code ?? '');
      const who = deps.passkeys.enrolmentIdentity(code, deps.wallNow());
      if (!who || !b.response) throw new AppError('ENROLMENT_CODE_INVALID');
      const finish = ceremonyFinish(challenges, { kind: 'enrol', operatorId: who.id });
      const key = await verifyRegistration(b.response, rpOrigin(req), finish.matches);
      if (!key) throw rejected(finish);
      const at = deps.nowIso();
      // the challenge and the code are used up in the transaction that adds the passkey
      const refused = deps.db.transaction(() => {
        if (!finish.take()) return new AppError('PASSKEY_REJECTED');
        if (!deps.passkeys.useEnrolment(code, deps.wallNow(), at)) return new AppError('ENROLMENT_CODE_INVALID');
        deps.passkeys.addPasskey({ ...key, operatorId: who.id, at });
        deps.audit.append({
          actor: `operator:${who.name}`,
          action: 'console.passkey_enrolled',
          subject: who.id,
          tenantId: null,
          detail: { credential_id: key.credentialId },
        });
        return null;
      })();
      if (refused) throw refused;
      return {
        enrolled: true,
        identity: { id: who.id, name: who.name, role: who.role },
        credential_id: key.credentialId,
      };
    }),
  );
}

/**
 * Opens the session of a verified sign-in, or the refusal. The challenge is used up in the transaction
 * that opens the session (of two finishes, one opens it). An identity that may not hold a session (its
 * key revoked, or disabled) gets none: the refusal is audited as console.sign_in_refused and answered
 * with its code, and nothing else is written.
 */
function openSignedIn(
  deps: ConsoleApiDeps,
  finish: ReturnType<typeof ceremonyFinish>,
  passkey: PasskeyRow,
  counter: number,
) {
  const wall = deps.wallNow();
  return deps.db.transaction(() => {
    if (!finish.take()) return new AppError('PASSKEY_REJECTED');
    const bar = deps.sessions.identityBar(deps.db, passkey.operator_id);
    if (bar) {
      deps.audit.append({
        actor: `operator:${passkey.operator_id}`,
        action: 'console.sign_in_refused',
        subject: passkey.operator_id,
        tenantId: null,
        detail: { credential_id: passkey.credential_id, code: bar.code },
      });
      return new AppError(bar.code, bar.message);
    }
    deps.passkeys.recordUse(passkey.credential_id, counter, deps.nowIso());
    const s = deps.sessions.openSession(deps, passkey.operator_id, wall);
    // a sign-in is a fresh passkey assertion: the session starts stepped up
    deps.sessions.markSteppedUp(deps, s.session_id, wall);
    deps.audit.append({
      actor: `operator:${passkey.operator_id}`,
      action: 'console.signed_in',
      subject: s.session_id,
      tenantId: null,
      detail: { credential_id: passkey.credential_id },
    });
    return s;
  })();
}

function signInRoutes(app: FastifyInstance, deps: ConsoleApiDeps, challenges: Challenges): void {
  app.post(
    '/console/api/login/options',
    api(async () => {
      const options = await assertionOptions(null);
      challenges.issue(options.challenge, { kind: 'sign-in' });
      return { options };
    }),
  );
  app.post(
    '/console/api/login/verify',
    api(async (req, reply) => {
      const response = body<{ response: AuthenticationResponseJSON }>(req).response;
      const passkey = response?.id ? deps.passkeys.passkey(String(response.id)) : null;
      if (!response || !passkey)
        throw new AppError('PASSKEY_REJECTED', 'This passkey is not registered with the sandbox; enrol it first.');
      const finish = ceremonyFinish(challenges, { kind: 'sign-in' });
      const counter = await verifyAssertion(response, passkey, rpOrigin(req), finish.matches);
      if (counter === null) throw rejected(finish);
      const opened = openSignedIn(deps, finish, passkey, counter);
      if (opened instanceof AppError) throw opened;
      reply.header('set-cookie', sessionCookie(opened.token, SESSION_MAX_AGE_S));
      return { signed_in: true, session_id: opened.session_id };
    }),
  );
}

function sessionRoutes(app: FastifyInstance, deps: ConsoleApiDeps, challenges: Challenges): void {
  app.get(
    '/console/api/me',
    api(async (req) => me(deps, req)),
  );
  app.post(
    '/console/api/step-up/options',
    api(async (req) => {
      const s = requireSession(deps, req);
      const options = await assertionOptions(deps.passkeys.passkeysOf(s.operator.id));
      challenges.issue(options.challenge, { kind: 'step-up', sessionId: s.sessionId });
      return { options };
    }),
  );
  app.post(
    '/console/api/step-up/verify',
    api(async (req) => {
      const s = requireSession(deps, req);
      const response = body<{ response: AuthenticationResponseJSON }>(req).response;
      const passkey = response?.id ? deps.passkeys.passkey(String(response.id)) : null;
      if (!response || !passkey || passkey.operator_id !== s.operator.id)
        throw new AppError('PASSKEY_REJECTED', "Step up with one of this identity's passkeys.");
      const finish = ceremonyFinish(challenges, { kind: 'step-up', sessionId: s.sessionId });
      const counter = await verifyAssertion(response, passkey, rpOrigin(req), finish.matches);
      if (counter === null) throw rejected(finish);
      const taken = deps.db.transaction(() => {
        if (!finish.take()) return false;
        deps.passkeys.recordUse(passkey.credential_id, counter, deps.nowIso());
        deps.sessions.markSteppedUp(deps, s.sessionId, deps.wallNow());
        deps.audit.append({
          actor: `operator:${s.operator.name}`,
          action: 'console.stepped_up',
          subject: s.sessionId,
          tenantId: null,
        });
        return true;
      })();
      if (!taken) throw new AppError('PASSKEY_REJECTED');
      return { stepped_up: true };
    }),
  );
  app.post(
    '/console/api/logout',
    api(async (req, reply) => {
      const s = requireSession(deps, req); // a POST: its Origin and CSRF token are checked with the session
      deps.db.transaction(() => {
        deps.sessions.revokeSessions(
          deps,
          { session_ids: [s.sessionId] },
          `operator:${s.operator.name}`,
          deps.wallNow(),
        );
        deps.audit.append({
          actor: `operator:${s.operator.name}`,
          action: 'console.signed_out',
          subject: s.sessionId,
          tenantId: null,
        });
      })();
      reply.header('set-cookie', sessionCookie('', 0));
      return { signed_out: true };
    }),
  );
}

export function registerConsoleApi(app: FastifyInstance, deps: ConsoleApiDeps): void {
  const challenges = createChallenges(deps.db, () => deps.wallNow());
  enrolRoutes(app, deps, challenges);
  signInRoutes(app, deps, challenges);
  sessionRoutes(app, deps, challenges);
}
