// Access reviews (docs/backoffice.md, "Access reviews"): a snapshot of every identity with its roles,
// grants in scope, key dates and last use; campaigns with one item per identity-grant, each certified
// or revoked (a revocation removes the grant in the same transaction, so its next use is 403) by a
// holder of access-review:decide who is not the item's subject. The campaign closes when its last item
// is decided (migration 022's trigger does it). The database refuses what this code refuses too.
import type { Deps } from '../deps.js';
import type { Operator } from '../contract/route.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { AccessReviewItemsRow, AccessReviewsRow, OperatorsRow } from '../store/rows.js';

type D = Pick<Deps, 'db' | 'ids' | 'audit' | 'nowIso' | 'keys'>;

export interface IdentityGrant {
  grant: string;
  scope: string;
  role: string;
  granted_at: string;
  expires_at: string | null;
  review_required: boolean;
}
export interface IdentityAccess {
  identity_id: string;
  name: string;
  display_name: string | null;
  role: string;
  realm: string;
  broker_id: string | null;
  roles: string[];
  created_at: string;
  key_rotated_at: string | null;
  revoked_at: string | null;
  disabled_at: string | null;
  last_used_at: string | null;
  grants: IdentityGrant[];
}

type OperatorRow = Pick<
  OperatorsRow,
  | 'id'
  | 'name'
  | 'display_name'
  | 'role'
  | 'realm'
  | 'broker_id'
  | 'created_at'
  | 'key_rotated_at'
  | 'revoked_at'
  | 'disabled_at'
>;

/** Every identity's access now. last_used_at: its latest audited action (actor or on whose behalf). */
export function accessSnapshot(deps: D): IdentityAccess[] {
  const lastUse = new Map<string, string>();
  const uses = deps.db
    .prepare<[], { who: string; at: string }>(
      `SELECT who, MAX(at) AS at FROM (SELECT actor AS who, at FROM audit_log WHERE actor LIKE 'operator:%'
       UNION ALL SELECT on_behalf_of AS who, at FROM audit_log WHERE on_behalf_of LIKE 'operator:%') GROUP BY who`,
    )
    .all();
  for (const u of uses) lastUse.set(u.who.slice('operator:'.length), u.at);
  const ops = deps.db
    .prepare<[], OperatorRow>(
      'SELECT id, name, display_name, role, realm, broker_id, created_at, key_rotated_at, revoked_at, ' +
        'disabled_at FROM operators ORDER BY id',
    )
    .all();
  return ops.map((o) => {
    const grants = deps.keys.identities
      .grantRows(o.id)
      .map((g) => ({
        grant: g.grant_name,
        scope: g.scope,
        role: g.role,
        granted_at: g.granted_at,
        expires_at: g.expires_at,
        review_required: g.review_required === 1,
      }))
      .sort((a, b) => a.grant.localeCompare(b.grant) || a.scope.localeCompare(b.scope));
    const roles = [...new Set([o.role, ...grants.map((g) => g.role)])].sort();
    return {
      identity_id: o.id,
      name: o.name,
      display_name: o.display_name,
      role: o.role,
      realm: o.realm,
      broker_id: o.broker_id,
      roles,
      created_at: o.created_at,
      key_rotated_at: o.key_rotated_at,
      revoked_at: o.revoked_at,
      disabled_at: o.disabled_at,
      last_used_at: lastUse.get(o.name) ?? null,
      grants,
    };
  });
}

export interface ReviewItem {
  item_id: string;
  identity_id: string;
  identity_name: string;
  grant: string;
  scope: string;
  role: string;
  decision: 'certify' | 'revoke' | null;
  decided_by: string | null;
  decided_at: string | null;
  note: string | null;
}
export interface Review {
  review_id: string;
  state: 'open' | 'closed';
  opened_by: string;
  opened_at: string;
  closed_at: string | null;
  items_total: number;
  items_open: number;
  items: ReviewItem[];
}

type ReviewRow = AccessReviewsRow;

function items(deps: D, reviewId: string): ReviewItem[] {
  return deps.db
    .prepare<[string], ReviewItem>(
      `SELECT i.id AS item_id, i.operator_id AS identity_id, o.name AS identity_name, i.grant_name AS "grant",
       i.scope, i.role,
       i.decision, d.name AS decided_by, i.decided_at, i.note
     FROM access_review_items i JOIN operators o ON o.id = i.operator_id LEFT JOIN operators d ON d.id = i.decided_by
     WHERE i.review_id = ? ORDER BY i.seq`,
    )
    .all(reviewId);
}

function view(deps: D, r: ReviewRow): Review {
  const its = items(deps, r.id);
  const opener =
    deps.db.prepare<[string], string>('SELECT name FROM operators WHERE id = ?').pluck().get(r.opened_by) ??
    r.opened_by;
  return {
    review_id: r.id,
    state: r.state,
    opened_by: opener,
    opened_at: r.opened_at,
    closed_at: r.closed_at,
    items_total: its.length,
    items_open: its.filter((i) => i.decision === null).length,
    items: its,
  };
}

