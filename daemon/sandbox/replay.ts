// Re-runs one journal entry as its recorded principal, in the offline rebuild of a sandbox from its
// journal (replay-offline.ts; `node dist/daemon/main.js --replay`, which `svc sandbox replay` runs in a
// process of its own on a new home, listening on nothing). No route of a running daemon reaches this:
// a journal entry names principals (tenants, security, approver) whose keys and step-up codes the
// replaying process does not hold, so replaying them online would let one key act as the others.
// The clock is first brought to the entry's simulated time (running every event due on the way, as the
// original's advances and catch-ups did), then the entry goes through the app's own HTTP stack
// (fastify inject): the same content parsing, routing and pipeline (idempotency, handler, audit,
// journal) as the original, authenticated by a one-time in-memory ticket instead of the tenant's keys
// and signature, and answering with the original's request id. The audit names the replay as the
// actor, on the recorded principal's behalf. The answer handed back has every secret shown once
// (keys, enrolment codes) read "[secret]", as the journal keeps it. docs/snapshots.md, "Replay".
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { JournalEntry, ReplayResult } from '../contract/journal.js';
import { REPLAY_HEADER, type ReplayPrincipal } from '../contract/request-journal.js';
import { journalResponse } from '../record/journal-secrets.js';
import { MAX_ADVANCE_MS } from './service.js';
import { admitEntry, entryReplayed } from './replay-session.js';
import type { OperatorsRow } from '../store/rows.js';

type OperatorRow = Pick<OperatorsRow, 'id' | 'name' | 'role' | 'realm' | 'broker_id'>;

/** Sends one request through the app's own stack (fastify's inject, narrowed). */
export type Inject = (opts: {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}) => Promise<{
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}>;

export type ReplayDeps = Pick<
  Deps,
  'db' | 'keys' | 'clock' | 'scheduler' | 'nowIso' | 'journal' | 'audit' | 'market' | 'settle'
>;

function principalOf(deps: Pick<Deps, 'db' | 'keys'>, principal: string): Outcome<ReplayPrincipal> {
  if (principal === 'anonymous') return ok({ kind: 'anonymous' });
  if (principal.startsWith('tenant:')) {
    const tenantId = principal.slice('tenant:'.length);
    const row = deps.db.prepare<[string], { id: string }>('SELECT id FROM tenants WHERE id = ?').get(tenantId);
    if (!row)
      return refuse(
        'NOT_FOUND',
        `principal: this sandbox has no tenant ${tenantId} (replay into a fresh sandbox with the journal's ` +
          `seed; tenants are created by the bootstrap and by journaled requests).`,
      );
    return ok({ kind: 'tenant', tenantId });
  }
  const name = principal.slice('operator:'.length);
  const row = deps.db
    .prepare<[string], OperatorRow>('SELECT id, name, role, realm, broker_id FROM operators WHERE name = ?')
    .get(name);
  if (!row) return refuse('NOT_FOUND', `principal: this sandbox has no operator identity named ${name}.`);
  // the grants the identity holds now, with their scopes, exactly as its key would carry them
  // (daemon/tenancy/keys.ts): a maker-checker proposal or approval checks its action's grant's scope
  const scopes = deps.keys.identities.scopesOf(row.id);
  return ok({
    kind: 'operator',
    operator: {
      id: row.id,
      name: row.name,
      role: row.role,
      realm: row.realm,
      brokerId: row.broker_id,
      grants: new Set(scopes.keys()),
      scopes,
    },
  });
}

/** Brings the clock to the entry's time; a journal replays in order, into a sandbox started at its origin. */
function catchUpTo(deps: Pick<Deps, 'clock' | 'scheduler' | 'nowIso'>, e: JournalEntry): Outcome<null> {
  const now = deps.clock.now();
  if (now > e.sim_ms) {
    return refuse(
      'CLOCK_NOT_ADVANCEABLE',
      `The sandbox clock is at ${deps.nowIso()}, after entry ${e.seq}'s recorded time ${e.at}: replay a ` +
        `journal in order, into a fresh sandbox started at its origin.`,
    );
  }
  // The same bound as one clock advance: a journal's entries are at most that far apart unless a
  // reset moved the clock (and the replayed reset moves it the same way).
  if (e.sim_ms - now > MAX_ADVANCE_MS)
    return refuse(
      'CLOCK_ADVANCE_TOO_LARGE',
      `Entry ${e.seq} is more than 3,660 simulated days after the sandbox clock (${deps.nowIso()}).`,
    );
  if (now < e.sim_ms) deps.scheduler.advanceTo(e.sim_ms);
  return ok(null);
}

/** The replayed answer's JSON body with every secret shown once read "[secret]" (null when not JSON). */
function redactedBody(contentType: string | null, text: string): unknown {
  if (!contentType?.includes('json') || text.length === 0) return null;
  return JSON.parse(journalResponse(text));
}

/** Replays entry e (the session's next one) as its recorded principal, audited as `replayedBy`. */
export async function replayEntry(
  deps: ReplayDeps,
  inject: Inject,
  e: JournalEntry,
  replayedBy: string,
): Promise<Outcome<ReplayResult>> {
  const admitted = admitEntry(deps, e.seq);
  if (!admitted.ok) return admitted;
  const principal = principalOf(deps, e.principal);
  if (!principal.ok) return principal;
  const caughtUp = catchUpTo(deps, e);
  if (!caughtUp.ok) return caughtUp;
  await Promise.all(deps.settle.map((hook) => hook())); // statements that became ready on the way are stored

  const token = deps.journal.issueTicket({
    principal: principal.value,
    requestId: e.request_id,
    replayedBy,
    fault: e.fault ?? null,
  });
  const headers: Record<string, string> = { [REPLAY_HEADER]: token };
  if (e.content_type !== null) headers['content-type'] = e.content_type;
  if (e.idempotency_key !== null) headers['idempotency-key'] = e.idempotency_key;
  const payload = e.body ?? (e.body_base64 !== null ? Buffer.from(e.body_base64, 'base64') : undefined);
  let res;
  try {
    res = await inject({ method: e.method, url: e.query ? `${e.path}?${e.query}` : e.path, headers, payload });
  } finally {
    deps.journal.dropTicket(token);
  }
  entryReplayed(deps, e.seq, e.request_id);
  const type = res.headers['content-type'];
  const contentType = typeof type === 'string' ? type : null;
  const body = redactedBody(contentType, res.body);
  return ok({
    seq: e.seq,
    status: res.statusCode,
    content_type: contentType,
    body,
    idempotent_replayed: res.headers['idempotent-replayed'] === 'true',
    fault: e.fault ?? null,
  });
}
