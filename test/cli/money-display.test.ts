// What people read about money from the real `svc` binary against a real daemon: svc balances, svc
// activities and the cash of svc investor show (human and --json), EGP with thousands separators and two
// decimals, an average off the tick rounded to two decimals in the order list and the contract note
// while --json keeps the integer micros, and hints that name svc commands with the --home in use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;
let inv: string;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await onboardViaCli(sbx, { fullName: 'Omar Farouk', suitability: true, depositEgp: '50000' });
});

afterAll(async () => sbx?.stop());

/** A price in micros typed as EGP (exact, six decimals). */
const egpText = (micros: number) => `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, '0')}`;

describe('svc balances, svc activities and the cash of svc investor show', () => {
  it('svc investor show states the cash available (settled), reserved and unsettled in EGP', async () => {
    const res = await sbx.svc(['investor', 'show', inv]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/cash\s+50,000\.00 EGP available \(settled\), 0\.00 reserved, 0\.00 unsettled/);
  });

  it('svc balances shows the three buckets in EGP for people and the raw micros with --json; the investor defaults to SVC_INVESTOR_ID', async () => {
    const res = await sbx.svc(['balances', '--investor', inv]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`Balances of ${inv}`);
    expect(res.stdout).toMatch(/cash:EGP\s+50,000\.00\s+0\.00\s+0\.00/);
    expect(res.stdout).toContain('No shares.');
    const json = await sbx.svc(['balances', '--json'], { SVC_INVESTOR_ID: inv });
    expect(json.code, json.stderr).toBe(0);
    expect(json.json).toMatchObject({
      investor_id: inv,
      cash: [{ asset: 'cash:EGP', settled: 50_000_000_000, reserved: 0, unsettled: 0 }],
      securities: [],
    });
    const none = await sbx.svc(['balances'], { SVC_INVESTOR_ID: '' });
    expect([none.code, none.stderr.includes('--investor')]).toEqual([2, true]);
  });

  it('svc activities lists the feed newest first with signed EGP; --json is the API feed', async () => {
    const res = await sbx.svc(['activities', '--investor', inv]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/CSD\s+\+50,000\.00/);
    const json = await sbx.svc(['activities', '--investor', inv, '--json']);
    expect(json.json.activities[0]).toMatchObject({
      activity_type: 'CSD',
      net_amount_micros: 50_000_000_000,
      investor_id: inv,
    });
    expect(json.json.next_before).toBeNull();
  });
});

describe('EGP in orders and contract notes', () => {
  let orderId: string;
  let avgMicros: number;

  beforeAll(async () => {
    // Two desk executions one tick apart make an average off the grid: (P + 2 x (P + 0.01)) / 3.
    expect((await sbx.svc(['clock', 'advance', '--until', 'next_open'])).code).toBe(0);
    expect((await sbx.svc(['api', 'POST', '/admin/sandbox/auto-fill', '-d', '{"enabled":false}'])).code).toBe(0);
    const p: number = (await sbx.svc(['market', 'quotes', 'COMI', '--json'])).json.quotes[0].price_micros;
    const placed = await sbx.svc([
      'order',
      'buy',
      'COMI',
      '3',
      '--limit',
      egpText(p + 50_000),
      '--investor',
      inv,
      '--json',
    ]);
    expect(placed.code, placed.stderr).toBe(0);
    orderId = placed.json.order_id;
    expect((await sbx.svc(['desk', 'execute', orderId, '--price', egpText(p), '--qty', '1'])).code).toBe(0);
    const done = await sbx.svc(['desk', 'execute', orderId, '--price', egpText(p + 10_000), '--qty', '2', '--json']);
    expect(done.json).toMatchObject({ status: 'filled', filled_qty: 3 });
    avgMicros = done.json.avg_price_micros;
  });

  it('the average price is rounded to two decimals in svc order list and show; --json keeps the integer micros', async () => {
    expect(avgMicros % 10_000).not.toBe(0);
    const rounded = (Math.round(avgMicros / 10_000) / 100).toFixed(2);
    const list = await sbx.svc(['order', 'list', '--investor', inv]);
    const row = list.stdout.split('\n').find((l) => l.startsWith(orderId))!;
    expect(row).toMatch(new RegExp(`filled\\s+3\\s+${rounded.replace('.', '\\.')}\\s`));
    expect(row).not.toMatch(/\d\.\d{3}/);
    expect((await sbx.svc(['order', 'show', orderId])).stdout).toContain(`3 @ ${rounded} EGP average`);
    const json = await sbx.svc(['order', 'list', '--investor', inv, '--json']);
    expect(json.json.orders.find((o: { order_id: string }) => o.order_id === orderId).avg_price_micros).toBe(avgMicros);
  });

  it('the contract note shows every amount with two decimals, the average rounded, thousands separated', async () => {
    const note = await sbx.svc(['order', 'note', orderId]);
    expect(note.code, note.stderr).toBe(0);
    expect(note.stdout).not.toMatch(/\d\.\d{3}/);
    expect(note.stdout).toMatch(/Gross consideration\s+\d{3}\.\d{2} EGP {2}\(average \d+\.\d{2}\)/);
    expect(note.stdout).toMatch(/Stamp duty \(withheld\)\s+\d+\.\d{2}\n/);
    const after = await sbx.svc(['balances', '--investor', inv]);
    expect(after.stdout).toMatch(/cash:EGP\s+49,\d{3}\.\d{2}\s/);
    expect(after.stdout).toMatch(/COMI\s+0\s+0\s+3/);
  });
});

describe('svc activities after trading', () => {
  it('fills show their price per share, fees and stamp duty in EGP; a page with more behind it names the svc command for the next', async () => {
    const res = await sbx.svc(['activities', '--investor', inv, '--limit', '3']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/FILL\s+-\d{2,3}\.\d{2}\s+COMI\s+buy\s+2\s+\d+\.\d{2}\s/);
    expect(res.stdout).not.toMatch(/\s-?\d[\d,]*\.\d{3,}\s/);
    const next = (await sbx.svc(['activities', '--investor', inv, '--limit', '3', '--json'])).json.next_before;
    expect(res.stderr).toContain(
      `Older activity: svc --home ${sbx.home} activities --investor ${inv} --before ${next}`,
    );
  });
});

describe('hints name svc commands and keep --home', () => {
  it('an unknown symbol points to svc --home HOME market quotes, not GET /v1/instruments', async () => {
    const res = await sbx.svc(['order', 'buy', 'NOPE', '1', '--investor', inv]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`hint: List the symbols: svc --home ${sbx.home} market quotes`);
    expect(res.stderr).not.toContain('/v1/');
  });

  it('too little settled cash points to svc transfer deposit and svc balances in the same home', async () => {
    const res = await sbx.svc(['order', 'buy', 'COMI', '100000', '--limit', '80', '--investor', inv]);
    expect(res.stderr).toContain('INSUFFICIENT_SETTLED_CASH');
    expect(res.stderr).toContain(`svc --home ${sbx.home} transfer deposit AMOUNT_EGP`);
    expect(res.stderr).toContain(`svc --home ${sbx.home} balances`);
  });
});
