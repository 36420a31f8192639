// Migrations: a migration that rebuilds a table (009 rebuilds orders) keeps every row and every
// reference to it, and the rebuilt table enforces its new constraints.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { order, trader } from '../helpers/trading.js';
import { migrate } from '../../daemon/store/db.js';
import { MIGRATIONS } from '../../daemon/store/migrations/index.js';
import { createTradingRepo } from '../../daemon/trading/repository.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));

describe('migration 009 (orders that complete on placement need no hold)', () => {
  it('re-applied to a store with orders of every kind, keeps each row, its fills and holds, and the foreign keys hold', async () => {
    const inv = await trader(t, 100_000);
    await advance(t, { until: '2026-11-22T10:05:00+02:00' });
    // the lowest price of TMGH's band on the grid: marketable only if the tape falls 20 %
    const q = (await t.req('GET', '/v1/instruments/TMGH/quote')).body;
    const LIMIT = Math.ceil(q.band.lower_micros / q.tick_micros) * q.tick_micros;
    const placed = [
      await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 2 }),
      await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 13 }),
      await order(t, {
        investor_id: inv,
        symbol: 'TMGH',
        side: 'buy',
        type: 'limit',
        qty: 1,
        limit_price_micros: LIMIT,
        time_in_force: 'gtc',
        client_order_id: 'resting-1',
      }),
    ];
    expect(placed.map((p) => p.body.status)).toEqual(['filled', 'partially_filled', 'new']);
    const db = t.deps.db;
    const before = db.prepare('SELECT * FROM orders ORDER BY seq').all();
    const fills = db.prepare('SELECT COUNT(*) AS n FROM fills').get();
    expect((before as Array<{ cash_hold_id: string | null }>).map((o) => o.cash_hold_id === null)).toEqual([
      true,
      false,
      false,
    ]);

    // re-apply 009 alone (later migrations add columns, which cannot be added twice)
    db.pragma('user_version = 8');
    migrate(db, 9);
    expect(db.pragma('user_version', { simple: true })).toBe(9);
    db.pragma(`user_version = ${LATEST}`);

    expect(db.prepare('SELECT * FROM orders ORDER BY seq').all()).toEqual(before);
    expect(db.prepare('SELECT COUNT(*) AS n FROM fills').get()).toEqual(fills);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // the rebuilt table still refuses what it must
    const open = before[2] as Record<string, unknown>;
    expect(() => db.prepare('UPDATE orders SET cash_hold_id = NULL WHERE id = ?').run(open.id)).toThrow(
      /terms of an order never change/,
    );
    const copy = { ...open, seq: null, id: 'ord_copy', client_order_id: 'resting-2', cash_hold_id: null };
    const cols = Object.keys(copy);
    const insert = db.prepare(
      `INSERT INTO orders (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`,
    );
    expect(() => insert.run(copy)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run({ ...copy, client_order_id: 'resting-1', cash_hold_id: open.cash_hold_id })).toThrow(
      /UNIQUE constraint failed/,
    );
    // and the daemon goes on working on it
    const next = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    expect(next.body.status).toBe('filled');
    expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
  });
});

