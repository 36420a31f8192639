// SQL of fund orders (migration 007). Tenant-facing reads are scoped by tenant.
import type { Db } from '../store/db.js';
import type { FundOrdersRow } from '../store/rows.js';

export type FundOrderSide = FundOrdersRow['side'];
export type FundOrderState = FundOrdersRow['state'];

export type FundOrderRow = FundOrdersRow;

export type NewFundOrder = Pick<
  FundOrderRow,
  | 'id'
  | 'tenant_id'
  | 'investor_id'
  | 'fund_code'
  | 'side'
  | 'amount_micros'
  | 'units_micros'
  | 'created_ms'
  | 'created_at'
>;

export interface Processed {
  nav_micros: number;
  nav_date: string;
  result_units_micros: number;
  result_amount_micros: number;
}

export function createFundRepo(db: Db) {
  const q = {
    insert: db.prepare(
      `INSERT INTO fund_orders (id, tenant_id, investor_id, fund_code, side, amount_micros, units_micros, state,
        created_ms, created_at, updated_at)
       VALUES (@id, @tenant_id, @investor_id, @fund_code, @side, @amount_micros, @units_micros, 'received',
         @created_ms, @created_at, @created_at)`,
    ),
    validated: db.prepare("UPDATE fund_orders SET state = 'validated', updated_at = ? WHERE id = ?"),
    processed: db.prepare(
      `UPDATE fund_orders SET state = 'processed', nav_micros = @nav_micros, nav_date = @nav_date,
        result_units_micros = @result_units_micros,
         result_amount_micros = @result_amount_micros, processed_at = @at, updated_at = @at WHERE id = @id`,
    ),
    settled: db.prepare("UPDATE fund_orders SET state = 'settled', settled_at = ?, updated_at = ? WHERE id = ?"),
    byId: db.prepare<[string], FundOrderRow>('SELECT * FROM fund_orders WHERE id = ?'),
    byTenant: db.prepare<[string, string], FundOrderRow>('SELECT * FROM fund_orders WHERE id = ? AND tenant_id = ?'),
    settledOf: db.prepare<[string, string], FundOrderRow>(
      "SELECT * FROM fund_orders WHERE tenant_id = ? AND investor_id = ? AND state = 'settled' ORDER BY seq",
    ),
  };
  return {
    insert(o: NewFundOrder): void {
      q.insert.run(o);
    },
    validated(id: string, at: string): void {
      q.validated.run(at, id);
    },
    processed(id: string, p: Processed, at: string): void {
      q.processed.run({ ...p, id, at });
    },
    settled(id: string, at: string): void {
      q.settled.run(at, at, id);
    },
    byId: (id: string): FundOrderRow | undefined => q.byId.get(id),
    find: (tenantId: string, id: string): FundOrderRow | undefined => q.byTenant.get(id, tenantId),
    /** An investor's settled fund orders, oldest first (the portfolio's cost basis). */
    settledOf: (tenantId: string, investorId: string): FundOrderRow[] => q.settledOf.all(tenantId, investorId),
  };
}

export type FundRepo = ReturnType<typeof createFundRepo>;
