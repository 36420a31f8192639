import type { Migration } from './migration.js';

// Stock splits (docs/backoffice.md "Corporate actions", docs/market.md "Splits"). A split is a row of
// market_splits: from its effective instant the tape divides the symbol's prices by the ratio (the tape
// stays computed; this table is what it reads). The split's approval also amends the open orders and
// pending settlements of the symbol, and those rows stay guarded by their triggers: an order's terms
// and a settlement's amount still never change by a plain UPDATE. The one sanctioned path is an
// amendment row, written first in the same transaction, that names the split, the row and exactly the
// values before and after; the trigger lets through an UPDATE that matches an amendment not yet used,
// and marks it used, and only when the change follows the split's arithmetic (the remaining quantity x
// ratio; a buy's limit no higher than limit / ratio, a sell's no lower; a settlement's amount x ratio).
// (The checks live in the triggers of orders and settlements, not on the amendment tables, so that a
// later rebuild of orders or settlements, which drops and renames the table, finds no trigger of
// another table naming it.)
// Every table here is append-only (a used mark only goes 0 -> 1). The activity feed learns SPLIT
// (SQLite cannot change a CHECK in place: the table is rebuilt as migration 009 rebuilt orders).
const MAX = '9007199254740991';
const TERMINAL = `'filled', 'cancelled', 'rejected', 'expired'`;

const SPLITS = `
CREATE TABLE market_splits (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  symbol TEXT NOT NULL CHECK (length(symbol) BETWEEN 1 AND 16),
  ratio INTEGER NOT NULL CHECK (ratio BETWEEN 2 AND 100),
  effective_ms INTEGER NOT NULL,
  effective_at TEXT NOT NULL,
  action_id TEXT,
  UNIQUE (symbol, effective_ms)
) STRICT;

CREATE TRIGGER market_splits_no_update BEFORE UPDATE ON market_splits
BEGIN
  SELECT RAISE(ABORT, 'market_splits: a split is never edited');
END;

CREATE TRIGGER market_splits_no_delete BEFORE DELETE ON market_splits
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'market_splits: a split is never deleted');
END;

CREATE TABLE order_amendments (
  seq INTEGER PRIMARY KEY,
  split_id TEXT NOT NULL REFERENCES market_splits(id),
  order_id TEXT NOT NULL REFERENCES orders(id),
  qty_before INTEGER NOT NULL CHECK (qty_before > 0),
  qty_after INTEGER NOT NULL CHECK (qty_after > 0 AND qty_after <= ${MAX}),
  limit_before INTEGER,
  limit_after INTEGER,
  shares_hold_before TEXT,
  shares_hold_after TEXT,
  used INTEGER NOT NULL DEFAULT 0 CHECK (used IN (0, 1)),
  UNIQUE (split_id, order_id),
  CHECK ((limit_before IS NULL) = (limit_after IS NULL)),
  CHECK ((shares_hold_before IS NULL) = (shares_hold_after IS NULL))
) STRICT;

CREATE TRIGGER order_amendments_append_only BEFORE UPDATE ON order_amendments
BEGIN
  SELECT RAISE(ABORT, 'order_amendments: only the used mark changes, once')
    WHERE OLD.used <> 0 OR NEW.used <> 1 OR NEW.split_id <> OLD.split_id OR NEW.order_id <> OLD.order_id
       OR NEW.qty_before <> OLD.qty_before OR NEW.qty_after <> OLD.qty_after
       OR NEW.limit_before IS NOT OLD.limit_before OR NEW.limit_after IS NOT OLD.limit_after
       OR NEW.shares_hold_before IS NOT OLD.shares_hold_before OR NEW.shares_hold_after IS NOT OLD.shares_hold_after;
END;

CREATE TRIGGER order_amendments_no_delete BEFORE DELETE ON order_amendments
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'order_amendments are never deleted');
END;

CREATE TABLE settlement_amendments (
  seq INTEGER PRIMARY KEY,
  split_id TEXT NOT NULL REFERENCES market_splits(id),
  settlement_id TEXT NOT NULL REFERENCES settlements(id),
  amount_before INTEGER NOT NULL CHECK (amount_before > 0),
  amount_after INTEGER NOT NULL CHECK (amount_after > 0 AND amount_after <= ${MAX}),
  used INTEGER NOT NULL DEFAULT 0 CHECK (used IN (0, 1)),
  UNIQUE (split_id, settlement_id)
) STRICT;

CREATE TRIGGER settlement_amendments_append_only BEFORE UPDATE ON settlement_amendments
BEGIN
  SELECT RAISE(ABORT, 'settlement_amendments: only the used mark changes, once')
    WHERE OLD.used <> 0 OR NEW.used <> 1 OR NEW.split_id <> OLD.split_id OR NEW.settlement_id <> OLD.settlement_id
       OR NEW.amount_before <> OLD.amount_before OR NEW.amount_after <> OLD.amount_after;
END;

CREATE TRIGGER settlement_amendments_no_delete BEFORE DELETE ON settlement_amendments
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'settlement_amendments are never deleted');
END;
`;

