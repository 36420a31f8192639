// Who is calling: a tenant by bearer key (B), with an Idempotency-Key (I) and a v1 HMAC signature (S);
// an operator by X-Admin-Key or X-Console-Key and a grant held in scope (daemon/contract/grants.ts:
// a global grant must be held globally; a broker or tenant grant globally or for one broker or tenant,
// and the identity then sees that broker's or tenant's data only), plus a step-up on the routes that
// need one (a code, or the key's open step-up window that a code opened); or, for a journal replay's
// internal request, the recorded principal of a one-time ticket. A browser console session (cookie)
// is another way in for an operator: the same grant check, and a passkey step-up instead of the code.
// Every failure is an AppError of this layer.
import type { FastifyRequest } from 'fastify';
import { SIGNATURE_WINDOW_S, splitUrl, stringToSign, verifySignature } from '../contract/signing.js';
import type { Operator, OperatorRealm, RouteDef, StepUpUse } from '../contract/route.js';
import { REPLAY_HEADER, type RequestJournal, type ReplayTicket } from '../contract/request-journal.js';
import { AppError } from './errors.js';
import { bodySha256, header } from './request.js';
import { noteSignatureRefused } from './inspect.js';
import { GRANTS, STEP_UP_HEADER, STEP_UP_ROUTES } from '../contract/grants.js';
import { markFault } from './fault-mark.js';

/** The credentials the pipeline checks against (daemon/tenancy/keys.ts keeps them). */
export interface KeyLookup {
  tenantForKey(apiKey: string): string | null;
  signingSecrets(tenantId: string): string[];
  operatorForKey(key: string): (Operator & { realm: OperatorRealm; revoked?: boolean; disabled?: boolean }) | null;
  /** Checks (and uses up) a step-up code of the identity at a wall-clock instant. */
  checkStepUp(
    operatorId: string,
    code: string | undefined,
    wallMs: number,
  ): 'ok' | 'missing' | 'wrong' | 'reused' | 'no_secret';
  /** Machine keys' step-up windows (daemon/tenancy/step-up-window.ts): open one, or read when it ends (null: none
   * open). */
  stepUpWindow: {
    open(operatorId: string, wallMs: number): string | null;
    freshUntil(operatorId: string, wallMs: number): string | null;
  };
}

/** A browser console session as an operator (daemon/console/session-auth.ts): null when the request sends none. */
export type ConsoleSessionLookup = (
  req: FastifyRequest,
) => { operator: Operator & { realm: OperatorRealm }; steppedUp: boolean } | null;

export interface AuthDeps {
  keys: KeyLookup;
  journal: Pick<RequestJournal, 'takeTicket'>;
  wallNow(): number;
  /** Console sessions as another way in for operator routes; absent: keys only. */
  consoleSession?: ConsoleSessionLookup;
}

/** An authenticated operator, and whether a console session's passkey step-up is fresh (keys: false). */
interface OperatorCaller {
  op: Operator;
  viaSession: boolean;
  steppedUp: boolean;
}

export interface Principal {
  tenantId: string | null;
  operator: Operator | null;
  /** The request's Idempotency-Key (I and S routes), else null. */
  idemKey: string | null;
  /** How a step-up route's caller stepped up (null on every other route, and in a replay). */
  stepUp?: StepUpUse | null;
}

function authenticateTenant(deps: AuthDeps, req: FastifyRequest): string {
  const auth = header(req, 'authorization');
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  const tenant = m ? deps.keys.tenantForKey(m[1]) : null;
  if (!tenant)
    throw new AppError(
      'UNAUTHENTICATED',
      auth ? 'The bearer key is not known.' : 'Send Authorization: Bearer <api_key>.',
    );
  return tenant;
}

