// Grounding, the third stage: the facts an answer may state, read from the registries and, for an
// order, through the trading domain's own read model (daemon/trading/repository.ts, orderView) scoped
// to the caller's tenant: another tenant's order reads exactly as an unknown one. Reads only: the
// assistant books nothing. Free-text fields a person typed (client_order_id, names) are not facts an
// answer states, so they are left out here and cannot steer what follows.
import type { Db } from '../store/db.js';
import { ERROR_CODES, type ErrorCode } from '../contract/errors.js';
import { DISCLOSURES } from '../contract/disclosures.js';
import { findRejectCode } from '../trading/reject-codes.js';
import { createTradingRepo } from '../trading/repository.js';
import { orderView } from '../trading/order-view.js';
import { findGlossary, GLOSSARY, type GlossaryEntry } from './glossary.js';

export interface Explained {
  code: string;
  status: number | null;
  cause: string;
  remedy: string;
}

export interface OrderFacts {
  order_id: string;
  state: string;
  status: string;
  symbol: string;
  side: 'buy' | 'sell';
  type: string;
  time_in_force: string;
  qty: number;
  filled_qty: number;
  avg_price_micros: number | null;
  reason_code: string | null;
  fills: number;
  settlement_date: string | null;
  at: string;
}

export const glossaryList = (): readonly GlossaryEntry[] => GLOSSARY;
export const glossaryEntry = (slug: string): GlossaryEntry | null => findGlossary(slug);

export function disclosureTexts() {
  return [
    { key: 'ai_interaction', text: DISCLOSURES.ai_interaction },
    { key: 'investment_risk', text: DISCLOSURES.investment_risk },
  ] as const;
}

/** An error code's entry: the order reject-code registry first, then the API error registry. */
export function explainCode(code: string): Explained | null {
  const reject = findRejectCode(code);
  const api = Object.hasOwn(ERROR_CODES, code) ? ERROR_CODES[code as ErrorCode] : null;
  if (reject) return { code, status: api?.status ?? null, cause: reject.cause, remedy: reject.remedy };
  if (api) return { code, status: api.status, cause: api.cause, remedy: api.remedy };
  return null;
}

export function createOrderReader(db: Db) {
  const repo = createTradingRepo(db);
  return function orderFacts(tenantId: string, orderId: string): OrderFacts | null {
    const row = repo.find(tenantId, orderId);
    if (!row) return null;
    const v = orderView(row);
    const fills = repo.fills(row.id);
    return {
      order_id: v.order_id,
      state: v.state,
      status: v.status,
      symbol: v.symbol,
      side: v.side,
      type: v.type,
      time_in_force: v.time_in_force,
      qty: v.qty,
      filled_qty: v.filled_qty,
      avg_price_micros: v.avg_price_micros,
      reason_code: v.reason_code,
      fills: fills.length,
      settlement_date: fills.length ? fills[fills.length - 1].settlement_date : null,
      at: v.filled_at ?? v.canceled_at ?? v.expired_at ?? v.updated_at,
    };
  };
}
