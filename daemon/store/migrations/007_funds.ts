import type { Migration } from './migration.js';

// Money-market fund orders, sandbox NAV overrides, and dividends with their entitlements
// (docs/portfolio.md). The database keeps each lifecycle closed whatever the code does:
//  - a fund order moves received -> validated -> processed -> settled, or to rejected before it is
//    processed; its terms never change; the NAV and the results exist exactly from processed on;
//  - a dividend moves declared -> recorded -> paid; an entitlement pending -> paid | failed, once;
//  - NAV overrides, fund orders, dividends and entitlements are never deleted (except by the reset).
// Money moves only in the ledger (postings whose ref is the fund order's or the dividend's id).
const MAX = '9007199254740991';

export const FUNDS: Migration = {
  version: 7,
  name: 'funds_and_dividends',
  sql: `
CREATE TABLE fund_orders (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  fund_code TEXT NOT NULL CHECK (length(fund_code) BETWEEN 1 AND 35),
  side TEXT NOT NULL CHECK (side IN ('subscribe', 'redeem')),
  -- what was asked: cash for a subscription, unit-micros for a redemption
  amount_micros INTEGER CHECK (amount_micros BETWEEN 1 AND ${MAX}),
  units_micros INTEGER CHECK (units_micros BETWEEN 1 AND ${MAX}),
  state TEXT NOT NULL CHECK (state IN ('received', 'validated', 'processed', 'settled', 'rejected')),
  -- from processed on: the NAV applied, the sweep date it belongs to, and what moved
  nav_micros INTEGER CHECK (nav_micros > 0),
  nav_date TEXT,
  result_units_micros INTEGER CHECK (result_units_micros BETWEEN 1 AND ${MAX}),
  result_amount_micros INTEGER CHECK (result_amount_micros BETWEEN 1 AND ${MAX}),
  reason_code TEXT,
  created_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  processed_at TEXT,
  settled_at TEXT,
  updated_at TEXT NOT NULL,
  CHECK ((side = 'subscribe') = (amount_micros IS NOT NULL)),
  CHECK ((side = 'redeem') = (units_micros IS NOT NULL)),
  CHECK ((state IN ('processed', 'settled')) = (nav_micros IS NOT NULL)),
  CHECK ((nav_micros IS NULL) = (nav_date IS NULL)),
  CHECK ((nav_micros IS NULL) = (result_units_micros IS NULL)),
  CHECK ((nav_micros IS NULL) = (result_amount_micros IS NULL)),
  CHECK ((nav_micros IS NULL) = (processed_at IS NULL)),
  CHECK ((state = 'settled') = (settled_at IS NOT NULL)),
  CHECK ((state = 'rejected') = (reason_code IS NOT NULL)),
  -- a subscription is charged at most what was asked; a redemption redeems exactly what was asked
  CHECK (side <> 'subscribe' OR result_amount_micros IS NULL OR result_amount_micros <= amount_micros),
  CHECK (side <> 'redeem' OR result_units_micros IS NULL OR result_units_micros = units_micros)
) STRICT;
CREATE INDEX fund_orders_investor ON fund_orders(tenant_id, investor_id, seq);
-- the portfolio's cost basis reads an investor's fills
CREATE INDEX fills_investor ON fills(tenant_id, investor_id, seq);

CREATE TRIGGER fund_orders_update BEFORE UPDATE ON fund_orders
BEGIN
  SELECT RAISE(ABORT, 'fund_orders: a settled or rejected fund order is final') WHERE OLD.state IN ('settled', 'rejected');
  SELECT RAISE(ABORT, 'fund_orders: the terms of a fund order never change')
    WHERE NEW.seq <> OLD.seq OR NEW.id <> OLD.id OR NEW.tenant_id <> OLD.tenant_id OR NEW.investor_id <> OLD.investor_id
       OR NEW.fund_code <> OLD.fund_code OR NEW.side <> OLD.side OR NEW.amount_micros IS NOT OLD.amount_micros
       OR NEW.units_micros IS NOT OLD.units_micros OR NEW.created_ms <> OLD.created_ms OR NEW.created_at <> OLD.created_at
       OR (OLD.nav_micros IS NOT NULL AND (NEW.nav_micros IS NOT OLD.nav_micros OR NEW.nav_date IS NOT OLD.nav_date
           OR NEW.result_units_micros IS NOT OLD.result_units_micros OR NEW.result_amount_micros IS NOT OLD.result_amount_micros
           OR NEW.processed_at IS NOT OLD.processed_at));
  SELECT RAISE(ABORT, 'fund_orders: not a transition of the fund order state machine')
    WHERE NOT ((OLD.state = 'received' AND NEW.state IN ('validated', 'rejected'))
            OR (OLD.state = 'validated' AND NEW.state IN ('processed', 'rejected'))
            OR (OLD.state = 'processed' AND NEW.state = 'settled'));
END;

CREATE TRIGGER fund_orders_no_delete BEFORE DELETE ON fund_orders
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'fund orders are never deleted');
END;

-- POST /admin/sandbox/nav: the NAV after the sweep of sweep_date, from at_ms on; later sweeps accrue from it.
CREATE TABLE fund_nav_overrides (
  id INTEGER PRIMARY KEY,
  fund_code TEXT NOT NULL,
  sweep_date TEXT NOT NULL,
  nav_micros INTEGER NOT NULL CHECK (nav_micros BETWEEN 1 AND ${MAX}),
  at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX fund_nav_overrides_fund ON fund_nav_overrides(fund_code, at_ms, id);

CREATE TRIGGER fund_nav_overrides_no_update BEFORE UPDATE ON fund_nav_overrides
BEGIN
  SELECT RAISE(ABORT, 'NAV overrides are append-only');
END;

CREATE TRIGGER fund_nav_overrides_no_delete BEFORE DELETE ON fund_nav_overrides
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'NAV overrides are append-only');
END;

CREATE TABLE dividends (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  symbol TEXT NOT NULL CHECK (length(symbol) BETWEEN 1 AND 16),
  amount_per_share_micros INTEGER NOT NULL CHECK (amount_per_share_micros BETWEEN 1 AND ${MAX}),
  ex_date TEXT NOT NULL,
  pay_date TEXT NOT NULL,
  withholding_bps INTEGER NOT NULL CHECK (withholding_bps BETWEEN 0 AND 10000),
  -- holders at this instant (the start of ex_date, Africa/Cairo) are entitled
  record_ms INTEGER NOT NULL,
  pay_ms INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('declared', 'recorded', 'paid')),
  declared_at TEXT NOT NULL,
  recorded_at TEXT,
  paid_at TEXT,
  CHECK (pay_date >= ex_date AND pay_ms >= record_ms),
  CHECK ((state = 'declared') = (recorded_at IS NULL)),
  CHECK ((state = 'paid') = (paid_at IS NOT NULL))
) STRICT;

CREATE TRIGGER dividends_update BEFORE UPDATE ON dividends
BEGIN
  SELECT RAISE(ABORT, 'dividends: only declared -> recorded -> paid')
    WHERE NOT ((OLD.state = 'declared' AND NEW.state = 'recorded') OR (OLD.state = 'recorded' AND NEW.state = 'paid'))
       OR NEW.id <> OLD.id OR NEW.symbol <> OLD.symbol OR NEW.amount_per_share_micros <> OLD.amount_per_share_micros
       OR NEW.ex_date <> OLD.ex_date OR NEW.pay_date <> OLD.pay_date OR NEW.withholding_bps <> OLD.withholding_bps
       OR NEW.record_ms <> OLD.record_ms OR NEW.pay_ms <> OLD.pay_ms OR NEW.declared_at <> OLD.declared_at
       OR (OLD.recorded_at IS NOT NULL AND NEW.recorded_at IS NOT OLD.recorded_at);
END;

CREATE TRIGGER dividends_no_delete BEFORE DELETE ON dividends
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'dividends are never deleted');
END;

-- One row per holder at the record instant: shares held (settled, reserved and unsettled) and what
-- the holder is paid. failed: the payment could not be booked exactly (AMOUNT_TOO_LARGE).
CREATE TABLE dividend_entitlements (
  seq INTEGER PRIMARY KEY,
  dividend_id TEXT NOT NULL REFERENCES dividends(id),
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  shares INTEGER NOT NULL CHECK (shares BETWEEN 1 AND ${MAX}),
  gross_micros INTEGER CHECK (gross_micros BETWEEN 1 AND ${MAX}),
  tax_micros INTEGER CHECK (tax_micros >= 0),
  net_micros INTEGER CHECK (net_micros >= 0),
  state TEXT NOT NULL CHECK (state IN ('pending', 'paid', 'failed')),
  reason_code TEXT,
  paid_at TEXT,
  UNIQUE (dividend_id, investor_id),
  CHECK ((gross_micros IS NULL) = (tax_micros IS NULL) AND (gross_micros IS NULL) = (net_micros IS NULL)),
  CHECK (gross_micros IS NULL OR gross_micros = tax_micros + net_micros),
  CHECK ((state = 'failed') = (reason_code IS NOT NULL)),
  CHECK (state = 'failed' OR gross_micros IS NOT NULL),
  CHECK ((state = 'paid') = (paid_at IS NOT NULL))
) STRICT;
CREATE INDEX dividend_entitlements_investor ON dividend_entitlements(tenant_id, investor_id);

CREATE TRIGGER dividend_entitlements_update BEFORE UPDATE ON dividend_entitlements
BEGIN
  SELECT RAISE(ABORT, 'dividend entitlements: only pending -> paid | failed, once')
    WHERE OLD.state <> 'pending' OR NEW.state NOT IN ('paid', 'failed')
       OR NEW.dividend_id <> OLD.dividend_id OR NEW.investor_id <> OLD.investor_id OR NEW.shares <> OLD.shares
       OR NEW.gross_micros IS NOT OLD.gross_micros OR NEW.tax_micros IS NOT OLD.tax_micros OR NEW.net_micros IS NOT OLD.net_micros;
END;

CREATE TRIGGER dividend_entitlements_no_delete BEFORE DELETE ON dividend_entitlements
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'dividend entitlements are never deleted');
END;
`,
};
