// SQL of the trading domain: orders, fills, settlements (migration 006). Tenant-facing reads are
// scoped by tenant; the scheduler and the dealer desk read by id (ids are unique across tenants) and
// the desk by the dealer's broker.
import type { Db } from '../store/db.js';
import type { FillsRow, OrdersRow, SettlementsRow } from '../store/rows.js';
import { TERMINAL_STATES, type Side } from './matcher.js';

export type OrderRow = OrdersRow;

export type NewOrder = Omit<OrderRow, 'seq'>;

/** The columns an order's lifecycle changes. */
export type OrderProgress = Pick<
  OrderRow,
  | 'state'
  | 'filled_qty'
  | 'filled_value_micros'
  | 'fees_micros'
  | 'withholding_micros'
  | 'reason_code'
  | 'transmitted'
  | 'eligible_from_ms'
  | 'cancel_due_ms'
  | 'evaluated_ms'
  | 'submitted_at'
  | 'filled_at'
  | 'canceled_at'
  | 'expired_at'
  | 'updated_at'
>;

/** A fill row: its fee lines are the columns of the contract's FeeLines (daemon/contract/fees.ts). */
export type FillRow = FillsRow;

export type SettlementRow = SettlementsRow;

export interface DeskOrderRow extends OrderRow {
  account_number: string;
  full_name: string;
  broker_id: string;
}

/**
 * An order not yet final, in the words of the partial index orders_open (migration 029): SQLite uses
 * that index only for a query whose WHERE contains these terms. `col` may be qualified (`o.state`).
 */
export const openOrder = (col = 'state'): string => [...TERMINAL_STATES].map((s) => `${col} <> '${s}'`).join(' AND ');
// Column lists as arrays: the statements bind positionally (by name, better-sqlite3 looks every
// parameter up by its name on each run), and the values are read in the same order. They are passed
// as arguments (`run(...values)`), not as one array: better-sqlite3 reads an array's elements one by
// one through V8's generic lookup, about a third slower per value (docs/bench-history.md, "The sixth pass").
const ORDER_KEYS = [
  'id',
  'tenant_id',
  'investor_id',
  'client_order_id',
  'market_id',
  'symbol',
  'asset_class',
  'side',
  'type',
  'order_class',
  'time_in_force',
  'qty',
  'limit_price_micros',
  'state',
  'filled_qty',
  'filled_value_micros',
  'fees_micros',
  'withholding_micros',
  'reason_code',
  'routing',
  'transmitted',
  'eligible_from_ms',
  'cancel_due_ms',
  'evaluated_ms',
  'cash_hold_id',
  'shares_hold_id',
  'reserved_cash_micros',
  'created_ms',
  'created_at',
  'submitted_at',
  'filled_at',
  'canceled_at',
  'expired_at',
  'updated_at',
] as const satisfies readonly (keyof NewOrder)[];
const PROGRESS_KEYS = [
  'state',
  'filled_qty',
  'filled_value_micros',
  'fees_micros',
  'withholding_micros',
  'reason_code',
  'transmitted',
  'eligible_from_ms',
  'cancel_due_ms',
  'evaluated_ms',
  'submitted_at',
  'filled_at',
  'canceled_at',
  'expired_at',
  'updated_at',
] as const satisfies readonly (keyof OrderProgress)[];
const FILL_KEYS = [
  'id',
  'tenant_id',
  'investor_id',
  'order_id',
  'symbol',
  'side',
  'qty',
  'price_micros',
  'value_micros',
  'commission_micros',
  'egx_micros',
  'mcdr_micros',
  'ipf_micros',
  'fra_micros',
  'stamp_duty_micros',
  'net_micros',
  'venue',
  'executed_by',
  'trade_date',
  'settlement_date',
  'at_ms',
  'at',
] as const satisfies readonly (keyof FillRow)[];
const SETTLEMENT_KEYS = [
  'id',
  'tenant_id',
  'investor_id',
  'order_id',
  'fill_id',
  'asset',
  'amount',
  'settlement_date',
  'due_ms',
] as const satisfies readonly (keyof SettlementRow)[];
const marks = (n: number) => Array(n).fill('?').join(', ');
const DESK_SELECT =
  'SELECT o.*, i.account_number, i.full_name, i.broker_id FROM orders o JOIN investors i ON i.id = o.investor_id';

