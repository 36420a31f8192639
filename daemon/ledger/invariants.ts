// Re-derives the ledger's guarantees from its tables. The constraints of migration 004 should make
// every query here come back empty; tests and the property test run it after each step, and a
// reconciliation can run it on a live sandbox. Reads only.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db.js';

export interface InvariantReport {
  ok: boolean;
  violations: string[];
}

/** A violating row: the columns its check selects. */
type Row = Record<string, string | number | null>;

const CHECKS: Array<{ name: string; sql: string; describe: (r: Row) => string }> = [
  {
    name: 'per-asset sum is zero',
    sql: `SELECT tenant_id, asset,
      SUM(balance) AS total FROM ledger_accounts WHERE (@tenant IS NULL OR tenant_id = @tenant)
           GROUP BY tenant_id, asset HAVING total <> 0`,
    describe: (r) => `${r.tenant_id} ${r.asset}: balances sum to ${r.total}, not 0`,
  },
  {
    name: 'no negative investor balance',
    sql:
      `SELECT owner, asset, bucket, balance FROM ledger_accounts WHERE (@tenant IS NULL OR tenant_id = @tenant) ` +
      `AND bucket <> 'system' AND balance < 0`,
    describe: (r) => `${r.owner} ${r.asset} ${r.bucket} is ${r.balance}`,
  },
  {
    name: 'balance equals the sum of its postings',
    sql: `SELECT a.owner, a.asset, a.bucket, a.balance,
                 COALESCE((SELECT SUM(amount) FROM ledger_entries WHERE credit_account_id = a.id), 0)
               - COALESCE((SELECT SUM(amount) FROM ledger_entries WHERE debit_account_id = a.id), 0) AS posted
            FROM ledger_accounts a WHERE (@tenant IS NULL OR a.tenant_id = @tenant) AND a.balance <> posted`,
    describe: (r) => `${r.owner} ${r.asset} ${r.bucket} is ${r.balance} but its postings sum to ${r.posted}`,
  },
  {
    name: 'reserved equals the remainders of pending holds',
    sql: `WITH held AS (
            SELECT tenant_id, investor_id, asset, SUM(remaining) AS remaining FROM ledger_holds
             WHERE state = 'pending' AND (@tenant IS NULL OR tenant_id = @tenant) GROUP BY tenant_id, investor_id,
               asset),
          reserved AS (
            SELECT tenant_id, owner AS investor_id, asset, balance FROM ledger_accounts
             WHERE bucket = 'reserved' AND (@tenant IS NULL OR tenant_id = @tenant))
          SELECT r.investor_id, r.asset, r.balance, COALESCE(h.remaining, 0) AS held FROM reserved r
            LEFT JOIN held h ON h.tenant_id = r.tenant_id AND h.investor_id = r.investor_id AND h.asset = r.asset
           WHERE r.balance <> COALESCE(h.remaining, 0)
          UNION ALL
          SELECT h.investor_id, h.asset, 0, h.remaining FROM held h
           WHERE NOT EXISTS (SELECT 1 FROM reserved r WHERE r.tenant_id = h.tenant_id
             AND r.investor_id = h.investor_id AND r.asset = h.asset)`,
    describe: (r) => `${r.investor_id} ${r.asset}: reserved is ${r.balance} but pending holds keep ${r.held}`,
  },
  {
    name: 'each hold is accounted for by its postings',
    sql: `SELECT h.id, h.amount, h.posted, h.remaining, h.state,
                 COALESCE(SUM(CASE WHEN c.bucket = 'reserved' THEN e.amount END), 0) AS held_in,
                 COALESCE(SUM(CASE WHEN d.bucket = 'reserved' AND e.kind <> 'hold.void' THEN e.amount END),
                   0) AS posted_out,
                 COALESCE(SUM(CASE WHEN d.bucket = 'reserved' AND e.kind = 'hold.void' THEN e.amount END),
                   0) AS voided_out
            FROM ledger_holds h
            LEFT JOIN ledger_entries e ON e.hold_id = h.id
            LEFT JOIN ledger_accounts d ON d.id = e.debit_account_id
            LEFT JOIN ledger_accounts c ON c.id = e.credit_account_id
           WHERE (@tenant IS NULL OR h.tenant_id = @tenant)
           GROUP BY h.id
          HAVING held_in <> h.amount OR posted_out <> h.posted OR h.amount - posted_out - voided_out <> h.remaining`,
    describe: (r) =>
      `hold ${r.id} (${r.state}): amount ${r.amount}, posted ${r.posted}, remaining ${r.remaining}; postings: ` +
      `in ${r.held_in}, posted ${r.posted_out}, voided ${r.voided_out}`,
  },
];

type CheckStatement = Statement<[{ tenant: string | null }], Row>;

/** The checks' statements, prepared once per connection: preparing these five took longer than running them. */
const prepared = new WeakMap<Db, CheckStatement[]>();

export function checkLedgerInvariants(db: Db, tenantId?: string): InvariantReport {
  let statements = prepared.get(db);
  if (!statements) {
    statements = CHECKS.map((check) => db.prepare<[{ tenant: string | null }], Row>(check.sql));
    prepared.set(db, statements);
  }
  const violations: string[] = [];
  for (const [i, check] of CHECKS.entries()) {
    for (const row of statements[i].all({ tenant: tenantId ?? null }))
      violations.push(`${check.name}: ${check.describe(row)}`);
  }
  return { ok: violations.length === 0, violations };
}
