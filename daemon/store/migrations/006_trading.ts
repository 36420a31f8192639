import type { Migration } from './migration.js';

// Orders, their fills and the T+2 settlements of those fills (docs/trading.md). The database keeps
// the order's own invariants whatever the code does: the spec's states only; a terminal order is
// final; the terms of an order (who, what, side, type, quantity, limit) never change; filled_qty
// never decreases and reaches qty exactly when the order is filled; the timestamps match the state;
// client_order_id is unique per tenant forever. Fills are immutable; a settlement goes pending ->
// settled once. Money moves only in the ledger (holds and postings referencing the order id).
const STATES = `'received', 'transmitted', 'validated', 'acked', 'partially_filled', 'filled', 'cancel_requested', 'cancelled', 'rejected', 'expired'`;
const TERMINAL = `'filled', 'cancelled', 'rejected', 'expired'`;
const MAX = '9007199254740991';

export const TRADING: Migration = {
  version: 6,
  name: 'trading',
  sql: `
CREATE TABLE orders (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  client_order_id TEXT CHECK (client_order_id IS NULL OR length(client_order_id) BETWEEN 1 AND 128),
  market_id TEXT NOT NULL CHECK (market_id = 'XCAI'),
  symbol TEXT NOT NULL CHECK (length(symbol) BETWEEN 1 AND 16),
  asset_class TEXT NOT NULL CHECK (asset_class = 'egx_equity'),
  side TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
  type TEXT NOT NULL CHECK (type IN ('market', 'limit')),
  order_class TEXT NOT NULL CHECK (order_class = 'simple'),
  time_in_force TEXT NOT NULL CHECK (time_in_force IN ('day', 'gtc', 'ioc', 'fok')),
  qty INTEGER NOT NULL CHECK (qty > 0),
  limit_price_micros INTEGER CHECK (limit_price_micros > 0),
  state TEXT NOT NULL CHECK (state IN (${STATES})),
  filled_qty INTEGER NOT NULL DEFAULT 0 CHECK (filled_qty >= 0 AND filled_qty <= qty),
  filled_value_micros INTEGER NOT NULL DEFAULT 0 CHECK (filled_value_micros BETWEEN 0 AND ${MAX}),
  -- commission, EGX, MCDR, IPF and FRA so far; the stamp duty (withholding) apart
  fees_micros INTEGER NOT NULL DEFAULT 0 CHECK (fees_micros >= 0),
  withholding_micros INTEGER NOT NULL DEFAULT 0 CHECK (withholding_micros >= 0),
  reason_code TEXT,
  -- auto: the simulated exchange fills it from the tape; desk: the dealer queue does
  routing TEXT NOT NULL CHECK (routing IN ('auto', 'desk')),
  transmitted INTEGER NOT NULL CHECK (transmitted IN (0, 1)),
  eligible_from_ms INTEGER NOT NULL,
  cancel_due_ms INTEGER,
  -- every lifecycle event up to this instant has been applied
  evaluated_ms INTEGER NOT NULL,
  cash_hold_id TEXT UNIQUE REFERENCES ledger_holds(id),
  shares_hold_id TEXT UNIQUE REFERENCES ledger_holds(id),
  reserved_cash_micros INTEGER NOT NULL CHECK (reserved_cash_micros BETWEEN 0 AND ${MAX}),
  created_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  submitted_at TEXT,
  filled_at TEXT,
  canceled_at TEXT,
  expired_at TEXT,
  updated_at TEXT NOT NULL,
  UNIQUE (tenant_id, client_order_id),
  CHECK ((type = 'limit') = (limit_price_micros IS NOT NULL)),
  CHECK ((state = 'filled') = (filled_qty = qty)),
  CHECK ((filled_qty = 0) = (filled_value_micros = 0)),
  CHECK ((state = 'cancel_requested') = (cancel_due_ms IS NOT NULL)),
  CHECK (state NOT IN ('cancelled', 'rejected') OR reason_code IS NOT NULL),
  CHECK ((filled_at IS NOT NULL) = (state = 'filled')),
  CHECK ((canceled_at IS NOT NULL) = (state = 'cancelled')),
  CHECK ((expired_at IS NOT NULL) = (state = 'expired')),
  CHECK ((submitted_at IS NOT NULL) = (transmitted = 1)),
  CHECK (side = 'buy' OR shares_hold_id IS NOT NULL),
  CHECK ((cash_hold_id IS NULL) = (reserved_cash_micros = 0)),
  CHECK (state NOT IN ('received', 'validated') OR transmitted = 0)
) STRICT;
CREATE INDEX orders_tenant ON orders(tenant_id, seq DESC);
CREATE INDEX orders_investor ON orders(tenant_id, investor_id, seq DESC);
CREATE INDEX orders_open ON orders(state) WHERE state NOT IN (${TERMINAL});

CREATE TRIGGER orders_update BEFORE UPDATE ON orders
BEGIN
  SELECT RAISE(ABORT, 'orders: a filled, cancelled, rejected or expired order is final') WHERE OLD.state IN (${TERMINAL});
  SELECT RAISE(ABORT, 'orders: the terms of an order never change')
    WHERE NEW.seq <> OLD.seq OR NEW.id <> OLD.id OR NEW.tenant_id <> OLD.tenant_id OR NEW.investor_id <> OLD.investor_id
       OR NEW.client_order_id IS NOT OLD.client_order_id OR NEW.symbol <> OLD.symbol OR NEW.side <> OLD.side
       OR NEW.type <> OLD.type OR NEW.time_in_force <> OLD.time_in_force OR NEW.qty <> OLD.qty
       OR NEW.limit_price_micros IS NOT OLD.limit_price_micros OR NEW.routing <> OLD.routing
       OR NEW.cash_hold_id IS NOT OLD.cash_hold_id OR NEW.shares_hold_id IS NOT OLD.shares_hold_id
       OR NEW.reserved_cash_micros <> OLD.reserved_cash_micros OR NEW.created_ms <> OLD.created_ms OR NEW.created_at <> OLD.created_at;
  SELECT RAISE(ABORT, 'orders: executions only accumulate')
    WHERE NEW.filled_qty < OLD.filled_qty OR NEW.filled_value_micros < OLD.filled_value_micros
       OR NEW.fees_micros < OLD.fees_micros OR NEW.withholding_micros < OLD.withholding_micros
       OR NEW.evaluated_ms < OLD.evaluated_ms OR NEW.transmitted < OLD.transmitted;
  SELECT RAISE(ABORT, 'orders: an order never goes back to received or validated')
    WHERE (NEW.state = 'received' AND OLD.state <> 'received')
       OR (NEW.state = 'validated' AND OLD.state NOT IN ('received', 'validated'));
END;

CREATE TRIGGER orders_no_delete BEFORE DELETE ON orders
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'orders are never deleted');
END;

CREATE TABLE fills (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  order_id TEXT NOT NULL REFERENCES orders(id),
  symbol TEXT NOT NULL,
  side TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
  qty INTEGER NOT NULL CHECK (qty > 0),
  price_micros INTEGER NOT NULL CHECK (price_micros > 0),
  value_micros INTEGER NOT NULL CHECK (value_micros > 0 AND value_micros <= ${MAX}),
  commission_micros INTEGER NOT NULL CHECK (commission_micros >= 0),
  egx_micros INTEGER NOT NULL CHECK (egx_micros >= 0),
  mcdr_micros INTEGER NOT NULL CHECK (mcdr_micros >= 0),
  ipf_micros INTEGER NOT NULL CHECK (ipf_micros >= 0),
  fra_micros INTEGER NOT NULL CHECK (fra_micros >= 0),
  stamp_duty_micros INTEGER NOT NULL CHECK (stamp_duty_micros >= 0),
  -- buy: value + fees + withholding paid; sell: value - fees - withholding received (may be < 0)
  net_micros INTEGER NOT NULL,
  -- tape: the simulated exchange; desk: a dealer's execution
  venue TEXT NOT NULL CHECK (venue IN ('tape', 'desk')),
  executed_by TEXT,
  trade_date TEXT NOT NULL,
  settlement_date TEXT NOT NULL CHECK (settlement_date > trade_date),
  at_ms INTEGER NOT NULL,
  at TEXT NOT NULL,
  CHECK (value_micros = qty * price_micros),
  CHECK (net_micros = CASE side
    WHEN 'buy' THEN value_micros + commission_micros + egx_micros + mcdr_micros + ipf_micros + fra_micros + stamp_duty_micros
    ELSE value_micros - commission_micros - egx_micros - mcdr_micros - ipf_micros - fra_micros - stamp_duty_micros END),
  CHECK ((venue = 'desk') = (executed_by IS NOT NULL))
) STRICT;
CREATE INDEX fills_order ON fills(order_id, seq);

CREATE TRIGGER fills_no_update BEFORE UPDATE ON fills
BEGIN
  SELECT RAISE(ABORT, 'fills are immutable');
END;

CREATE TRIGGER fills_no_delete BEFORE DELETE ON fills
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'fills are immutable');
END;

-- What a fill leaves unsettled: a buy's shares, a sell's net proceeds; moved to settled on the
-- settlement date (T+2 business days) by a stored scheduler event.
CREATE TABLE settlements (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  order_id TEXT NOT NULL REFERENCES orders(id),
  fill_id TEXT NOT NULL UNIQUE REFERENCES fills(id),
  asset TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0 AND amount <= ${MAX}),
  settlement_date TEXT NOT NULL,
  due_ms INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'settled')),
  settled_at TEXT,
  CHECK ((state = 'settled') = (settled_at IS NOT NULL))
) STRICT;
CREATE INDEX settlements_investor ON settlements(tenant_id, investor_id, state);

CREATE TRIGGER settlements_update BEFORE UPDATE ON settlements
BEGIN
  SELECT RAISE(ABORT, 'settlements: only pending -> settled, once')
    WHERE OLD.state <> 'pending' OR NEW.state <> 'settled'
       OR NEW.id <> OLD.id OR NEW.fill_id <> OLD.fill_id OR NEW.asset <> OLD.asset OR NEW.amount <> OLD.amount
       OR NEW.due_ms <> OLD.due_ms OR NEW.settlement_date <> OLD.settlement_date;
END;

CREATE TRIGGER settlements_no_delete BEFORE DELETE ON settlements
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'settlements are never deleted');
END;
`,
};
