// SQL of dividends and their entitlements (migration 007).
import type { Db } from '../store/db.js';
import { rowsInsert } from '../store/rows-insert.js';
import type { DividendEntitlementsRow, DividendsRow } from '../store/rows.js';

export type DividendState = DividendsRow['state'];

export type DividendRow = DividendsRow;

export type EntitlementRow = DividendEntitlementsRow;

type NewEntitlement = Omit<EntitlementRow, 'seq' | 'paid_at'>;

const ENTITLEMENT_INSERT =
  'INSERT INTO dividend_entitlements (dividend_id, tenant_id, investor_id, shares, gross_micros, tax_micros, ' +
  'net_micros, state, reason_code) VALUES ';

export function createDividendRepo(db: Db) {
  const insertEntitlements = rowsInsert(db, (tuples) => ENTITLEMENT_INSERT + tuples, '(?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const q = {
    insert: db.prepare(
      `INSERT INTO dividends (id, symbol, amount_per_share_micros, ex_date, pay_date, withholding_bps, record_ms,
        pay_ms, state, declared_at)
       VALUES (@id, @symbol, @amount_per_share_micros, @ex_date, @pay_date, @withholding_bps, @record_ms, @pay_ms,
         'declared', @declared_at)`,
    ),
    byId: db.prepare<[string], DividendRow>('SELECT * FROM dividends WHERE id = ?'),
    recorded: db.prepare("UPDATE dividends SET state = 'recorded', recorded_at = ? WHERE id = ?"),
    paid: db.prepare("UPDATE dividends SET state = 'paid', paid_at = ? WHERE id = ?"),
    entitlements: db.prepare<[string], EntitlementRow>(
      'SELECT * FROM dividend_entitlements WHERE dividend_id = ? ORDER BY seq',
    ),
    entitlementPaid: db.prepare("UPDATE dividend_entitlements SET state = 'paid', paid_at = ? WHERE seq = ?"),
    entitlementsPaid: db.prepare(
      `UPDATE dividend_entitlements SET state = 'paid', paid_at = ?
       WHERE dividend_id = ? AND seq BETWEEN ? AND ? AND state = 'pending'`,
    ),
    entitlementFailed: db.prepare("UPDATE dividend_entitlements SET state = 'failed', reason_code = ? WHERE seq = ?"),
  };
  return {
    insert(d: Omit<DividendRow, 'seq' | 'state' | 'recorded_at' | 'paid_at'>): void {
      q.insert.run(d);
    },
    byId: (id: string): DividendRow | undefined => q.byId.get(id),
    recorded(id: string, at: string): void {
      q.recorded.run(at, id);
    },
    paid(id: string, at: string): void {
      q.paid.run(at, id);
    },
    /** Entitlements in order, in one statement: the rows, and seqs, of inserting them one by one. */
    insertEntitlements(es: readonly NewEntitlement[]): void {
      if (es.length === 0) return;
      const values: unknown[] = [];
      for (const e of es)
        values.push(
          e.dividend_id,
          e.tenant_id,
          e.investor_id,
          e.shares,
          e.gross_micros,
          e.tax_micros,
          e.net_micros,
          e.state,
          e.reason_code,
        );
      insertEntitlements(es.length).run(...values);
    },
    entitlements: (dividendId: string): EntitlementRow[] => q.entitlements.all(dividendId),
    entitlementPaid(seq: number, at: string): void {
      q.entitlementPaid.run(at, seq);
    },
    /** Every pending entitlement of the dividend from one seq to another, both included, paid. */
    entitlementsPaid(dividendId: string, fromSeq: number, toSeq: number, at: string): void {
      q.entitlementsPaid.run(at, dividendId, fromSeq, toSeq);
    },
    entitlementFailed(seq: number, reasonCode: string): void {
      q.entitlementFailed.run(reasonCode, seq);
    },
  };
}

export type DividendRepo = ReturnType<typeof createDividendRepo>;