function orderStatements(db: Db) {
  return {
    insert: db.prepare(`INSERT INTO orders (${ORDER_KEYS.join(', ')}) VALUES (${marks(ORDER_KEYS.length)})`),
    byId: db.prepare<[string], OrderRow>('SELECT * FROM orders WHERE id = ?'),
    byTenant: db.prepare<[string, string], OrderRow>('SELECT * FROM orders WHERE id = ? AND tenant_id = ?'),
    coid: db.prepare<[string, string], { one: number }>(
      'SELECT 1 AS one FROM orders WHERE tenant_id = ? AND client_order_id = ?',
    ),
    progress: db.prepare(`UPDATE orders SET ${PROGRESS_KEYS.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`),
    list: db.prepare<{ tenant: string; investor: string | null; open: number | null; limit: number }, OrderRow>(
      `SELECT * FROM orders WHERE tenant_id = @tenant AND (@investor IS NULL OR investor_id = @investor)
         AND (@open IS NULL OR (@open = 1) = (${openOrder()}))
       ORDER BY seq DESC LIMIT @limit`,
    ),
    openIds: db.prepare<[], { id: string }>(`SELECT id FROM orders WHERE ${openOrder()} ORDER BY seq`),
  };
}

function fillStatements(db: Db) {
  return {
    insertFill: db.prepare(`INSERT INTO fills (${FILL_KEYS.join(', ')}) VALUES (${marks(FILL_KEYS.length)})`),
    fills: db.prepare<[string], FillRow>('SELECT * FROM fills WHERE order_id = ? ORDER BY seq'),
    insertSettlement: db.prepare(
      `INSERT INTO settlements (${SETTLEMENT_KEYS.join(', ')}, state) VALUES (${marks(SETTLEMENT_KEYS.length)},
        'pending')`,
    ),
    settlement: db.prepare<[string], SettlementRow>('SELECT * FROM settlements WHERE id = ?'),
    settle: db.prepare("UPDATE settlements SET state = 'settled', settled_at = ? WHERE id = ?"),
  };
}

/** The dealer desk's reads, scoped to the dealer's broker (null: every broker). */
function deskStatements(db: Db) {
  return {
    deskQueue: db.prepare<{ broker: string | null; limit: number }, DeskOrderRow>(
      `${DESK_SELECT} WHERE o.routing = 'desk' AND ${openOrder('o.state')}
         AND (@broker IS NULL OR i.broker_id = @broker) ORDER BY o.seq LIMIT @limit`,
    ),
    deskById: db.prepare<{ broker: string | null; id: string }, DeskOrderRow>(
      `${DESK_SELECT} WHERE o.id = @id AND (@broker IS NULL OR i.broker_id = @broker)`,
    ),
    blotter: db.prepare<{ broker: string | null; date: string; limit: number }, FillRow & { account_number: string }>(
      `SELECT f.*, i.account_number FROM fills f JOIN investors i ON i.id = f.investor_id
        WHERE f.trade_date = @date AND (@broker IS NULL OR i.broker_id = @broker) ORDER BY f.seq DESC LIMIT @limit`,
    ),
    ...exposureStatements(db),
  };
}