export function getReview(deps: D, id: string): Review | null {
  const r = deps.db.prepare<[string], ReviewRow>('SELECT * FROM access_reviews WHERE id = ?').get(id);
  return r ? view(deps, r) : null;
}

export function listReviews(deps: D, q: { state?: 'open' | 'closed'; limit: number }): Review[] {
  return deps.db
    .prepare<{ state: string | null; limit: number }, ReviewRow>(
      'SELECT * FROM access_reviews WHERE (@state IS NULL OR state = @state) ORDER BY opened_at DESC, id DESC ' +
        'LIMIT @limit',
    )
    .all({ state: q.state ?? null, limit: q.limit })
    .map((r) => view(deps, r));
}

/** Opens a campaign with one item per grant every identity holds now. */
export function openReview(deps: D, op: Operator): Review {
  const id = deps.ids.next('arv');
  const at = deps.nowIso();
  deps.db
    .prepare("INSERT INTO access_reviews (id, opened_by, opened_at, state) VALUES (?, ?, ?, 'open')")
    .run(id, op.id, at);
  const ins = deps.db.prepare(
    'INSERT INTO access_review_items (id, review_id, operator_id, grant_name, scope, role) VALUES (?, ?, ?, ?, ?, ?)',
  );
  let n = 0;
  for (const who of accessSnapshot(deps)) {
    for (const g of who.grants) {
      ins.run(deps.ids.next('ari'), id, who.identity_id, g.grant, g.scope, g.role);
      n++;
    }
  }
  if (n === 0) deps.db.prepare("UPDATE access_reviews SET state = 'closed', closed_at = ? WHERE id = ?").run(at, id);
  deps.audit.append({
    actor: `operator:${op.name}`,
    action: 'access_review.opened',
    subject: id,
    detail: { grant: 'access-review:open', items: n },
  });
  return getReview(deps, id)!;
}

/** An item with its operator's name (SELECT i.*, o.name). */
type ItemRow = AccessReviewItemsRow & Pick<OperatorsRow, 'name'>;

/** Certifies or revokes one item; a revocation removes the grant now. */
export function decideItem(
  deps: D,
  op: Operator,
  reviewId: string,
  d: { item_id: string; decision: 'certify' | 'revoke'; note?: string },
): Outcome<Review> {
  const review = deps.db.prepare<[string], ReviewRow>('SELECT * FROM access_reviews WHERE id = ?').get(reviewId);
  if (!review) return refuse('NOT_FOUND', `No access review ${reviewId}.`);
  const item = deps.db
    .prepare<[string, string], ItemRow>(
      'SELECT i.*, o.name FROM access_review_items i JOIN operators o ON o.id = i.operator_id WHERE i.id = ? ' +
        'AND i.review_id = ?',
    )
    .get(d.item_id, reviewId);
  if (!item) return refuse('NOT_FOUND', `No item ${d.item_id} in access review ${reviewId}.`);
  if (review.state === 'closed')
    return refuse('ACCESS_REVIEW_CLOSED', `Access review ${reviewId} closed at ${review.closed_at}.`);
  if (item.decision !== null)
    return refuse('ACCESS_REVIEW_ITEM_DECIDED', `Item ${item.id} was already decided (${item.decision}).`);
  if (item.operator_id === op.id)
    return refuse('ACCESS_REVIEW_OWN_ACCESS', `Item ${item.id} reviews ${op.name}'s own grant ${item.grant_name}.`);
  const at = deps.nowIso();
  const done = deps.db
    .prepare(
      'UPDATE access_review_items SET decision = ?, decided_by = ?, decided_at = ?, note = ? WHERE id = ? AND ' +
        'decision IS NULL',
    )
    .run(d.decision, op.id, at, d.note ?? null, item.id).changes;
  if (done !== 1) return refuse('ACCESS_REVIEW_ITEM_DECIDED', `Item ${item.id} was already decided.`);
  if (d.decision === 'revoke') deps.keys.identities.revokeGrant(item.operator_id, item.grant_name, item.scope);
  deps.audit.append({
    actor: `operator:${op.name}`,
    action: d.decision === 'revoke' ? 'access_review.revoked' : 'access_review.certified',
    subject: item.id,
    detail: {
      grant: 'access-review:decide',
      review_id: reviewId,
      identity: item.name,
      reviewed_grant: item.grant_name,
      scope: item.scope,
      ...(d.note ? { note: d.note } : {}),
    },
  });
  const after = getReview(deps, reviewId)!;
  if (after.state === 'closed')
    deps.audit.append({
      actor: `operator:${op.name}`,
      action: 'access_review.closed',
      subject: reviewId,
      detail: { items: after.items_total },
    });
  return ok(after);
}
