import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { seedInvestor } from '../helpers/investors.js';
import type { AccountRef } from '../../daemon/ledger/ledger.js';

const EGP = 1_000_000;
const cash = (investorId: string, bucket: 'settled' | 'reserved' | 'unsettled' = 'settled'): AccountRef => ({
  investorId,
  asset: 'cash:EGP',
  bucket,
});
const rail: AccountRef = { system: 'rail', asset: 'cash:EGP' };

let t: TestApp;
let tenant: string;
let inv: string;

beforeEach(async () => {
  t = await makeApp();
  tenant = t.creds.tenant.tenant_id;
  inv = seedInvestor(t);
});
afterEach(async () => t.close());

function fund(investorId: string, amount: number, tenantId = tenant): void {
  const r = t.deps.ledger.transfer({
    tenantId,
    debit: rail,
    credit: cash(investorId),
    amount,
    kind: 'deposit',
    ref: 'test',
  });
  expect(r.ok).toBe(true);
}

function expectInvariants(): void {
  expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
}

function snapshot() {
  const db = t.deps.db;
  return {
    accounts: db.prepare('SELECT * FROM ledger_accounts ORDER BY id').all(),
    entries: db.prepare('SELECT COUNT(*) AS n FROM ledger_entries').get(),
    holds: db.prepare('SELECT * FROM ledger_holds ORDER BY seq').all(),
    activities: db.prepare('SELECT COUNT(*) AS n FROM activities').get(),
  };
}

