// Maker-checker (docs/backoffice.md): a holder of <base>:propose stores the full payload, validated by
// the base's schema; a different identity holding <base>:approve globally, stepped up (checked by the
// HTTP layer on the decision routes), approves it and the action runs in the same transaction as the
// decision, or rejects it with a reason. Proposals expire 24 hours after they were made, on the
// sandbox clock. The database refuses what this code refuses too (migration 015's triggers).
import type { Deps } from '../deps.js';
import type { Operator } from '../contract/route.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { sha256 } from '../store/crypto.js';
import { BASE_EXEC, BASE_PARAMS, isBase } from './action-bases.js';
import { rotationView } from './bases/rotation-progress.js';
import type { AdminActionsRow } from '../store/rows.js';

export const PROPOSAL_TTL_MS = 24 * 3600_000;
export type ActionState = 'proposed' | 'approved' | 'rejected' | 'expired';

/** An action with the names of its maker and checker (SELECT below). */
type ActionRow = AdminActionsRow & { maker_name: string; checker_name: string | null };

export interface ActionView {
  action_id: string;
  action: string;
  params: Record<string, unknown>;
  reason: string;
  payload_sha256: string;
  state: ActionState;
  maker: string;
  checker: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decision_reason: string | null;
  result: Record<string, unknown> | null;
}

const SELECT = `SELECT a.*, m.name AS maker_name, c.name AS checker_name FROM admin_actions a
  JOIN operators m ON m.id = a.maker LEFT JOIN operators c ON c.id = a.checker`;

type D = Pick<Deps, 'db' | 'clock' | 'market' | 'ids' | 'audit'>;

function view(deps: D, r: ActionRow): ActionView {
  const expired = r.state === 'proposed' && deps.clock.now() >= r.expires_ms;
  return {
    action_id: r.id,
    action: r.action,
    params: JSON.parse(r.params),
    reason: r.reason,
    payload_sha256: r.payload_sha256,
    state: expired ? 'expired' : r.state,
    maker: r.maker_name,
    checker: r.checker_name,
    created_at: r.created_at,
    expires_at: deps.market.calendar.toIso(r.expires_ms),
    decided_at: r.decided_at,
    decision_reason: r.decision_reason,
    result: withRotation(deps, r),
  };
}

/** A key rotation's result carries its progress, live: it re-seals in the background (bases/rotation-runner.ts). */
function withRotation(deps: D, r: ActionRow): Record<string, unknown> | null {
  const result: Record<string, unknown> | null = r.result ? JSON.parse(r.result) : null;
  if (!result || (r.action !== 'keys:rotate-kek' && r.action !== 'keys:rotate-dek')) return result;
  const rotation = rotationView(deps.db, r.id);
  return rotation ? { ...result, rotation } : result;
}

const holds = (op: Operator, grant: string) => (op.scopes?.get(grant) ?? []).includes('global');
const payloadDigest = (action: string, params: unknown, reason: string) =>
  sha256(JSON.stringify({ action, params, reason }));

