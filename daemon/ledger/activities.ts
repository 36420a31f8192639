// The investor's activity feed: one immutable row per booked event, written by the service that
// books the postings, in the same transaction. Types follow the reference brokerage API's activity
// codes (docs/ledger.md has the table). Newest first; paged by limit and `before` (an activity id).
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { LedgerDeps } from './model.js';
import { rowsInsert } from '../store/rows-insert.js';
import { ACTIVITY_REF_TYPES, ACTIVITY_TYPES, type ActivityRefType, type ActivityType } from '../contract/activities.js';

export { ACTIVITY_REF_TYPES, ACTIVITY_TYPES, type ActivityRefType, type ActivityType };

export interface ActivityInput {
  tenantId: string;
  investorId: string;
  type: ActivityType;
  /** Signed effect on the investor's cash in micros: + in, - out, 0 for a pure holdings movement. */
  netAmountMicros: number;
  description: string;
  ref?: { type: ActivityRefType; id: string };
  symbol?: string;
  side?: 'buy' | 'sell';
  qty?: number;
  priceMicros?: number;
}

/** The wire shape (GET /v1/investors/{id}/activities). */
export interface Activity {
  id: string;
  activity_type: ActivityType;
  investor_id: string;
  at: string;
  net_amount_micros: number;
  description: string;
  status: 'executed';
  ref_type: ActivityRefType | null;
  ref_id: string | null;
  symbol: string | null;
  side: 'buy' | 'sell' | null;
  qty: number | null;
  price_micros: number | null;
}

export interface ActivityPage {
  activities: Activity[];
  /** Pass as `before` for the next (older) page; null when this page is the last. */
  next_before: string | null;
}

const COLUMNS =
  'id, activity_type, investor_id, at, net_amount_micros, description, status, ref_type, ref_id, symbol, side, ' +
  'qty, price_micros';

const INSERT =
  'INSERT INTO activities (id, tenant_id, investor_id, activity_type, net_amount_micros, description, ' +
  'ref_type, ref_id, symbol, side, qty, price_micros, at, at_ms) VALUES ';
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

/** The stored row of an activity, with its id and instant; its values appended to `values` in the columns' order. */
function activityRow(deps: LedgerDeps, a: ActivityInput, at: string, atMs: number, values: unknown[]): Activity {
  if (!Number.isSafeInteger(a.netAmountMicros))
    throw new Error(`activity: net amount ${a.netAmountMicros} is not a safe integer`);
  const row: Activity = {
    id: deps.ids.next('act'),
    activity_type: a.type,
    investor_id: a.investorId,
    at,
    net_amount_micros: a.netAmountMicros,
    description: a.description,
    status: 'executed',
    ref_type: a.ref?.type ?? null,
    ref_id: a.ref?.id ?? null,
    symbol: a.symbol ?? null,
    side: a.side ?? null,
    qty: a.qty ?? null,
    price_micros: a.priceMicros ?? null,
  };
  values.push(
    row.id,
    a.tenantId,
    row.investor_id,
    row.activity_type,
    row.net_amount_micros,
    row.description,
    row.ref_type,
    row.ref_id,
    row.symbol,
    row.side,
    row.qty,
    row.price_micros,
    at,
    atMs,
  );
  return row;
}

export function createActivityLog(deps: LedgerDeps) {
  const { db } = deps;
  // n activities in one statement (a fill's FILL, FEE and TAX)
  const insert = rowsInsert(db, (tuples) => INSERT + tuples, ROW);
  const cursor = db.prepare<[string, string, string], { seq: number }>(
    'SELECT seq FROM activities WHERE id = ? AND tenant_id = ? AND investor_id = ?',
  );
  const page = db.prepare<[string, string, number, number], Activity>(
    `SELECT ${COLUMNS} FROM activities WHERE tenant_id = ? AND investor_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
  );

  /** Records activities in order, in one statement; returns their rows. */
  const recordAll = (as: readonly ActivityInput[]): Activity[] => {
    if (as.length === 0) return [];
    const at = deps.nowIso();
    const atMs = deps.clock.now();
    const values: unknown[] = [];
    const rows = as.map((a) => activityRow(deps, a, at, atMs, values));
    insert(rows.length).run(...values);
    return rows;
  };

  return {
    record: (a: ActivityInput): Activity => recordAll([a])[0],
    recordAll,

    list(tenantId: string, investorId: string, opts: { limit: number; before?: string }): Outcome<ActivityPage> {
      let beforeSeq = Number.MAX_SAFE_INTEGER;
      if (opts.before !== undefined) {
        const row = cursor.get(opts.before, tenantId, investorId);
        if (!row)
          return refuse('INVALID_CURSOR', `before: ${opts.before} is not an activity of investor ${investorId}.`);
        beforeSeq = row.seq;
      }
      const rows = page.all(tenantId, investorId, beforeSeq, opts.limit + 1);
      const more = rows.length > opts.limit;
      const activities = more ? rows.slice(0, opts.limit) : rows;
      return ok({ activities, next_before: more ? activities[activities.length - 1].id : null });
    },
  };
}