// orders_update as migration 009 left it, except that qty, limit_price_micros and shares_hold_id may
// change together when an unused amendment of a split of the order's symbol names exactly those values
// and they follow the split's ratio; every other term never changes.
const ORDERS_TRIGGER = `
DROP TRIGGER orders_update;
CREATE TRIGGER orders_update BEFORE UPDATE ON orders
BEGIN
  SELECT RAISE(ABORT, 'orders: a filled, cancelled, rejected or expired order is final') WHERE OLD.state IN (${TERMINAL});
  SELECT RAISE(ABORT, 'orders: the terms of an order never change')
    WHERE NEW.seq <> OLD.seq OR NEW.id <> OLD.id OR NEW.tenant_id <> OLD.tenant_id OR NEW.investor_id <> OLD.investor_id
       OR NEW.client_order_id IS NOT OLD.client_order_id OR NEW.symbol <> OLD.symbol OR NEW.side <> OLD.side
       OR NEW.type <> OLD.type OR NEW.time_in_force <> OLD.time_in_force OR NEW.routing <> OLD.routing
       OR NEW.cash_hold_id IS NOT OLD.cash_hold_id
       OR NEW.reserved_cash_micros <> OLD.reserved_cash_micros OR NEW.created_ms <> OLD.created_ms OR NEW.created_at <> OLD.created_at
       OR ((NEW.qty <> OLD.qty OR NEW.limit_price_micros IS NOT OLD.limit_price_micros OR NEW.shares_hold_id IS NOT OLD.shares_hold_id)
           AND NOT EXISTS (
             SELECT 1 FROM order_amendments a JOIN market_splits s ON s.id = a.split_id
              WHERE a.order_id = OLD.id AND a.used = 0 AND s.symbol = OLD.symbol
                AND a.qty_before = OLD.qty AND a.qty_after = NEW.qty
                AND a.limit_before IS OLD.limit_price_micros AND a.limit_after IS NEW.limit_price_micros
                AND a.shares_hold_before IS OLD.shares_hold_id AND a.shares_hold_after IS NEW.shares_hold_id
                AND NEW.qty = OLD.filled_qty + (OLD.qty - OLD.filled_qty) * s.ratio
                AND (NEW.limit_price_micros IS NULL
                     OR (NEW.limit_price_micros > 0 AND CASE OLD.side WHEN 'buy' THEN NEW.limit_price_micros * s.ratio <= OLD.limit_price_micros
                                                                      ELSE NEW.limit_price_micros * s.ratio >= OLD.limit_price_micros END))));
  SELECT RAISE(ABORT, 'orders: executions only accumulate')
    WHERE NEW.filled_qty < OLD.filled_qty OR NEW.filled_value_micros < OLD.filled_value_micros
       OR NEW.fees_micros < OLD.fees_micros OR NEW.withholding_micros < OLD.withholding_micros
       OR NEW.evaluated_ms < OLD.evaluated_ms OR NEW.transmitted < OLD.transmitted;
  SELECT RAISE(ABORT, 'orders: an order never goes back to received or validated')
    WHERE (NEW.state = 'received' AND OLD.state <> 'received')
       OR (NEW.state = 'validated' AND OLD.state NOT IN ('received', 'validated'));
END;

CREATE TRIGGER orders_amendment_used AFTER UPDATE ON orders
  WHEN NEW.qty <> OLD.qty OR NEW.limit_price_micros IS NOT OLD.limit_price_micros OR NEW.shares_hold_id IS NOT OLD.shares_hold_id
BEGIN
  UPDATE order_amendments SET used = 1
   WHERE order_id = OLD.id AND used = 0 AND qty_before = OLD.qty AND qty_after = NEW.qty
     AND limit_before IS OLD.limit_price_micros AND limit_after IS NEW.limit_price_micros
     AND shares_hold_before IS OLD.shares_hold_id AND shares_hold_after IS NEW.shares_hold_id;
END;
`;

