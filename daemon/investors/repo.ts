// Investor lookups shared by every capability that takes an investor_id. Another tenant's investor
// behaves exactly like an unknown one (404 NOT_FOUND). Lookups answer values: a row or undefined, or
// an Outcome whose refusal the calling service returns as it is (docs/onboarding.md, "Investor
// lookups for other capabilities").
import type { Db } from '../store/db.js';
import { onTableWrite } from '../store/table-watch.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { InvestorsRow } from '../store/rows.js';

export type InvestorRow = InvestorsRow;

/**
 * Investor rows by id, cached: every order and transfer reads its investor's status and suitability.
 * Any write to the table, by this code or by anything else on the connection (a test's UPDATE, a
 * reset's DELETE), clears the cache (daemon/store/table-watch.ts). A row
 * read after such a write could be rolled back with it, so it is not cached: inside a request (unit),
 * until the request ends (a refusal rolls it back: the cache is cleared again then); outside one,
 * until that write's transaction ends. A batch that fails to commit reloads (onReset clears it).
 */
function createRowCache(db: Db) {
  const rows = new Map<string, InvestorRow>();
  let unitDepth = 0;
  let unitWrote = false;
  let bypass = false;
  onTableWrite(db, 'investors', () => {
    rows.clear();
    if (unitDepth > 0) unitWrote = true;
    else bypass = true;
  });
  return {
    rows,
    /** False while a write to investors may still be rolled back. */
    usable(): boolean {
      if (bypass && !db.inTransaction) bypass = false;
      return !bypass && !unitWrote;
    },
    /** Runs fn as one request's unit (nested calls join it). */
    unit<T>(fn: () => T): T {
      unitDepth++;
      try {
        return fn();
      } finally {
        if (--unitDepth === 0 && unitWrote) {
          rows.clear();
          unitWrote = false;
        }
      }
    },
    forget(): void {
      rows.clear();
    },
  };
}

export function createInvestorRepo(db: Db) {
  const byId = db.prepare<[string, string], InvestorRow>('SELECT * FROM investors WHERE id = ? AND tenant_id = ?');
  const pendingApplication = db.prepare<[string, string], { state: string }>(
    "SELECT state FROM kyc_applications WHERE id = ? AND tenant_id = ? AND state <> 'approved'",
  );
  const cache = createRowCache(db);

  function find(tenantId: string, investorId: string): InvestorRow | undefined {
    if (!cache.usable()) return byId.get(investorId, tenantId);
    const hit = cache.rows.get(investorId);
    // ids are unique across tenants: another tenant's investor is unknown here, as in the query
    if (hit) return hit.tenant_id === tenantId ? hit : undefined;
    const row = byId.get(investorId, tenantId);
    if (row) cache.rows.set(investorId, Object.freeze(row));
    return row;
  }

  /** The tenant's investor, or NOT_FOUND. */
  function lookup(tenantId: string, investorId: string): Outcome<InvestorRow> {
    const row = find(tenantId, investorId);
    return row ? ok(row) : refuse('NOT_FOUND', `No investor ${investorId}.`);
  }

  /**
   * For funding, trading and suitability: the investor must exist and not be closed. The id of the
   * tenant's own KYC application that is not approved yet is refused with INVESTOR_NOT_APPROVED rather
   * than a bare 404; any other unknown id (another tenant's application included) is 404.
   */
  function lookupForMoney(tenantId: string, investorId: string): Outcome<InvestorRow> {
    const row = find(tenantId, investorId);
    if (!row) {
      if (pendingApplication.get(investorId, tenantId))
        return refuse('INVESTOR_NOT_APPROVED', `Application ${investorId} has no approved investor yet.`);
      return refuse('NOT_FOUND', `No investor ${investorId}.`);
    }
    if (row.status === 'closed') return refuse('INVESTOR_CLOSED');
    return ok(row);
  }

  return { find, lookup, lookupForMoney, unit: cache.unit, forget: cache.forget };
}

export type InvestorRepo = ReturnType<typeof createInvestorRepo>;
