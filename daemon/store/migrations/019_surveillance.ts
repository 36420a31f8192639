import type { Migration } from './migration.js';

// Trade surveillance (docs/surveillance.md): the runs of the rules (at each session close, and on
// demand), the alerts they raise and the operator's threshold overrides. The database keeps what the
// API promises whatever the code does: one alert per (rule, investor, symbol, session date), so a
// second run of the same session raises nothing twice; an alert's evidence never changes; its state
// moves only open -> escalated -> closed or open -> closed, and a closed alert carries its note.
export const SURVEILLANCE: Migration = {
  version: 19,
  name: 'surveillance',
  sql: `
-- What a run reads: one session's fills, and the orders placed since the previous close.
CREATE INDEX IF NOT EXISTS fills_trade_date ON fills(trade_date);
CREATE INDEX IF NOT EXISTS orders_created_ms ON orders(created_ms);

CREATE TABLE IF NOT EXISTS surveillance_thresholds (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  wash_window_minutes INTEGER CHECK (wash_window_minutes IS NULL OR wash_window_minutes BETWEEN 1 AND 1440),
  layering_min_cancels INTEGER CHECK (layering_min_cancels IS NULL OR layering_min_cancels BETWEEN 1 AND 10000),
  layering_cancel_within_minutes INTEGER CHECK (layering_cancel_within_minutes IS NULL OR layering_cancel_within_minutes BETWEEN 1 AND 1440),
  concentration_share_bps INTEGER CHECK (concentration_share_bps IS NULL OR concentration_share_bps BETWEEN 0 AND 9999),
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS surveillance_runs (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  trigger TEXT NOT NULL CHECK (trigger IN ('session_close', 'on_demand')),
  session_date TEXT NOT NULL CHECK (session_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  thresholds TEXT NOT NULL,
  alerts_raised INTEGER NOT NULL CHECK (alerts_raised >= 0),
  ran_at TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS surveillance_alerts (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL REFERENCES surveillance_runs(id),
  rule TEXT NOT NULL CHECK (rule IN ('wash_trade', 'layering', 'concentration')),
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  symbol TEXT NOT NULL CHECK (length(symbol) BETWEEN 1 AND 16),
  session_date TEXT NOT NULL,
  window_start TEXT NOT NULL,
  window_end TEXT NOT NULL CHECK (window_end >= window_start),
  order_ids TEXT NOT NULL,
  fill_ids TEXT NOT NULL,
  detail TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'escalated', 'closed')),
  note TEXT CHECK (note IS NULL OR length(note) BETWEEN 1 AND 2000),
  escalated_at TEXT,
  closed_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (rule, investor_id, symbol, session_date),
  CHECK ((state = 'closed') = (closed_at IS NOT NULL)),
  CHECK (state <> 'closed' OR note IS NOT NULL)
) STRICT;
CREATE INDEX IF NOT EXISTS surveillance_alerts_state ON surveillance_alerts(state, seq);
CREATE INDEX IF NOT EXISTS surveillance_alerts_investor ON surveillance_alerts(investor_id, seq);

CREATE TRIGGER IF NOT EXISTS surveillance_alerts_update BEFORE UPDATE ON surveillance_alerts
BEGIN
  SELECT RAISE(ABORT, 'surveillance_alerts: the evidence of an alert never changes')
    WHERE NEW.id <> OLD.id OR NEW.run_id <> OLD.run_id OR NEW.rule <> OLD.rule OR NEW.investor_id <> OLD.investor_id
       OR NEW.symbol <> OLD.symbol OR NEW.session_date <> OLD.session_date OR NEW.window_start <> OLD.window_start
       OR NEW.window_end <> OLD.window_end OR NEW.order_ids <> OLD.order_ids OR NEW.fill_ids <> OLD.fill_ids
       OR NEW.detail <> OLD.detail OR NEW.created_at <> OLD.created_at;
  SELECT RAISE(ABORT, 'surveillance_alerts: open -> escalated -> closed, or open -> closed')
    WHERE NOT ((OLD.state = 'open' AND NEW.state IN ('escalated', 'closed')) OR (OLD.state = 'escalated' AND NEW.state = 'closed'));
END;

CREATE TRIGGER IF NOT EXISTS surveillance_alerts_no_delete BEFORE DELETE ON surveillance_alerts
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'surveillance alerts are never deleted');
END;
`,
};