function exposureStatements(db: Db) {
  return {
    exposureOpen: db.prepare<
      { broker: string | null },
      { side: Side; orders: number; qty: number; filled_qty: number; reserved_cash: number }
    >(
      `SELECT o.side, COUNT(*) AS orders, SUM(o.qty) AS qty, SUM(o.filled_qty) AS filled_qty,
              SUM(COALESCE((SELECT remaining FROM ledger_holds h WHERE h.id = o.cash_hold_id AND h.state = 'pending'),
                0)) AS reserved_cash
         FROM orders o JOIN investors i ON i.id = o.investor_id
        WHERE ${openOrder('o.state')} AND (@broker IS NULL OR i.broker_id = @broker) GROUP BY o.side ORDER BY o.side`,
    ),
    exposureUnsettled: db.prepare<
      { broker: string | null },
      { settlement_date: string; side: Side; fills: number; value: number; net: number }
    >(
      `SELECT f.settlement_date, f.side, COUNT(*) AS fills, SUM(f.value_micros) AS value, SUM(f.net_micros) AS net
         FROM fills f JOIN investors i ON i.id = f.investor_id JOIN settlements s ON s.fill_id = f.id
        WHERE s.state = 'pending' AND (@broker IS NULL OR i.broker_id = @broker)
        GROUP BY f.settlement_date, f.side ORDER BY f.settlement_date, f.side`,
    ),
    exposureSymbols: db.prepare<
      { broker: string | null; date: string },
      { symbol: string; bought_qty: number; sold_qty: number; bought_value: number; sold_value: number }
    >(
      `SELECT f.symbol,
              SUM(CASE WHEN f.side = 'buy' THEN f.qty ELSE 0 END) AS bought_qty,
              SUM(CASE WHEN f.side = 'sell' THEN f.qty ELSE 0 END) AS sold_qty,
              SUM(CASE WHEN f.side = 'buy' THEN f.value_micros ELSE 0 END) AS bought_value,
              SUM(CASE WHEN f.side = 'sell' THEN f.value_micros ELSE 0 END) AS sold_value
         FROM fills f JOIN investors i ON i.id = f.investor_id
        WHERE f.trade_date = @date AND (@broker IS NULL OR i.broker_id = @broker) GROUP BY f.symbol ORDER BY f.symbol`,
    ),
  };
}

export function createTradingRepo(db: Db) {
  const q = { ...orderStatements(db), ...fillStatements(db), ...deskStatements(db) };
  let lastSeq = 0;
  return {
    /** Stores a new order (its seq, when o carries one, is the database's to assign: not read). */
    insert(o: NewOrder): void {
      lastSeq = Number(q.insert.run(...ORDER_KEYS.map((k) => o[k])).lastInsertRowid);
    },
    /** The seq of the order this repository inserted last. */
    lastSeq: (): number => lastSeq,
    byId: (id: string): OrderRow | undefined => q.byId.get(id),
    find: (tenantId: string, id: string): OrderRow | undefined => q.byTenant.get(id, tenantId),
    clientOrderIdExists: (tenantId: string, coid: string): boolean => q.coid.get(tenantId, coid) !== undefined,
    progress(id: string, p: OrderProgress): void {
      const values: unknown[] = PROGRESS_KEYS.map((k) => p[k]);
      values.push(id);
      q.progress.run(...values);
    },
    list(tenantId: string, f: { investorId?: string; status?: 'open' | 'closed'; limit: number }): OrderRow[] {
      return q.list.all({
        tenant: tenantId,
        investor: f.investorId ?? null,
        open: f.status === undefined ? null : f.status === 'open' ? 1 : 0,
        limit: f.limit,
      });
    },
    openOrderIds: (): string[] => q.openIds.all().map((r) => r.id),
    insertFill(f: Omit<FillRow, 'seq'>): void {
      q.insertFill.run(...FILL_KEYS.map((k) => f[k]));
    },
    fills: (orderId: string): FillRow[] => q.fills.all(orderId),
    insertSettlement(s: Omit<SettlementRow, 'seq' | 'state' | 'settled_at'>): void {
      q.insertSettlement.run(...SETTLEMENT_KEYS.map((k) => s[k]));
    },
    settlement: (id: string): SettlementRow | undefined => q.settlement.get(id),
    markSettled(id: string, at: string): void {
      q.settle.run(at, id);
    },
    deskQueue: (brokerId: string | null, limit: number): DeskOrderRow[] => q.deskQueue.all({ broker: brokerId, limit }),
    deskById: (brokerId: string | null, id: string): DeskOrderRow | undefined =>
      q.deskById.get({ broker: brokerId, id }),
    blotter: (brokerId: string | null, date: string, limit: number) => q.blotter.all({ broker: brokerId, date, limit }),
    exposure(brokerId: string | null, date: string) {
      return {
        open: q.exposureOpen.all({ broker: brokerId }),
        unsettled: q.exposureUnsettled.all({ broker: brokerId }),
        symbols: q.exposureSymbols.all({ broker: brokerId, date }),
      };
    },
  };
}

export type TradingRepo = ReturnType<typeof createTradingRepo>;