// settlements_update as migration 006 wrote it, plus one pending -> pending change: the amount, when an
// unused amendment names it.
const SETTLEMENTS_TRIGGER = `
DROP TRIGGER settlements_update;
CREATE TRIGGER settlements_update BEFORE UPDATE ON settlements
BEGIN
  SELECT RAISE(ABORT, 'settlements: only pending -> settled, once')
    WHERE NEW.id <> OLD.id OR NEW.fill_id <> OLD.fill_id OR NEW.asset <> OLD.asset
       OR NEW.due_ms <> OLD.due_ms OR NEW.settlement_date <> OLD.settlement_date OR OLD.state <> 'pending'
       OR (NEW.state = 'settled' AND NEW.amount <> OLD.amount)
       OR (NEW.state = 'pending' AND NOT EXISTS (
             SELECT 1 FROM settlement_amendments a JOIN market_splits s ON s.id = a.split_id
              WHERE a.settlement_id = OLD.id AND a.used = 0 AND s.symbol = OLD.asset
                AND a.amount_before = OLD.amount AND a.amount_after = NEW.amount AND NEW.amount = OLD.amount * s.ratio));
END;

CREATE TRIGGER settlements_amendment_used AFTER UPDATE ON settlements
  WHEN NEW.amount <> OLD.amount
BEGIN
  UPDATE settlement_amendments SET used = 1
   WHERE settlement_id = OLD.id AND used = 0 AND amount_before = OLD.amount AND amount_after = NEW.amount;
END;
`;

const ACTIVITIES = `
CREATE TABLE activities_v25 (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  activity_type TEXT NOT NULL
    CHECK (activity_type IN ('CSD', 'CSW', 'FILL', 'FEE', 'TAX', 'DIV', 'INT', 'JNLC', 'JNLS', 'SUB', 'RED', 'SPLIT')),
  net_amount_micros INTEGER NOT NULL CHECK (net_amount_micros BETWEEN -${MAX} AND ${MAX}),
  description TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'executed' CHECK (status IN ('executed')),
  ref_type TEXT CHECK (ref_type IN ('transfer', 'order', 'fund_order', 'dividend', 'journal', 'split')),
  ref_id TEXT,
  symbol TEXT,
  side TEXT CHECK (side IN ('buy', 'sell')),
  qty INTEGER CHECK (qty > 0),
  price_micros INTEGER CHECK (price_micros > 0),
  at TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  CHECK ((ref_type IS NULL) = (ref_id IS NULL))
) STRICT;
INSERT INTO activities_v25 SELECT * FROM activities;
DROP TABLE activities;
ALTER TABLE activities_v25 RENAME TO activities;
CREATE INDEX activities_investor ON activities(tenant_id, investor_id, seq DESC);

CREATE TRIGGER activities_no_update BEFORE UPDATE ON activities
BEGIN
  SELECT RAISE(ABORT, 'activities are immutable');
END;

CREATE TRIGGER activities_no_delete BEFORE DELETE ON activities
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'activities are immutable');
END;
`;

export const SPLITS_MIGRATION: Migration = {
  version: 28,
  name: 'splits',
  rebuildsTables: true,
  sql: SPLITS + ORDERS_TRIGGER + SETTLEMENTS_TRIGGER + ACTIVITIES,
};