function idempotencyKey(req: FastifyRequest): string {
  const key = header(req, 'idempotency-key');
  if (key === undefined || key === '') throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  if (key.length > 255 || /[\x00-\x1f\x7f]/.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID');
  return key;
}

/**
 * The key of a request whose route does not require one: a tenant write the spec does not list
 * accepts and honours a key when sent (the same replay and IDEMPOTENCY_KEY_REUSED rules), and
 * never requires it. A read ignores the header.
 */
function optionalIdempotencyKey(def: RouteDef, req: FastifyRequest): string | null {
  if (def.method === 'GET' || header(req, 'idempotency-key') === undefined) return null;
  return idempotencyKey(req);
}

function tenantIdempotencyKey(def: RouteDef, req: FastifyRequest): string | null {
  return def.auth === 'B' ? optionalIdempotencyKey(def, req) : idempotencyKey(req);
}

function verifyRequestSignature(deps: AuthDeps, req: FastifyRequest, tenantId: string, key: string): void {
  const ts = header(req, 'x-svc-timestamp');
  const sig = header(req, 'x-svc-signature');
  if (!ts || !sig)
    throw new AppError('SIGNATURE_INVALID', 'Send X-Svc-Timestamp and X-Svc-Signature on money endpoints.');
  if (!/^\d{1,12}$/.test(ts)) throw new AppError('SIGNATURE_INVALID', 'X-Svc-Timestamp must be integer Unix seconds.');
  const serverS = Math.floor(deps.wallNow() / 1000);
  if (Math.abs(serverS - Number(ts)) > SIGNATURE_WINDOW_S) {
    throw new AppError(
      'SIGNATURE_EXPIRED',
      `X-Svc-Timestamp ${ts} is more than ${SIGNATURE_WINDOW_S} s from server time ${serverS}.`,
    );
  }
  const { path, rawQuery } = splitUrl(req.url);
  const body = req.rawBody ?? '';
  const fields = {
    timestamp: ts,
    method: req.method,
    path,
    rawQuery,
    idempotencyKey: key,
    body,
    bodySha256: bodySha256(req),
  };
  if (!verifySignature(sig, deps.keys.signingSecrets(tenantId), fields)) {
    noteSignatureRefused(req, stringToSign(fields), `tenant:${tenantId}`); // for the request inspector only
    throw new AppError('SIGNATURE_INVALID', 'The signature does not match the request.');
  }
}

function authenticateOperator(
  deps: AuthDeps,
  req: FastifyRequest,
  realm: OperatorRealm,
  grant: string,
): OperatorCaller {
  const name = realm === 'admin' ? 'x-admin-key' : 'x-console-key';
  const key = header(req, name);
  // No key: a console session cookie is the other way in, to the same grant check.
  const session = key === undefined && deps.consoleSession ? deps.consoleSession(req) : null;
  if (session) {
    if (session.operator.realm !== realm)
      throw new AppError(
        'UNAUTHENTICATED',
        `This route is for ${realm} identities; the session's identity ${session.operator.name} is a ` +
          `${session.operator.realm} identity.`,
      );
    return { op: inScope(session.operator, grant), viaSession: true, steppedUp: session.steppedUp };
  }
  const op = key ? deps.keys.operatorForKey(key) : null;
  if (!op || op.realm !== realm)
    throw new AppError('UNAUTHENTICATED', `Send a valid ${name === 'x-admin-key' ? 'X-Admin-Key' : 'X-Console-Key'}.`);
  if (op.revoked) throw new AppError('KEY_REVOKED', `The key of ${op.name} was revoked.`);
  if (op.disabled) throw new AppError('IDENTITY_DISABLED', `The identity ${op.name} is disabled.`);
  return { op: inScope(op, grant), viaSession: false, steppedUp: false };
}

/** The identity as it acts under grant: refused (403) when it does not hold the grant in a scope the route can use. */
function inScope(op: Operator, grant: string): Operator {
  const scopes = op.scopes?.get(grant) ?? (op.grants.has(grant) ? ['global'] : []);
  if (scopes.length === 0) throw new AppError('FORBIDDEN', `The identity ${op.name} lacks the grant ${grant}.`);
  if (scopes.includes('global')) return op;
  const kind = GRANTS.get(grant) ?? 'global';
  const broker = scopes.find((s) => s.startsWith('broker:'));
  if (kind === 'broker' && broker) return { ...op, brokerId: broker.slice('broker:'.length) };
  if (kind === 'tenant' && scopes.some((s) => s.startsWith('tenant:'))) return op;
  throw new AppError(
    'FORBIDDEN',
    `The identity ${op.name} holds ${grant} only in scope ${scopes.join(', ')}; this route needs it globally.`,
  );
}

const WINDOW_S =
  'a code accepted opens a 5-minute step-up window for this key, in which its money and approval actions need no code';
const STEP_UP_WHY = {
  missing:
    'Send X-Step-Up-Code: the current TOTP of your step-up secret (svc computes it from the credentials file); ' +
    `${WINDOW_S}.`,
  wrong:
    'The X-Step-Up-Code is not the code of your step-up secret for this 30-second step (or the one before or after).',
  reused:
    'The X-Step-Up-Code was already used; each code is accepted once. Send the code of the next step, or no ' +
    'code while your step-up window is open.',
  no_secret: 'This identity has no step-up secret; it cannot take money or approval actions.',
} as const;

/**
 * Money and approval routes: a console session's fresh passkey step-up; or, for a key, an open step-up
 * window of that key when the request sends no code; or a fresh, unused code. A code sent is always
 * checked (a wrong or used one is refused even while the window is open) and used up here; the window
 * it opens is written with the request's own unit (http/mutation.ts), unless the request is refused as
 * unauthorised there.
 */
function requireStepUp(deps: AuthDeps, def: RouteDef, req: FastifyRequest, who: OperatorCaller): StepUpUse | null {
  if (!STEP_UP_ROUTES.has(`${def.method} ${def.url}`)) return null;
  if (who.viaSession) {
    if (who.steppedUp) return { via: 'session' };
    throw new AppError(
      'STEP_UP_REQUIRED',
      'Confirm with your passkey: a console session is stepped up for 5 minutes after a passkey assertion.',
    );
  }
  const code = header(req, STEP_UP_HEADER);
  const wall = deps.wallNow();
  if (code === undefined || code === '') {
    const until = deps.keys.stepUpWindow.freshUntil(who.op.id, wall);
    if (until !== null) return { via: 'window', fresh_until: until };
  }
  const r = deps.keys.checkStepUp(who.op.id, code, wall);
  if (r !== 'ok') throw new AppError('STEP_UP_REQUIRED', STEP_UP_WHY[r]);
  return { via: 'code' };
}

/** A journal replay's internal request: the ticket the offline rebuild issued for it in-process, or null. */
export function replayTicket(deps: AuthDeps, req: FastifyRequest): ReplayTicket | null {
  const token = header(req, REPLAY_HEADER);
  if (token === undefined) return null;
  const ticket = deps.journal.takeTicket(token);
  if (!ticket)
    throw new AppError(
      'UNAUTHENTICATED',
      'The replay ticket is not known (tickets exist only inside the offline rebuild of svc sandbox replay, ' +
        'once each).',
    );
  // the fault that fired on the original request goes on the rebuilt journal's entry too
  if (ticket.fault) markFault(req, ticket.fault);
  return ticket;
}

/** Runs a replayed request as its recorded principal: no keys or signature, the same grants. */
function replayPrincipal(def: RouteDef, ticket: ReplayTicket): { tenantId: string | null; operator: Operator | null } {
  const p = ticket.principal;
  const auth = def.auth;
  if (auth === 'B' || auth === 'I' || auth === 'S') {
    if (p.kind !== 'tenant')
      throw new AppError(
        'UNAUTHENTICATED',
        `The recorded principal cannot call ${def.method} ${def.url}: it needs a tenant.`,
      );
    return { tenantId: p.tenantId, operator: null };
  }
  if (auth === 'none') return { tenantId: null, operator: null };
  if (p.kind !== 'operator' || p.operator.realm !== auth.realm)
    throw new AppError(
      'UNAUTHENTICATED',
      `The recorded principal cannot call ${def.method} ${def.url}: it needs an ${auth.realm} operator.`,
    );
  return { tenantId: null, operator: inScope(p.operator, auth.grant) };
}

/** The caller of def, by the route's auth mode (or by the replay ticket the request carries). */
export function authenticate(
  deps: AuthDeps,
  def: RouteDef,
  req: FastifyRequest,
  ticket: ReplayTicket | null,
): Principal {
  const auth = def.auth;
  if (ticket) {
    const { tenantId, operator } = replayPrincipal(def, ticket);
    return {
      tenantId,
      operator,
      idemKey: auth === 'B' || auth === 'I' || auth === 'S' ? tenantIdempotencyKey(def, req) : null,
    };
  }
  if (auth === 'B' || auth === 'I' || auth === 'S') {
    const tenantId = authenticateTenant(deps, req);
    const idemKey = tenantIdempotencyKey(def, req);
    if (auth === 'S') verifyRequestSignature(deps, req, tenantId, idemKey!);
    return { tenantId, operator: null, idemKey };
  }
  if (auth === 'none') return { tenantId: null, operator: null, idemKey: null };
  const who = authenticateOperator(deps, req, auth.realm, auth.grant);
  const stepUp = requireStepUp(deps, def, req, who);
  return { tenantId: null, operator: who.op, idemKey: null, stepUp };
}
