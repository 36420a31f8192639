import type { Migration } from './migration.js';

// Orders that complete in the request that places them (a market order or marketable limit filled in
// full, an ioc or fok) are paid straight from settled balances: nothing is reserved across time, so
// they open no hold. Migration 006 required every order to name its holds; this one requires it of
// orders that are still open only (docs/trading.md, "Money"). SQLite cannot change a CHECK in
// place, so the table is rebuilt (with foreign keys off, as SQLite's ALTER TABLE recipe says), and its
// indexes and triggers are created again. The three UNIQUE constraints on columns that are mostly
// NULL (the hold ids, client_order_id) become partial unique indexes, so the commonest order, which has
// none of them, writes three index entries fewer.
const STATES = `'received', 'transmitted', 'validated', 'acked', 'partially_filled', 'filled', 'cancel_requested', 'cancelled', 'rejected', 'expired'`;
const TERMINAL = `'filled', 'cancelled', 'rejected', 'expired'`;
const MAX = '9007199254740991';

export const ORDERS_WITHOUT_HOLDS: Migration = {
  version: 9,
  name: 'orders-without-holds',
  rebuildsTables: true,
  sql: `
CREATE TABLE orders_v9 (
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
  cash_hold_id TEXT REFERENCES ledger_holds(id),
  shares_hold_id TEXT REFERENCES ledger_holds(id),
  reserved_cash_micros INTEGER NOT NULL CHECK (reserved_cash_micros BETWEEN 0 AND ${MAX}),
  created_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  submitted_at TEXT,
  filled_at TEXT,
  canceled_at TEXT,
  expired_at TEXT,
  updated_at TEXT NOT NULL,
  CHECK ((type = 'limit') = (limit_price_micros IS NOT NULL)),
  CHECK ((state = 'filled') = (filled_qty = qty)),
  CHECK ((filled_qty = 0) = (filled_value_micros = 0)),
  CHECK ((state = 'cancel_requested') = (cancel_due_ms IS NOT NULL)),
  CHECK (state NOT IN ('cancelled', 'rejected') OR reason_code IS NOT NULL),
  CHECK ((filled_at IS NOT NULL) = (state = 'filled')),
  CHECK ((canceled_at IS NOT NULL) = (state = 'cancelled')),
  CHECK ((expired_at IS NOT NULL) = (state = 'expired')),
  CHECK ((submitted_at IS NOT NULL) = (transmitted = 1)),
  -- an order still open holds its reservation (cash, and a sell's shares); one that completed in the
  -- request that placed it was paid from settled balances and never needed a hold
  CHECK (cash_hold_id IS NULL OR reserved_cash_micros > 0),
  CHECK (state IN (${TERMINAL})
         OR ((cash_hold_id IS NULL) = (reserved_cash_micros = 0) AND (side = 'buy' OR shares_hold_id IS NOT NULL))),
  CHECK (state NOT IN ('received', 'validated') OR transmitted = 0)
) STRICT;
INSERT INTO orders_v9 SELECT * FROM orders;
DROP TABLE orders;
ALTER TABLE orders_v9 RENAME TO orders;

-- unique where set: an order without a hold or a client_order_id adds nothing to these indexes
CREATE UNIQUE INDEX orders_cash_hold ON orders(cash_hold_id) WHERE cash_hold_id IS NOT NULL;
CREATE UNIQUE INDEX orders_shares_hold ON orders(shares_hold_id) WHERE shares_hold_id IS NOT NULL;
CREATE UNIQUE INDEX orders_client_order_id ON orders(tenant_id, client_order_id) WHERE client_order_id IS NOT NULL;
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
`,
};
