import type { Migration } from './migration.js';

// The double-entry ledger (docs/ledger.md). The database itself keeps the invariants, whatever the
// code does: a balance changes only by a posting (so it always equals the sum of its postings), a
// posting moves a positive amount between two accounts of one tenant and one asset (so per asset the
// balances sum to zero), an investor balance is never negative, a reserved balance moves only with a
// pending hold of its investor and asset, a hold goes pending -> posted | voided once, and postings
// and activities are never edited or deleted.
//
// `sandbox_state.wiping` is raised by the sandbox reset only, for the length of its transaction: it
// is the one way past the append-only triggers of this and later migrations.
const MAX = '9007199254740991';

export const LEDGER: Migration = {
  version: 4,
  name: 'ledger',
  sql: `
ALTER TABLE sandbox_state ADD COLUMN wiping INTEGER NOT NULL DEFAULT 0 CHECK (wiping IN (0, 1));

CREATE TABLE ledger_accounts (
  id INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  -- an investor id (inv_...) or a system account (system:<name>)
  owner TEXT NOT NULL,
  -- cash:EGP, an equity symbol (COMI), or fund:<code>
  asset TEXT NOT NULL,
  bucket TEXT NOT NULL CHECK (bucket IN ('settled', 'reserved', 'unsettled', 'system')),
  balance INTEGER NOT NULL DEFAULT 0 CHECK (balance BETWEEN -${MAX} AND ${MAX}),
  -- the last posting applied to this account: balances move forward one posting at a time
  last_entry_id INTEGER,
  UNIQUE (tenant_id, owner, asset, bucket),
  CHECK ((bucket = 'system') = (owner GLOB 'system:?*')),
  CHECK (bucket = 'system' OR balance >= 0),
  CHECK (asset GLOB 'cash:[A-Z][A-Z][A-Z]'
         OR (asset GLOB 'fund:?*' AND length(asset) <= 40 AND substr(asset, 6) NOT GLOB '*[^A-Z0-9_-]*')
         OR (length(asset) BETWEEN 1 AND 16 AND asset NOT GLOB '*[^A-Z0-9]*'))
) STRICT;

CREATE TRIGGER ledger_accounts_insert BEFORE INSERT ON ledger_accounts
BEGIN
  SELECT RAISE(ABORT, 'ledger: an account opens with a zero balance')
    WHERE NEW.balance <> 0 OR NEW.last_entry_id IS NOT NULL;
  SELECT RAISE(ABORT, 'ledger: an investor account needs an investor of the same tenant')
    WHERE NEW.bucket <> 'system'
      AND NOT EXISTS (SELECT 1 FROM investors WHERE id = NEW.owner AND tenant_id = NEW.tenant_id);
END;

CREATE TRIGGER ledger_accounts_update BEFORE UPDATE ON ledger_accounts
BEGIN
  SELECT RAISE(ABORT, 'ledger: an account never changes owner, asset or bucket')
    WHERE NEW.id <> OLD.id OR NEW.tenant_id <> OLD.tenant_id OR NEW.owner <> OLD.owner
       OR NEW.asset <> OLD.asset OR NEW.bucket <> OLD.bucket;
  SELECT RAISE(ABORT, 'ledger: a balance changes only by a new posting to the account')
    WHERE NEW.last_entry_id IS NULL
       OR NEW.last_entry_id <= COALESCE(OLD.last_entry_id, 0)
       OR NOT EXISTS (
         SELECT 1 FROM ledger_entries e
          WHERE e.id = NEW.last_entry_id
            AND ((e.credit_account_id = NEW.id AND NEW.balance = OLD.balance + e.amount)
              OR (e.debit_account_id = NEW.id AND NEW.balance = OLD.balance - e.amount)));
END;

CREATE TRIGGER ledger_accounts_delete BEFORE DELETE ON ledger_accounts
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'ledger: accounts are never deleted');
END;

CREATE TABLE ledger_holds (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL,
  asset TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0 AND amount <= ${MAX}),
  posted INTEGER NOT NULL DEFAULT 0 CHECK (posted >= 0),
  remaining INTEGER NOT NULL CHECK (remaining >= 0),
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'posted', 'voided')),
  ref TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  closed_ms INTEGER,
  CHECK (posted + remaining <= amount),
  CHECK ((state = 'pending') = (closed_ms IS NULL)),
  CHECK (state <> 'pending' OR (remaining > 0 AND posted + remaining = amount)),
  CHECK (state <> 'posted' OR (remaining = 0 AND posted = amount)),
  CHECK (state <> 'voided' OR remaining = 0)
) STRICT;
CREATE INDEX ledger_holds_investor ON ledger_holds(tenant_id, investor_id, asset, state);

CREATE TRIGGER ledger_holds_insert BEFORE INSERT ON ledger_holds
BEGIN
  SELECT RAISE(ABORT, 'ledger: a hold starts pending with nothing posted')
    WHERE NEW.state <> 'pending' OR NEW.posted <> 0 OR NEW.remaining <> NEW.amount;
END;

CREATE TRIGGER ledger_holds_update BEFORE UPDATE ON ledger_holds
BEGIN
  SELECT RAISE(ABORT, 'ledger: a posted or voided hold is final') WHERE OLD.state <> 'pending';
  SELECT RAISE(ABORT, 'ledger: a hold is never edited')
    WHERE NEW.seq <> OLD.seq OR NEW.id <> OLD.id OR NEW.tenant_id <> OLD.tenant_id
       OR NEW.investor_id <> OLD.investor_id OR NEW.asset <> OLD.asset OR NEW.amount <> OLD.amount
       OR NEW.ref <> OLD.ref OR NEW.created_ms <> OLD.created_ms;
  SELECT RAISE(ABORT, 'ledger: a post moves part of the remainder; a void releases all of it')
    WHERE NOT (
      (NEW.state IN ('pending', 'posted') AND NEW.remaining < OLD.remaining
        AND NEW.posted - OLD.posted = OLD.remaining - NEW.remaining)
      OR (NEW.state = 'voided' AND NEW.remaining = 0 AND NEW.posted = OLD.posted));
END;

CREATE TRIGGER ledger_holds_delete BEFORE DELETE ON ledger_holds
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'ledger: holds are never deleted');
END;

CREATE TABLE ledger_entries (
  id INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  debit_account_id INTEGER NOT NULL REFERENCES ledger_accounts(id),
  credit_account_id INTEGER NOT NULL REFERENCES ledger_accounts(id),
  amount INTEGER NOT NULL CHECK (amount > 0 AND amount <= ${MAX}),
  kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 40),
  ref TEXT NOT NULL,
  hold_id TEXT REFERENCES ledger_holds(id),
  at_ms INTEGER NOT NULL,
  CHECK (debit_account_id <> credit_account_id)
) STRICT;
CREATE INDEX ledger_entries_debit ON ledger_entries(debit_account_id);
CREATE INDEX ledger_entries_credit ON ledger_entries(credit_account_id);
CREATE INDEX ledger_entries_ref ON ledger_entries(tenant_id, ref);

CREATE TRIGGER ledger_entries_check BEFORE INSERT ON ledger_entries
BEGIN
  SELECT RAISE(ABORT, 'ledger: a posting needs two accounts of its tenant')
    WHERE (SELECT COUNT(*) FROM ledger_accounts
            WHERE id IN (NEW.debit_account_id, NEW.credit_account_id) AND tenant_id = NEW.tenant_id) <> 2;
  SELECT RAISE(ABORT, 'ledger: a posting moves one asset: the two accounts hold different assets')
    WHERE (SELECT asset FROM ledger_accounts WHERE id = NEW.debit_account_id)
       <> (SELECT asset FROM ledger_accounts WHERE id = NEW.credit_account_id);
  SELECT RAISE(ABORT, 'ledger: a reserved balance moves only with a pending hold of its investor and asset')
    WHERE EXISTS (
      SELECT 1 FROM ledger_accounts a
       WHERE a.id IN (NEW.debit_account_id, NEW.credit_account_id) AND a.bucket = 'reserved'
         AND NOT EXISTS (SELECT 1 FROM ledger_holds h
                          WHERE h.id = NEW.hold_id AND h.state = 'pending' AND h.tenant_id = a.tenant_id
                            AND h.investor_id = a.owner AND h.asset = a.asset));
END;

CREATE TRIGGER ledger_entries_apply AFTER INSERT ON ledger_entries
BEGIN
  UPDATE ledger_accounts SET balance = balance - NEW.amount, last_entry_id = NEW.id WHERE id = NEW.debit_account_id;
  UPDATE ledger_accounts SET balance = balance + NEW.amount, last_entry_id = NEW.id WHERE id = NEW.credit_account_id;
END;

CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN
  SELECT RAISE(ABORT, 'ledger: postings are immutable');
END;

CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'ledger: postings are immutable');
END;

-- The investor's activity feed: one row per booked event (deposit, withdrawal, fill, fee, tax,
-- dividend, journal, fund subscription or redemption), written in the transaction of its postings.
CREATE TABLE activities (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  activity_type TEXT NOT NULL
    CHECK (activity_type IN ('CSD', 'CSW', 'FILL', 'FEE', 'TAX', 'DIV', 'INT', 'JNLC', 'JNLS', 'SUB', 'RED')),
  net_amount_micros INTEGER NOT NULL CHECK (net_amount_micros BETWEEN -${MAX} AND ${MAX}),
  description TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'executed' CHECK (status IN ('executed')),
  ref_type TEXT CHECK (ref_type IN ('transfer', 'order', 'fund_order', 'dividend', 'journal')),
  ref_id TEXT,
  symbol TEXT,
  side TEXT CHECK (side IN ('buy', 'sell')),
  qty INTEGER CHECK (qty > 0),
  price_micros INTEGER CHECK (price_micros > 0),
  at TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  CHECK ((ref_type IS NULL) = (ref_id IS NULL))
) STRICT;
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
`,
};
