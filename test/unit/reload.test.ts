// After a rollback the code did not plan (an unexpected error in a request's savepoint, a failed
// COMMIT), deps.reload() rebuilds what memory holds of the database: nothing rolled back stays visible.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { trader } from '../helpers/trading.js';
import { createGroupCommit } from '../../daemon/store/group-commit.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const quote = async (symbol: string) => (await t.req('GET', `/v1/instruments/${symbol}/quote`)).body;

describe('deps.reload() after a rollback the code did not plan', () => {
  it('a quote override, a halt and newly opened ledger accounts rolled back leave no trace in memory', async () => {
    const inv = await trader(t, 1_000);
    const tape = (await quote('COMI')).price_micros;
    const db = t.deps.db;
    const seedBefore = t.deps.db.prepare('SELECT seed, generation FROM sandbox_state WHERE id = 1').get();
    db.exec('BEGIN');
    t.deps.market.setQuote('COMI', tape + 1_000_000);
    t.deps.market.setHalt('TMGH', true);
    const journal = () =>
      t.deps.ledger.unit(() =>
        t.deps.ledger.transfer({
          tenantId: t.creds.tenant.tenant_id,
          debit: { system: 'adjustments', asset: 'FWRY' },
          credit: { investorId: inv, asset: 'FWRY', bucket: 'settled' },
          amount: 5,
          kind: 'journal',
          ref: 'reload-test',
        }),
      );
    // opens two FWRY accounts and caches their ids
    expect(journal()).toMatchObject({ ok: true });
    db.exec('ROLLBACK');
    // memory still believes what was rolled back
    expect(t.deps.market.isHalted('TMGH')).toBe(true);
    t.deps.reload();
    expect(t.deps.market.isHalted('TMGH')).toBe(false);
    expect((await quote('COMI')).price_micros).toBe(tape);
    expect(t.deps.db.prepare('SELECT seed, generation FROM sandbox_state WHERE id = 1').get()).toEqual(seedBefore);
    // the accounts are opened again, not looked up in a stale cache
    expect(db.transaction(journal)()).toMatchObject({ ok: true });
    expect(t.deps.ledger.position(t.creds.tenant.tenant_id, inv, 'FWRY').settled).toBe(5);
    expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
  });

  it('a failed COMMIT calls it (the batch is rolled back, every waiter refused)', async () => {
    let reloaded = 0;
    const g = createGroupCommit(t.deps.db, () => reloaded++);
    const joined = g.join();
    // a deferred foreign key that is still broken at COMMIT makes the COMMIT itself fail
    t.deps.db.pragma('defer_foreign_keys = ON');
    t.deps.db
      .prepare(
        "INSERT INTO ledger_accounts (tenant_id, owner, asset, bucket) VALUES ('tnt_nobody', 'system:rail', " +
          "'cash:EGP', 'system')",
      )
      .run();
    await expect(joined).rejects.toThrow(/FOREIGN KEY/);
    expect(reloaded).toBe(1);
    expect(t.deps.db.inTransaction).toBe(false);
  });
});
