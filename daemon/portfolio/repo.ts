// Reads the portfolio is built from, beyond the ledger: an investor's equity fills (migration 006), and
// a statement's fills with their fee lines.
import type { Db } from '../store/db.js';
import type { FeeLines } from '../contract/fees.js';
import type { FillsRow } from '../store/rows.js';

export type FillCostRow = Pick<FillsRow, 'seq' | 'symbol' | 'side' | 'qty' | 'value_micros' | 'at_ms'> & {
  /** Commission, EGX, MCDR, IPF, FRA and stamp duty together. */
  charges_micros: number;
};

/** A fill as a statement lists it: every fee line, the settlement date. */
export interface StatementFill extends FeeLines {
  fill_id: string;
  order_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  qty: number;
  price_micros: number;
  value_micros: number;
  net_micros: number;
  trade_date: string;
  settlement_date: string;
  at: string;
}

export function createPortfolioRepo(db: Db) {
  const fills = db.prepare<[string, string], FillCostRow>(
    `SELECT seq, symbol, side, qty, value_micros,
      commission_micros + egx_micros + mcdr_micros + ipf_micros + fra_micros + stamp_duty_micros AS charges_micros,
      at_ms
       FROM fills WHERE tenant_id = ? AND investor_id = ? ORDER BY seq`,
  );
  const statementFills = db.prepare<[string, string, number, number], StatementFill>(
    `SELECT id AS fill_id, order_id, symbol, side, qty, price_micros, value_micros, commission_micros, egx_micros,
      mcdr_micros, ipf_micros,
            fra_micros, stamp_duty_micros, net_micros, trade_date, settlement_date, at
       FROM fills WHERE tenant_id = ? AND investor_id = ? AND at_ms >= ? AND at_ms <= ? ORDER BY seq`,
  );
  return {
    fillsOf: (tenantId: string, investorId: string): FillCostRow[] => fills.all(tenantId, investorId),
    /** Every fill booked in [startMs, endMs], in booking order, with its fee lines. */
    statementFills: (tenantId: string, investorId: string, startMs: number, endMs: number): StatementFill[] =>
      statementFills.all(tenantId, investorId, startMs, endMs),
  };
}

export type PortfolioRepo = ReturnType<typeof createPortfolioRepo>;
