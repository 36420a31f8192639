// Migrations: a migration that rebuilds a table (009 rebuilds orders) keeps every row and every
// reference to it, and the rebuilt table enforces its new constraints.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { order, trader } from '../helpers/trading.js';
import { migrate } from '../../daemon/store/db.js';
import { MIGRATIONS } from '../../daemon/store/migrations/index.js';

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
      await order(t, { investor_id: inv, symbol: 'TMGH', side: 'buy', type: 'limit', qty: 1, limit_price_micros: LIMIT, time_in_force: 'gtc', client_order_id: 'resting-1' }),
    ];
    expect(placed.map((p) => p.body.status)).toEqual(['filled', 'partially_filled', 'new']);
    const db = t.deps.db;
    const before = db.prepare('SELECT * FROM orders ORDER BY seq').all();
    const fills = db.prepare('SELECT COUNT(*) AS n FROM fills').get();
    expect((before as Array<{ cash_hold_id: string | null }>).map((o) => o.cash_hold_id === null)).toEqual([true, false, false]);

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
    expect(() => db.prepare('UPDATE orders SET cash_hold_id = NULL WHERE id = ?').run(open.id)).toThrow(/terms of an order never change/);
    const copy = { ...open, seq: null, id: 'ord_copy', client_order_id: 'resting-2', cash_hold_id: null };
    const cols = Object.keys(copy);
    const insert = db.prepare(`INSERT INTO orders (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
    expect(() => insert.run(copy)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run({ ...copy, client_order_id: 'resting-1', cash_hold_id: open.cash_hold_id })).toThrow(/UNIQUE constraint failed/);
    // and the daemon goes on working on it
    const next = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    expect(next.body.status).toBe('filled');
    expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
  });
});