describe('Balances object: { cash: [ { asset, settled, reserved, unsettled } ] } where asset is cash:EGP', () => {
  it('a new investor has cash:EGP with zero settled, reserved and unsettled (integer micros)', async () => {
    const res = await t.req('GET', `/v1/investors/${inv}/balances`);
    expect(res.status).toBe(200);
    expect(res.body.cash).toEqual([{ asset: 'cash:EGP', settled: 0, reserved: 0, unsettled: 0 }]);
    expect(res.body).toMatchObject({ investor_id: inv, securities: [], funds: [] });
    expect(res.body.as_of).toBe('2026-11-22T09:00:00+02:00');
  });

  it('balances are derived from the ledger: settled after a deposit posting, reserved by a hold', async () => {
    fund(inv, 1_000 * EGP);
    const hold = t.deps.ledger.hold({
      tenantId: tenant,
      investorId: inv,
      asset: 'cash:EGP',
      amount: 300 * EGP,
      ref: 'ord_x',
    });
    expect(hold.ok).toBe(true);
    const res = await t.req('GET', `/v1/investors/${inv}/balances`);
    expect(res.body.cash).toEqual([{ asset: 'cash:EGP', settled: 700 * EGP, reserved: 300 * EGP, unsettled: 0 }]);
  });

  it('securities (whole shares) and fund units (micros) are assets too, listed beside cash', async () => {
    t.deps.ledger.transfer({
      tenantId: tenant,
      debit: { system: 'clearing', asset: 'COMI' },
      credit: { investorId: inv, asset: 'COMI', bucket: 'unsettled' },
      amount: 10,
      kind: 'fill',
      ref: 'ord_1',
    });
    t.deps.ledger.transfer({
      tenantId: tenant,
      debit: { system: 'fund', asset: 'fund:AZNM' },
      credit: { investorId: inv, asset: 'fund:AZNM', bucket: 'settled' },
      amount: 2_500_000,
      kind: 'subscription',
      ref: 'fo_1',
    });
    const res = await t.req('GET', `/v1/investors/${inv}/balances`);
    expect(res.body.securities).toEqual([{ asset: 'COMI', symbol: 'COMI', settled: 0, reserved: 0, unsettled: 10 }]);
    expect(res.body.funds).toEqual([
      { asset: 'fund:AZNM', fund_code: 'AZNM', settled: 2_500_000, reserved: 0, unsettled: 0 },
    ]);
    expectInvariants();
  });

  it("another tenant's investor behaves as unknown: 404 NOT_FOUND on balances and activities", async () => {
    const other = await t.req('POST', '/admin/tenants', { body: { name: 'other' } });
    expect(other.status).toBe(201);
    const foreign = seedInvestor(t, { tenantId: other.body.tenant_id });
    for (const path of ['balances', 'activities']) {
      const res = await t.req('GET', `/v1/investors/${foreign}/${path}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      const own = await t.req('GET', `/v1/investors/${foreign}/${path}`, { tenant: other.body });
      expect(own.status).toBe(200);
    }
    const unknown = await t.req('GET', '/v1/investors/inv_unknown/balances');
    expect(unknown.status).toBe(404);
  });

  it('reads need a bearer key: 401 UNAUTHENTICATED without one', async () => {
    const res = await t.req('GET', `/v1/investors/${inv}/balances`, { as: 'none' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });
});

describe('Double-entry ledger: every movement is a posting; per asset, all balances sum to zero', () => {
  it('postings keep the per-asset sum at zero and every balance equal to the sum of its postings', () => {
    const inv2 = seedInvestor(t);
    fund(inv, 5_000 * EGP);
    fund(inv2, 2_000 * EGP);
    const moved = t.deps.ledger.transfer({
      tenantId: tenant,
      debit: cash(inv),
      credit: cash(inv2),
      amount: 1_234_567,
      kind: 'journal',
      ref: 'jnl_1',
    });
    expect(moved.ok).toBe(true);
    expect(t.deps.ledger.balance(tenant, cash(inv))).toBe(5_000 * EGP - 1_234_567);
    expect(t.deps.ledger.balance(tenant, cash(inv2))).toBe(2_000 * EGP + 1_234_567);
    expect(t.deps.ledger.balance(tenant, rail)).toBe(-7_000 * EGP);
    expectInvariants();
  });

  it('the invariant check reads the tables as they are at each call: a balance changed behind the ledger is found', () => {
    fund(inv, 5_000 * EGP);
    expectInvariants();
    // past the table's own guard, which this test's database (its own, made for this test) does without
    t.deps.db.exec('DROP TRIGGER ledger_accounts_update');
    t.deps.db
      .prepare("UPDATE ledger_accounts SET balance = balance + 1 WHERE owner = ? AND bucket = 'settled'")
      .run(inv);
    const report = t.deps.ledger.checkInvariants();
    expect(report.ok).toBe(false);
    expect(report.violations).toEqual([
      `per-asset sum is zero: ${tenant} cash:EGP: balances sum to 1, not 0`,
      `balance equals the sum of its postings: ${inv} cash:EGP settled is ${5_000 * EGP + 1} but its postings ` +
        `sum to ${5_000 * EGP}`,
    ]);
    expect(t.deps.ledger.checkInvariants(tenant).violations).toHaveLength(2);
    expect(t.deps.ledger.checkInvariants('ten_nobody')).toEqual({ ok: true, violations: [] });
  });

  it('settled never goes negative: a debit beyond the balance is INSUFFICIENT_SETTLED_CASH and writes nothing', () => {
    fund(inv, 100 * EGP);
    const before = snapshot();
    const r = t.deps.ledger.transfer({
      tenantId: tenant,
      debit: cash(inv),
      credit: rail,
      amount: 100 * EGP + 1,
      kind: 'withdrawal',
      ref: 'x',
    });
    expect(r).toMatchObject({ ok: false, code: 'INSUFFICIENT_SETTLED_CASH' });
    const shares = t.deps.ledger.transfer({
      tenantId: tenant,
      debit: { investorId: inv, asset: 'COMI', bucket: 'settled' },
      credit: { system: 'clearing', asset: 'COMI' },
      amount: 1,
      kind: 'fill',
      ref: 'x',
    });
    expect(shares).toMatchObject({ ok: false, code: 'INSUFFICIENT_SETTLED_SECURITIES' });
    const held = t.deps.ledger.hold({
      tenantId: tenant,
      investorId: inv,
      asset: 'cash:EGP',
      amount: 100 * EGP + 1,
      ref: 'x',
    });
    expect(held).toMatchObject({ ok: false, code: 'INSUFFICIENT_SETTLED_CASH' });
    expect(snapshot().entries).toEqual(before.entries);
    expect(snapshot().holds).toEqual(before.holds);
    expectInvariants();
  });

  it('an amount that would overflow is refused with AMOUNT_TOO_LARGE, never a wrong number', () => {
    fund(inv, Number.MAX_SAFE_INTEGER - 10);
    const inv2 = seedInvestor(t);
    const adjustments: AccountRef = { system: 'adjustments', asset: 'cash:EGP' };
    expect(
      t.deps.ledger.transfer({
        tenantId: tenant,
        debit: adjustments,
        credit: cash(inv2),
        amount: 100,
        kind: 'journal',
        ref: 'x',
      }).ok,
    ).toBe(true);
    const before = snapshot();
    const r = t.deps.ledger.transfer({
      tenantId: tenant,
      debit: cash(inv2),
      credit: cash(inv),
      amount: 11,
      kind: 'journal',
      ref: 'x',
    });
    expect(r).toMatchObject({ ok: false, code: 'AMOUNT_TOO_LARGE' });
    // the system side is bounded too: the rail account is already at -(2^53 - 1) + 10
    const fromRail = t.deps.ledger.transfer({
      tenantId: tenant,
      debit: rail,
      credit: cash(inv2),
      amount: 11,
      kind: 'deposit',
      ref: 'x',
    });
    expect(fromRail).toMatchObject({ ok: false, code: 'AMOUNT_TOO_LARGE' });
    expect(snapshot()).toEqual(before);
    expect(t.deps.ledger.balance(tenant, cash(inv))).toBe(Number.MAX_SAFE_INTEGER - 10);
    expect(() =>
      t.deps.ledger.transfer({ tenantId: tenant, debit: rail, credit: cash(inv), amount: 1.5, kind: 'x', ref: 'x' }),
    ).toThrow(/positive safe integer/);
    expect(() =>
      t.deps.ledger.transfer({
        tenantId: tenant,
        debit: rail,
        credit: cash(inv),
        amount: 2 ** 53,
        kind: 'x',
        ref: 'x',
      }),
    ).toThrow(/positive safe integer/);
    expectInvariants();
  });

  it("several postings in one statement: all of them in order, or none and the first refusal (a filled order's postings)", () => {
    fund(inv, 100 * EGP);
    const fees: AccountRef = { system: 'fees', asset: 'cash:EGP' };
    const clearing: AccountRef = { system: 'clearing', asset: 'cash:EGP' };
    const pay = (amount: number, credit: AccountRef, kind: string) => ({
      tenantId: tenant,
      debit: cash(inv),
      credit,
      amount,
      kind,
      ref: 'ord_many',
    });
    const before = snapshot();
    // the second posting overdraws once the first is paid: nothing is written, and the refusal is the second's
    const refused = t.deps.ledger.transferAll([
      pay(60 * EGP, clearing, 'trade'),
      pay(40 * EGP + 1, fees, 'fee'),
      pay(1, fees, 'tax'),
    ]);
    expect(refused).toMatchObject({
      ok: false,
      code: 'INSUFFICIENT_SETTLED_CASH',
      message: `settled cash:EGP of ${inv} is ${40 * EGP}; ${40 * EGP + 1} is needed.`,
    });
    // (the accounts a transfer names are opened, at zero, before its posting, as with one transfer)
    const written = () => ({
      ...snapshot(),
      accounts: t.deps.db
        .prepare('SELECT id, balance, last_entry_id FROM ledger_accounts WHERE last_entry_id IS NOT NULL ORDER BY id')
        .all(),
    });
    const unwritten = written();
    expect(unwritten.entries).toEqual(before.entries);
    expect(t.deps.ledger.balance(tenant, cash(inv))).toBe(100 * EGP);
    expect(t.deps.ledger.entries(tenant, 'ord_many')).toEqual([]);
    const overflow = t.deps.ledger.transferAll([
      pay(1, clearing, 'trade'),
      {
        tenantId: tenant,
        debit: rail,
        credit: cash(inv),
        amount: Number.MAX_SAFE_INTEGER,
        kind: 'deposit',
        ref: 'ord_many',
      },
    ]);
    expect(overflow).toMatchObject({ ok: false, code: 'AMOUNT_TOO_LARGE' });
    expect(written()).toEqual(unwritten);
    // within the balance: every posting, in order, with consecutive ids
    const done = t.deps.ledger.transferAll([pay(60 * EGP, clearing, 'trade'), pay(40 * EGP, fees, 'fee')]);
    expect(done.ok).toBe(true);
    const ids = done.ok ? done.value : [];
    expect(ids[1]).toBe(ids[0] + 1);
    expect(t.deps.ledger.entries(tenant, 'ord_many').map((e) => [e.id, e.amount, e.kind])).toEqual([
      [ids[0], 60 * EGP, 'trade'],
      [ids[1], 40 * EGP, 'fee'],
    ]);
    expect(t.deps.ledger.balance(tenant, cash(inv))).toBe(0);
    expect(t.deps.ledger.transferAll([])).toEqual({ ok: true, value: [] });
    expect(() =>
      t.deps.ledger.transferAll([pay(1, clearing, 'trade'), { ...pay(1, clearing, 'trade'), amount: 0 }]),
    ).toThrow(/positive safe integer/);
    expectInvariants();
  });

  it('a posting between two assets is a bug the module refuses', () => {
    expect(() =>
      t.deps.ledger.transfer({
        tenantId: tenant,
        debit: { system: 'clearing', asset: 'COMI' },
        credit: cash(inv),
        amount: 1,
        kind: 'x',
        ref: 'x',
      }),
    ).toThrow(/cannot post/);
  });
});

describe('Reservations are holds that are later posted or voided (pending / post / void)', () => {
  it('a hold moves settled to reserved; partial posts decrease remaining; the last post closes it as posted', () => {
    fund(inv, 1_000 * EGP);
    const held = t.deps.ledger.hold({
      tenantId: tenant,
      investorId: inv,
      asset: 'cash:EGP',
      amount: 600 * EGP,
      ref: 'ord_1',
    });
    if (!held.ok) throw new Error(held.code);
    expect(held.value).toMatch(/^hld_/);
    expect(t.deps.ledger.position(tenant, inv, 'cash:EGP')).toEqual({
      asset: 'cash:EGP',
      settled: 400 * EGP,
      reserved: 600 * EGP,
      unsettled: 0,
    });

    const clearing: AccountRef = { system: 'clearing', asset: 'cash:EGP' };
    expect(t.deps.ledger.postHold(held.value, 250 * EGP, clearing, 'fill', 'ord_1').ok).toBe(true);
    expect(t.deps.ledger.getHold(held.value)).toMatchObject({
      state: 'pending',
      posted: 250 * EGP,
      remaining: 350 * EGP,
    });
    expectInvariants();
    expect(t.deps.ledger.postHold(held.value, 350 * EGP, clearing, 'fill', 'ord_1').ok).toBe(true);
    expect(t.deps.ledger.getHold(held.value)).toMatchObject({ state: 'posted', posted: 600 * EGP, remaining: 0 });
    expect(t.deps.ledger.position(tenant, inv, 'cash:EGP')).toEqual({
      asset: 'cash:EGP',
      settled: 400 * EGP,
      reserved: 0,
      unsettled: 0,
    });
    expect(() => t.deps.ledger.voidHold(held.value)).toThrow(/is posted/);
    expectInvariants();
  });

  it('a void releases the remainder back to settled and closes the hold; it is never edited after', () => {
    fund(inv, 1_000 * EGP);
    const held = t.deps.ledger.hold({
      tenantId: tenant,
      investorId: inv,
      asset: 'cash:EGP',
      amount: 600 * EGP,
      ref: 'ord_2',
    });
    if (!held.ok) throw new Error(held.code);
    t.deps.ledger.postHold(held.value, 100 * EGP, { system: 'fees', asset: 'cash:EGP' }, 'fee', 'ord_2');
    expect(t.deps.ledger.voidHold(held.value)).toBe(500 * EGP);
    expect(t.deps.ledger.getHold(held.value)).toMatchObject({ state: 'voided', posted: 100 * EGP, remaining: 0 });
    expect(t.deps.ledger.position(tenant, inv, 'cash:EGP')).toEqual({
      asset: 'cash:EGP',
      settled: 900 * EGP,
      reserved: 0,
      unsettled: 0,
    });
    expect(() => t.deps.ledger.postHold(held.value, 1, rail, 'x', 'x')).toThrow(/is voided/);
    expect(() => t.deps.ledger.voidHold(held.value)).toThrow(/is voided/);
    expect(
      t.deps.ledger.entries(tenant, 'ord_2').map((e) => [e.kind, e.debit_bucket, e.credit_bucket, e.amount]),
    ).toEqual([
      ['hold', 'settled', 'reserved', 600 * EGP],
      ['fee', 'reserved', 'system', 100 * EGP],
      ['hold.void', 'reserved', 'settled', 500 * EGP],
    ]);
    expectInvariants();
  });

  it('posting more than the remainder, or another asset, is a bug the module refuses', () => {
    fund(inv, 10 * EGP);
    const held = t.deps.ledger.hold({
      tenantId: tenant,
      investorId: inv,
      asset: 'cash:EGP',
      amount: 5 * EGP,
      ref: 'x',
    });
    if (!held.ok) throw new Error(held.code);
    expect(() => t.deps.ledger.postHold(held.value, 5 * EGP + 1, rail, 'x', 'x')).toThrow(/exceeds the remaining/);
    expect(() => t.deps.ledger.postHold(held.value, 1, { system: 'clearing', asset: 'COMI' }, 'x', 'x')).toThrow(
      /holds cash:EGP/,
    );
    expect(() =>
      t.deps.ledger.transfer({
        tenantId: tenant,
        debit: cash(inv, 'reserved'),
        credit: rail,
        amount: 1,
        kind: 'x',
        ref: 'x',
      }),
    ).toThrow(/reserved/);
    expectInvariants();
  });
});

describe("A fill's postings out of holds are written together (postAll: one INSERT, one update per hold)", () => {
  const clearing: AccountRef = { system: 'clearing', asset: 'cash:EGP' };
  const fees: AccountRef = { system: 'fees', asset: 'cash:EGP' };
  const shares: AccountRef = { system: 'clearing', asset: 'COMI' };

  function holdFor(investorId: string, ref: string): string {
    fund(investorId, 1_000 * EGP);
    const held = t.deps.ledger.hold({ tenantId: tenant, investorId, asset: 'cash:EGP', amount: 600 * EGP, ref });
    if (!held.ok) throw new Error(held.code);
    return held.value;
  }
  const delivery = (investorId: string, ref: string) => ({
    tenantId: tenant,
    debit: shares,
    credit: { investorId, asset: 'COMI', bucket: 'unsettled' as const },
    amount: 7,
    kind: 'trade',
    ref,
  });
  const written = (investorId: string, ref: string, holdId: string) => ({
    entries: t.deps.ledger
      .entries(tenant, ref)
      .map((e) => [e.kind, e.debit_bucket, e.credit_bucket, e.amount, e.hold_id === null ? null : 'the hold']),
    hold: (({ posted, remaining, state, closed_ms }) => ({ posted, remaining, state, closed_ms }))(
      t.deps.ledger.getHold(holdId)!,
    ),
    cash: t.deps.ledger.position(tenant, investorId, 'cash:EGP'),
    shares: t.deps.ledger.position(tenant, investorId, 'COMI'),
  });

  it('the same postings, in order with consecutive ids, balances and hold states as postHold and transfer one by one', () => {
    const other = seedInvestor(t);
    const one = holdFor(inv, 'ord_one');
    const all = holdFor(other, 'ord_all');
    for (const [holdId, amount] of [
      [one, 500 * EGP],
      [one, 100 * EGP],
    ] as const) {
      expect(t.deps.ledger.postHold(holdId, amount, amount === 500 * EGP ? clearing : fees, 'x', 'ord_one').ok).toBe(
        true,
      );
    }
    expect(t.deps.ledger.transfer(delivery(inv, 'ord_one')).ok).toBe(true);
    const done = t.deps.ledger.postAll([
      { holdId: all, amount: 500 * EGP, credit: clearing, kind: 'x', ref: 'ord_all' },
      { holdId: all, amount: 100 * EGP, credit: fees, kind: 'x', ref: 'ord_all' },
      delivery(other, 'ord_all'),
    ]);
    if (!done.ok) throw new Error(done.code);
    expect(done.value).toEqual([done.value[0], done.value[0] + 1, done.value[0] + 2]);
    expect(t.deps.ledger.entries(tenant, 'ord_all').map((e) => e.id)).toEqual([expect.any(Number), ...done.value]);
    expect(written(other, 'ord_all', all)).toEqual(written(inv, 'ord_one', one));
    expect(written(other, 'ord_all', all).hold).toMatchObject({ state: 'posted', posted: 600 * EGP, remaining: 0 });
    expectInvariants();
  });

  it('a part of the remainder leaves the hold pending with the rest; more than is left is a bug that writes nothing', () => {
    const holdId = holdFor(inv, 'ord_part');
    const part = (amount: number) => ({ holdId, amount, credit: clearing, kind: 'trade', ref: 'ord_part' });
    expect(t.deps.ledger.postAll([part(100 * EGP), part(150 * EGP)]).ok).toBe(true);
    expect(t.deps.ledger.getHold(holdId)).toMatchObject({ state: 'pending', posted: 250 * EGP, remaining: 350 * EGP });
    const before = written(inv, 'ord_part', holdId);
    expect(() => t.deps.ledger.postAll([part(300 * EGP), part(50 * EGP + 1)])).toThrow(/exceeds the remaining/);
    expect(() => t.deps.ledger.postAll([part(1), { ...part(1), credit: shares }])).toThrow(/holds cash:EGP/);
    expect(written(inv, 'ord_part', holdId)).toEqual(before);
    expect(t.deps.ledger.postAll([])).toEqual({ ok: true, value: [] });
    expectInvariants();
  });
});

describe('The database refuses what the code would never do (constraints and triggers, raw SQL)', () => {
  function accountId(owner: string, bucket: string, asset = 'cash:EGP'): number {
    return (
      t.deps.db
        .prepare('SELECT id FROM ledger_accounts WHERE owner = ? AND bucket = ? AND asset = ?')
        .get(owner, bucket, asset) as { id: number }
    ).id;
  }

  beforeEach(() => {
    fund(inv, 100 * EGP);
    t.deps.ledger.transfer({
      tenantId: tenant,
      debit: { system: 'clearing', asset: 'COMI' },
      credit: { investorId: inv, asset: 'COMI', bucket: 'settled' },
      amount: 5,
      kind: 'fill',
      ref: 'ord_1',
    });
  });

  function refuses(sql: string, params: unknown[], message: RegExp): void {
    expect(() => t.deps.db.prepare(sql).run(...params)).toThrow(message);
  }

  it('a negative settled balance (CHECK), and a balance edited without a posting (trigger)', () => {
    const before = snapshot();
    const settled = accountId(inv, 'settled');
    refuses(
      'UPDATE ledger_accounts SET balance = -1 WHERE id = ?',
      [settled],
      /CHECK constraint failed|a balance changes only by a new posting/,
    );
    refuses(
      'UPDATE ledger_accounts SET balance = balance + 5 WHERE id = ?',
      [settled],
      /a balance changes only by a new posting/,
    );
    refuses(
      'UPDATE ledger_accounts SET balance = balance + 5, last_entry_id = last_entry_id + 100 WHERE id = ?',
      [settled],
      /a balance changes only by a new posting/,
    );
    refuses(
      "UPDATE ledger_accounts SET asset = 'cash:USD' WHERE id = ?",
      [settled],
      /never changes owner, asset or bucket/,
    );
    refuses(
      "INSERT INTO ledger_accounts (tenant_id, owner, asset, bucket, balance) VALUES (?, ?, 'TMGH', 'settled', 10)",
      [tenant, inv],
      /opens with a zero balance/,
    );
    refuses('DELETE FROM ledger_accounts WHERE id = ?', [settled], /never deleted/);
    expect(snapshot()).toEqual(before);
    expectInvariants();
  });

  it('a posting that would overdraw an investor, one between two assets, and one across tenants', async () => {
    const before = snapshot();
    const insert =
      'INSERT INTO ledger_entries (tenant_id, debit_account_id, credit_account_id, amount, kind, ref, at_ms) ' +
      'VALUES (?, ?, ?, ?, ?, ?, 0)';
    refuses(
      insert,
      [tenant, accountId(inv, 'settled'), accountId('system:rail', 'system'), 100 * EGP + 1, 'withdrawal', 'x'],
      /CHECK constraint failed/,
    );
    refuses(
      insert,
      [tenant, accountId('system:rail', 'system'), accountId(inv, 'settled', 'COMI'), 1, 'x', 'x'],
      /different assets/,
    );
    refuses(
      insert,
      [tenant, accountId('system:rail', 'system'), accountId(inv, 'settled'), 0, 'x', 'x'],
      /CHECK constraint failed/,
    );
    refuses(
      insert,
      [tenant, accountId(inv, 'settled'), accountId(inv, 'settled'), 1, 'x', 'x'],
      /two accounts of its tenant|CHECK constraint failed/,
    );
    const other = await t.req('POST', '/admin/tenants', { body: { name: 'other' } });
    const foreign = seedInvestor(t, { tenantId: other.body.tenant_id });
    refuses(
      "INSERT INTO ledger_accounts (tenant_id, owner, asset, bucket) VALUES (?, ?, 'cash:EGP', 'settled')",
      [tenant, foreign],
      /investor of the same tenant/,
    );
    refuses(
      insert,
      [other.body.tenant_id, accountId('system:rail', 'system'), accountId(inv, 'settled'), 1, 'x', 'x'],
      /two accounts of its tenant/,
    );
    expect(snapshot()).toEqual(before);
    expectInvariants();
  });

  it('reserved moves only with a pending hold; postings are immutable; a closed hold is final', () => {
    const insert =
      'INSERT INTO ledger_entries (tenant_id, debit_account_id, credit_account_id, amount, kind, ref, hold_id, ' +
      'at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, 0)';
    const held = t.deps.ledger.hold({
      tenantId: tenant,
      investorId: inv,
      asset: 'cash:EGP',
      amount: 10 * EGP,
      ref: 'ord_9',
    });
    if (!held.ok) throw new Error(held.code);
    const before = snapshot();
    refuses(
      insert,
      [tenant, accountId(inv, 'settled'), accountId(inv, 'reserved'), 1, 'x', 'x', null],
      /reserved balance moves only with a pending hold/,
    );
    refuses(
      insert,
      [tenant, accountId(inv, 'reserved'), accountId('system:rail', 'system'), 1, 'x', 'x', null],
      /reserved balance moves only with a pending hold/,
    );
    refuses('UPDATE ledger_entries SET amount = 1', [], /postings are immutable/);
    refuses('DELETE FROM ledger_entries', [], /postings are immutable/);
    refuses('UPDATE ledger_holds SET amount = amount + 1 WHERE id = ?', [held.value], /never edited/);
    refuses(
      'UPDATE ledger_holds SET remaining = remaining + 1 WHERE id = ?',
      [held.value],
      /a post moves part of the remainder/,
    );
    refuses('DELETE FROM ledger_holds WHERE id = ?', [held.value], /never deleted/);
    expect(snapshot()).toEqual(before);
    t.deps.ledger.voidHold(held.value);
    refuses(
      "UPDATE ledger_holds SET state = 'pending', remaining = 1, closed_ms = NULL WHERE id = ?",
      [held.value],
      /final/,
    );
    refuses(
      insert,
      [tenant, accountId(inv, 'settled'), accountId(inv, 'reserved'), 1, 'x', 'x', held.value],
      /reserved balance moves only with a pending hold/,
    );
    expectInvariants();
  });

  it('activities are immutable', () => {
    t.deps.ledger.recordActivity({
      tenantId: tenant,
      investorId: inv,
      type: 'CSD',
      netAmountMicros: 1,
      description: 'x',
    });
    refuses('UPDATE activities SET net_amount_micros = 2', [], /immutable/);
    refuses('DELETE FROM activities', [], /immutable/);
    refuses(
      'INSERT INTO activities (id, tenant_id, investor_id, activity_type, net_amount_micros, description, at, ' +
        "at_ms) VALUES ('act_x', ?, ?, 'BOGUS', 0, 'x', 'x', 0)",
      [tenant, inv],
      /CHECK constraint failed/,
    );
  });
});

describe('Activity feed: ledger-backed entries, newest first, paginated by limit', () => {
  function record(n: number, investorId = inv): string[] {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      out.push(
        t.deps.ledger.recordActivity({
          tenantId: tenant,
          investorId,
          type: 'CSD',
          netAmountMicros: (i + 1) * EGP,
          description: `deposit ${i}`,
          ref: { type: 'transfer', id: `trf_${i}` },
        }).id,
      );
    }
    return out;
  }

  it("a fill's activities are written together, in order, one instant (one statement); a bad one writes none", async () => {
    const fill = { tenantId: tenant, investorId: inv, ref: { type: 'order' as const, id: 'ord_1' }, symbol: 'COMI' };
    const rows = t.deps.ledger.recordActivities([
      {
        ...fill,
        type: 'FILL',
        netAmountMicros: -80 * EGP,
        description: 'Bought 1 COMI at 80.00 EGP',
        side: 'buy',
        qty: 1,
        priceMicros: 80 * EGP,
      },
      { ...fill, type: 'FEE', netAmountMicros: -1 * EGP, description: 'fees' },
    ]);
    const res = await t.req('GET', `/v1/investors/${inv}/activities`);
    expect(res.body.activities.map((a: any) => [a.id, a.activity_type, a.at])).toEqual([
      [rows[1].id, 'FEE', rows[0].at],
      [rows[0].id, 'FILL', rows[0].at],
    ]);
    expect(res.body.activities[1]).toMatchObject({ side: 'buy', qty: 1, price_micros: 80 * EGP, ref_id: 'ord_1' });
    const count = () => t.deps.db.prepare('SELECT COUNT(*) AS n FROM activities').get();
    const before = count();
    expect(() =>
      t.deps.ledger.recordActivities([
        { ...fill, type: 'FEE', netAmountMicros: -1, description: 'x' },
        { ...fill, type: 'FEE', netAmountMicros: 0.5, description: 'x' },
      ]),
    ).toThrow(/not a safe integer/);
    expect(() =>
      t.deps.ledger.recordActivities([
        { ...fill, type: 'FEE', netAmountMicros: -1, description: 'x' },
        { ...fill, type: 'FILL', netAmountMicros: -1, description: 'x', qty: 0 },
      ]),
    ).toThrow(/CHECK constraint failed/);
    expect(count()).toEqual(before);
    expect(t.deps.ledger.recordActivities([])).toEqual([]);
  });

  it('each row carries the documented fields; default limit 100, newest first', async () => {
    const ids = record(3);
    const res = await t.req('GET', `/v1/investors/${inv}/activities`);
    expect(res.status).toBe(200);
    expect(res.body.activities.map((a: any) => a.id)).toEqual([...ids].reverse());
    expect(res.body.next_before).toBeNull();
    expect(res.body.activities[0]).toEqual({
      id: ids[2],
      activity_type: 'CSD',
      investor_id: inv,
      at: '2026-11-22T09:00:00+02:00',
      net_amount_micros: 3 * EGP,
      description: 'deposit 2',
      status: 'executed',
      ref_type: 'transfer',
      ref_id: 'trf_2',
      symbol: null,
      side: null,
      qty: null,
      price_micros: null,
    });
  });

  it('limit and before page through the feed without gaps or repeats', async () => {
    const ids = record(7);
    record(2, seedInvestor(t));
    const seen: string[] = [];
    let before: string | null = null;
    for (;;) {
      const url: string = `/v1/investors/${inv}/activities?limit=3${before ? `&before=${before}` : ''}`;
      const res = await t.req('GET', url);
      expect(res.status).toBe(200);
      seen.push(...res.body.activities.map((a: any) => a.id));
      before = res.body.next_before;
      if (!before) break;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('bad paging is a 422 with a stable code: limit outside 1-200, not a number, unknown cursor, extra parameter', async () => {
    const [mine] = record(1);
    const [theirs] = record(1, seedInvestor(t));
    for (const [query, code] of [
      ['limit=0', 'VALIDATION_FAILED'],
      ['limit=201', 'VALIDATION_FAILED'],
      ['limit=abc', 'VALIDATION_FAILED'],
      ['limit=1.5', 'VALIDATION_FAILED'],
      ['before=act_nope', 'INVALID_CURSOR'],
      [`before=${theirs}`, 'INVALID_CURSOR'],
      ['page_token=x', 'VALIDATION_FAILED'],
    ]) {
      const res = await t.req('GET', `/v1/investors/${inv}/activities?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.error.code, query).toBe(code);
    }
    const ok = await t.req('GET', `/v1/investors/${inv}/activities?limit=200`);
    expect(ok.body.activities.map((a: any) => a.id)).toEqual([mine]);
  });
});