export function proposeAction(
  deps: D,
  op: Operator,
  body: { action: string; params: unknown; reason: string },
): Outcome<ActionView> {
  if (!isBase(body.action)) return refuse('UNKNOWN_ACTION', `"${body.action}" is not a strict-split base.`);
  const grant = `${body.action}:propose`;
  if (!holds(op, grant))
    return refuse('FORBIDDEN', `The identity ${op.name} lacks the grant ${grant} (held globally).`);
  const parsed = BASE_PARAMS[body.action].safeParse(body.params ?? {});
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return refuse('INVALID_ACTION_PARAMS', `params.${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  const id = deps.ids.next('act');
  const params = JSON.stringify(parsed.data);
  const digest = payloadDigest(body.action, parsed.data, body.reason);
  deps.db
    .prepare(`INSERT INTO admin_actions (id, action, params, reason, payload_sha256, maker, created_at, expires_ms,
    state)
    VALUES (?,?,?,?,?,?,?,?, 'proposed')`)
    .run(
      id,
      body.action,
      params,
      body.reason,
      digest,
      op.id,
      deps.market.calendar.toIso(deps.clock.now()),
      deps.clock.now() + PROPOSAL_TTL_MS,
    );
  deps.audit.append({
    actor: `operator:${op.name}`,
    action: 'admin_action.proposed',
    subject: id,
    detail: { base: body.action, grant, payload_sha256: digest },
  });
  return ok(getAction(deps, id)!);
}

export function getAction(deps: D, id: string): ActionView | null {
  const r = deps.db.prepare<[string], ActionRow>(`${SELECT} WHERE a.id = ?`).get(id);
  return r ? view(deps, r) : null;
}

export function listActions(deps: D, f: { state?: ActionState; limit: number }): ActionView[] {
  const now = deps.clock.now();
  const stored = f.state === 'expired' || f.state === 'proposed' ? 'proposed' : (f.state ?? null);
  const rows = deps.db
    .prepare<[string | null, string | null, number, number, number, number], ActionRow>(
      `${SELECT} WHERE (? IS NULL OR a.state = ?) AND (? = 0 OR a.expires_ms <= ?) AND (? = 0 OR a.expires_ms ` +
        `> ?) ORDER BY a.seq DESC LIMIT ${Math.floor(f.limit)}`,
    )
    .all(stored, stored, f.state === 'expired' ? 1 : 0, now, f.state === 'proposed' ? 1 : 0, now);
  return rows.map((r) => view(deps, r));
}

/** Approves (running the action) or rejects one proposal, as one unit with the decision. */
export function decideAction(
  deps: D & Deps,
  op: Operator,
  id: string,
  d: { approve: boolean; reason?: string },
): Outcome<ActionView> {
  const r = deps.db.prepare<[string], ActionRow>(`${SELECT} WHERE a.id = ?`).get(id);
  if (!r) return refuse('NOT_FOUND', `No action ${id}.`);
  const grant = `${r.action}:approve`;
  if (!holds(op, grant))
    return refuse('FORBIDDEN', `The identity ${op.name} lacks the grant ${grant} (held globally).`);
  if (r.maker === op.id)
    return refuse('MAKER_CANNOT_APPROVE', `${op.name} proposed ${id}; another identity must decide it.`);
  if (r.state !== 'proposed') return refuse('ACTION_ALREADY_DECIDED', `${id} was ${r.state} by ${r.checker_name}.`);
  if (deps.clock.now() >= r.expires_ms)
    return refuse('ACTION_EXPIRED', `${id} expired at ${deps.market.calendar.toIso(r.expires_ms)}.`);
  let result: Record<string, unknown> | null = null;
  let once: unknown;
  if (d.approve && isBase(r.action)) {
    const done = BASE_EXEC[r.action]({ deps, actionId: id, reason: r.reason }, JSON.parse(r.params));
    if (!done.ok) return done;
    ({ answered_once: once, ...result } = done.value);
  }
  const changed = deps.db
    .prepare(
      `UPDATE admin_actions SET state = ?, checker = ?, decided_at = ?, decision_reason = ?, result = ? WHERE ` +
        `id = ? AND state = 'proposed'`,
    )
    .run(
      d.approve ? 'approved' : 'rejected',
      op.id,
      deps.market.calendar.toIso(deps.clock.now()),
      d.reason ?? null,
      result ? JSON.stringify(result) : null,
      id,
    ).changes;
  if (changed !== 1) return refuse('ACTION_ALREADY_DECIDED');
  deps.audit.append({
    actor: `operator:${op.name}`,
    action: d.approve ? 'admin_action.approved' : 'admin_action.rejected',
    subject: id,
    tenantId:
      typeof (JSON.parse(r.params) as { tenant_id?: unknown }).tenant_id === 'string'
        ? (JSON.parse(r.params) as { tenant_id: string }).tenant_id
        : null,
    detail: {
      base: r.action,
      grant,
      maker: r.maker_name,
      payload_sha256: r.payload_sha256,
      ...(d.reason ? { reason: d.reason } : {}),
    },
  });
  const decided = getAction(deps, id)!;
  // A secret an executor answers once (an enrolment code) goes to the approver, not into admin_actions.
  return ok(once === undefined ? decided : { ...decided, result: { ...decided.result, answered_once: once } });
}
