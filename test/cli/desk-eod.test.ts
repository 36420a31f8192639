// svc desk eod and svc desk reference KIND against a real daemon, without a TTY: the dealer's end of day
// in EGP for people and in micros with --json, the reference kinds, and the refusals (exit 1 for the
// API's, exit 2 for usage).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { formatMoney, formatPrice } from '../../daemon/contract/money.js';

let sbx: CliSandbox;
let omar: string;
let mona: string;
let today: string;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  omar = await onboardViaCli(sbx, { fullName: 'Omar Farouk', suitability: true, depositEgp: '50000' });
  mona = await onboardViaCli(sbx, { fullName: 'Mona Hassan', suitability: true, depositEgp: '30000' });
  for (const [inv, qty] of [
    [omar, '10'],
    [mona, '7'],
  ]) {
    const placed = await sbx.svc(['order', 'buy', 'COMI', qty, '--investor', inv, '--json']);
    expect(placed.code, placed.stderr).toBe(0);
  }
  expect((await sbx.svc(['clock', 'advance', '--until', 'next_open', '--json'])).code).toBe(0);
  today = (await sbx.svc(['clock', 'show', '--json'])).json.timestamp.slice(0, 10);
}, 120_000);

afterAll(async () => sbx?.stop());

describe('svc desk eod', () => {
  it("--json is the API body: both investors' fills in micros, fees by line, cash movements, settlements due", async () => {
    const res = await sbx.svc(['desk', 'eod', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({ date: today, trading_day: true });
    expect(res.json.trades.map((x: any) => [x.investor_id, x.qty])).toEqual([
      [omar, 10],
      [mona, 7],
    ]);
    for (const x of res.json.trades) expect(Number.isSafeInteger(x.net_micros)).toBe(true);
    expect(res.json.fees_by_line.commission_micros).toBe(
      res.json.trades[0].fees.commission_micros + res.json.trades[1].fees.commission_micros,
    );
    expect(res.json.cash.totals.map((x: any) => x.activity_type)).toEqual(
      expect.arrayContaining(['FILL', 'FEE', 'TAX']),
    );
    const same = await sbx.svc(['desk', 'eod', '--date', today, '--json']);
    expect({ ...same.json, as_of: null }).toEqual({ ...res.json, as_of: null });
  });

  it('for people: the trades, the fee lines and the totals in EGP as money.ts formats them', async () => {
    const r = (await sbx.svc(['desk', 'eod', '--json'])).json;
    const res = await sbx.svc(['desk', 'eod']);
    expect(res.code, res.stderr).toBe(0);
    const out = res.stdout;
    expect(out).toContain(`End of day ${today}`);
    expect(out).toContain('Trades (2), amounts in EGP');
    for (const x of r.trades) {
      const row = out.split('\n').find((l) => l.includes(x.order_id));
      expect(row, x.order_id).toBeDefined();
      for (const v of [
        formatPrice(x.price_micros),
        formatMoney(x.gross_micros),
        formatMoney(x.fees_micros),
        formatMoney(x.net_micros),
      ])
        expect(row).toContain(v);
    }
    expect(out).toMatch(
      new RegExp(`Commission\\s+${formatMoney(r.fees_by_line.commission_micros).replace('.', '\\.')}`),
    );
    expect(out).toMatch(new RegExp(`Total charges\\s+${formatMoney(r.fees_by_line.total_micros).replace('.', '\\.')}`));
    expect(out).toContain('Cash movements');
    expect(out).toContain('Nothing settles on this date.');
    for (const x of r.trades) expect(out).not.toContain(String(x.net_micros)); // no raw micros for people
    expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
  });

  it('a future date is refused by the API (exit 1, DATE_IN_FUTURE); a malformed one before sending (exit 2)', async () => {
    const future = await sbx.svc(['desk', 'eod', '--date', '2099-01-01', '--json']);
    expect([future.code, future.json.error.code]).toEqual([1, 'DATE_IN_FUTURE']);
    const plain = await sbx.svc(['desk', 'eod', '--date', '2099-01-01']);
    expect(plain.stderr).toContain('DATE_IN_FUTURE');
    const bad = await sbx.svc(['desk', 'eod', '--date', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('YYYY-MM-DD');
  });
});

describe('svc desk eod on the settlement date', () => {
  it("shows what each account pays and the broker's net, in EGP, for the fills settling that date", async () => {
    const traded = (await sbx.svc(['desk', 'eod', '--json'])).json;
    const settles = traded.trades[0].settlement_date;
    expect((await sbx.svc(['clock', 'advance', '--until', `${settles}T12:00:00+02:00`, '--json'])).code).toBe(0);
    const r = (await sbx.svc(['desk', 'eod', '--json'])).json;
    expect(r.date).toBe(settles);
    expect(r.settlements_due.broker).toMatchObject({ buy: { fills: 2 }, pending_fills: 0 });
    const out = (await sbx.svc(['desk', 'eod'])).stdout;
    expect(out).toContain(`Settlements due ${settles}`);
    expect(out).toContain('No trades on this date.');
    const broker = out.split('\n').find((l) => l.startsWith('broker net'));
    expect(broker).toContain(formatMoney(r.settlements_due.broker.buy.net_micros));
    expect(broker).toContain(formatMoney(r.settlements_due.broker.net_cash_micros));
    for (const i of r.settlements_due.investors) expect(out).toContain(i.account_number);
  });
});

describe('svc desk reference KIND', () => {
  it('fees, ticks, holidays, calendar and instruments, in EGP for people and as the API body with --json', async () => {
    const fees = await sbx.svc(['desk', 'reference', 'fees']);
    expect(fees.code, fees.stderr).toBe(0);
    expect(fees.stdout).toMatch(/commission\s+fee\s+\S+ bp\s+5\.00/);
    expect(fees.stdout).toMatch(/egx\s+fee\s+\S+ bp\s+-\s+5,000\.00/);
    const feesJson = (await sbx.svc(['desk', 'reference', 'fees', '--json'])).json;
    expect(feesJson.lines.find((l: any) => l.line === 'commission').min_micros).toBe(5_000_000);

    const ticks = await sbx.svc(['desk', 'reference', 'ticks']);
    expect(ticks.stdout).toContain('0.001');
    expect(ticks.stdout).toContain('0.01');
    expect(ticks.stdout).toContain('+/-20%');

    const hol = await sbx.svc(['desk', 'reference', 'holidays', '--year', '2026', '--json']);
    expect(hol.json.holidays.length).toBeGreaterThan(5);
    expect(hol.json.holidays.every((h: any) => h.date.startsWith('2026-'))).toBe(true);

    const cal = await sbx.svc(['desk', 'reference', 'calendar', '--start', today, '--end', today, '--json']);
    expect(cal.json.calendar.map((d: any) => d.date)).toEqual([today]);
    const calText = await sbx.svc(['desk', 'reference', 'calendar', '--year', '2027']);
    expect(calText.stdout).toMatch(/^\d+ trading days 2027-01-01 to 2027-12-31/);

    const inst = await sbx.svc(['desk', 'reference', 'instruments']);
    expect(inst.stdout).toMatch(/COMI\s+/);
  });

  it('an unknown kind or a misplaced option is a usage error (exit 2); nothing is sent', async () => {
    const bad = await sbx.svc(['desk', 'reference', 'bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('instruments, calendar, fees, ticks, holidays');
    expect((await sbx.svc(['desk', 'reference', 'fees', '--year', '2026'])).code).toBe(2);
    expect((await sbx.svc(['desk', 'reference', 'calendar', '--start', '2026/01/01'])).code).toBe(2);
  });
});