// A list of three or more constants after IN (a CHECK, a trigger's condition, a partial index's WHERE)
// makes SQLite build a temporary b-tree each time the statement runs (docs/bench-history.md, "The sixth pass").
const LIST = /\bIN\s*\(\s*(?:'[^']*'|-?\d+)\s*,\s*(?:'[^']*'|-?\d+)\s*,/i;
// every table a filled market order writes (docs/bench.md, "The floor"); ledger_accounts and
// sandbox_state are only updated, and SQLite checks on an UPDATE only the CHECKs naming a changed column:
// a posting changes balance and last_entry_id, not the bucket that ledger_accounts' list is about
const ORDER_TABLES = [
  'orders',
  'ledger_entries',
  'fills',
  'activities',
  'settlements',
  'events',
  'id_seq',
  'idempotency',
  'audit_log',
  'sandbox_state',
  'audit_seal',
  'journal',
];

describe('migration 029 (the same rules, checked without temporary tables)', () => {
  it('the tables a signed order writes check their rules without a list of three constants', () => {
    const objects = t.deps.db
      .prepare<[], { name: string; tbl_name: string; sql: string }>(
        'SELECT name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL',
      )
      .all();
    const listed = objects.filter((o) => ORDER_TABLES.includes(o.tbl_name) && LIST.test(o.sql)).map((o) => o.name);
    expect(listed).toEqual([]);
    const accounts = objects
      .filter((o) => o.tbl_name === 'ledger_accounts')
      .map((o) => o.sql)
      .join('\n');
    const balanceRules = accounts
      .split('\n')
      .filter((line) => /CHECK/.test(line) && /balance|last_entry_id/.test(line));
    expect(balanceRules.length).toBeGreaterThan(0);
    expect(balanceRules.filter((line) => LIST.test(line))).toEqual([]);
    // the pattern finds what it is for
    expect(LIST.test("CHECK (state IN ('a', 'b', 'c'))")).toBe(true);
    expect(LIST.test("CHECK (side IN ('buy', 'sell'))")).toBe(false);
  });

  it('re-applied to a store with orders, activities and a journal, keeps every row, and the rules still refuse', async () => {
    const inv = await trader(t, 100_000);
    await advance(t, { until: '2026-11-22T10:05:00+02:00' });
    const q = (await t.req('GET', '/v1/instruments/TMGH/quote')).body;
    const LIMIT = Math.ceil(q.band.lower_micros / q.tick_micros) * q.tick_micros;
    await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 2 });
    const resting = await order(t, {
      investor_id: inv,
      symbol: 'TMGH',
      side: 'buy',
      type: 'limit',
      qty: 1,
      limit_price_micros: LIMIT,
      time_in_force: 'gtc',
    });
    expect(resting.body.status).toBe('new');
    const db = t.deps.db;
    const rows = () =>
      ['orders', 'activities', 'journal'].map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY seq`).all());
    const before = rows();
    expect(before.map((r) => r.length > 0)).toEqual([true, true, true]);

    // 029 rebuilds the journal with the columns it knew; migration 030 then adds answer_in_body again
    // (default 0), so the flags of entries sealed together are put back as they were
    const together = db
      .prepare<[], { seq: number }>('SELECT seq FROM journal WHERE answer_in_body = 1')
      .all()
      .map((r) => r.seq);
    expect(together.length).toBeGreaterThan(0);
    db.pragma('user_version = 28');
    migrate(db, 29);
    migrate(db, 30); // later migrations add columns to tables 029 does not rebuild, which cannot be added twice
    // ... and 042 adds the journal's fault column, which 029's rebuild of the journal does not know
    db.pragma('user_version = 41');
    migrate(db, 42);
    db.pragma(`user_version = ${LATEST}`);
    const guard = db
      .prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'journal_no_update'")
      .get()!.sql;
    db.exec('DROP TRIGGER journal_no_update');
    for (const seq of together) db.prepare('UPDATE journal SET answer_in_body = 1 WHERE seq = ?').run(seq);
    db.exec(guard);

    expect(rows()).toEqual(before);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // the open order is still found through the partial index's terms, and the final one is not
    expect(createTradingRepo(db).openOrderIds()).toEqual([resting.body.order_id]);
    const filled = (before[0] as Array<Record<string, unknown>>)[0];
    const copy = (over: Record<string, unknown>) => {
      const row = { ...filled, seq: null, id: 'ord_copy', ...over };
      const cols = Object.keys(row);
      return () =>
        db.prepare(`INSERT INTO orders (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(row);
    };
    expect(copy({ state: 'bogus' })).toThrow(/CHECK constraint failed/);
    expect(copy({ time_in_force: 'week' })).toThrow(/CHECK constraint failed/);
    expect(() => db.prepare("UPDATE orders SET updated_at = 'x' WHERE id = ?").run(filled.id)).toThrow(
      /order is final/,
    );
    const act = (before[1] as Array<Record<string, unknown>>)[0];
    const activity = (over: Record<string, unknown>) => () =>
      db
        .prepare(
          'INSERT INTO activities (id, tenant_id, investor_id, activity_type, net_amount_micros, description, ' +
            'ref_type, ref_id, at, at_ms) VALUES (@id, @tenant_id, @investor_id, @activity_type, 0, ' +
            '@description, @ref_type, @ref_id, @at, 0)',
        )
        .run({
          id: 'act_copy',
          tenant_id: t.creds.tenant.tenant_id,
          investor_id: act.investor_id,
          activity_type: 'FILL',
          description: 'x',
          ref_type: 'order',
          ref_id: 'x',
          at: 'x',
          ...over,
        });
    expect(activity({ activity_type: 'BOGUS' })).toThrow(/CHECK constraint failed/);
    expect(activity({ ref_type: 'invoice' })).toThrow(/CHECK constraint failed/);
    const entry = (before[2] as Array<Record<string, unknown>>)[0];
    const cols = Object.keys(entry).filter((c) => c !== 'seq');
    const journal = (over: Record<string, unknown>) => () =>
      db
        .prepare(`INSERT INTO journal (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`)
        .run({ ...entry, ...over, seq: undefined });
    expect(journal({ method: 'GET' })).toThrow(/CHECK constraint failed/);
    expect(journal({ body_kind: 'json' })).toThrow(/CHECK constraint failed/);
    expect(() => db.prepare('DELETE FROM journal WHERE seq = ?').run(entry.seq)).toThrow(/append-only/);
    // and the daemon goes on working on it
    const next = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    expect(next.body.status).toBe('filled');
    expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
  });
});
