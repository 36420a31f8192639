// Reads the portfolio is built from, beyond the ledger: an investor's equity fills (migration 006).
import type { Db } from '../store/db.js';

export interface FillCostRow {
  seq: number;
  symbol: string;
  side: 'buy' | 'sell';
  qty: number;
  value_micros: number;
  /** Commission, EGX, MCDR, IPF, FRA and stamp duty together. */
  charges_micros: number;
  at_ms: number;
}

export function createPortfolioRepo(db: Db) {
  const fills = db.prepare<[string, string], FillCostRow>(
    `SELECT seq, symbol, side, qty, value_micros, commission_micros + egx_micros + mcdr_micros + ipf_micros + fra_micros + stamp_duty_micros AS charges_micros, at_ms
       FROM fills WHERE tenant_id = ? AND investor_id = ? ORDER BY seq`,
  );
  return {
    fillsOf: (tenantId: string, investorId: string): FillCostRow[] => fills.all(tenantId, investorId),
  };
}

export type PortfolioRepo = ReturnType<typeof createPortfolioRepo>;
