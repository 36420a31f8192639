// svc desk eod [--date YYYY-MM-DD]: the dealer's end of day (X-Console-Key from the profile): the
// date's trades with their charges, fees by line, the day's cash movements and the settlement
// obligations falling due that date. Money shows in EGP (daemon/contract/money.ts); --json is the
// API's body, in micros.
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { chalk, egp, ok, price, printJson, table, usage } from '../output.js';
import type { DeskEod } from '../../daemon/contract/schemas/desk-reports.js';

export interface EodOptions {
  date?: string;
}

const section = (title: string) => `\n${chalk.bold(title)}\n`;

/** "2026-11-22T10:05:00+02:00" -> "10:05" (the report is of one date). */
const timeOf = (iso: string) => iso.slice(11, 16);

function trades(r: DeskEod): string {
  if (r.trades.length === 0) return `${section('Trades')}No trades on this date.\n`;
  return (
    section(`Trades (${r.trades.length}), amounts in EGP`) +
    table(
      ['time', 'order', 'account', 'side', 'symbol', 'qty', 'price', 'gross', 'fees', 'stamp', 'net'],
      r.trades.map((x) => [
        timeOf(x.executed_at),
        x.order_id,
        x.account_number,
        x.side,
        x.symbol,
        x.qty,
        price(x.price_micros),
        egp(x.gross_micros),
        egp(x.fees_micros),
        egp(x.fees.stamp_duty_micros),
        egp(x.net_micros),
      ]),
    ) +
    `\nAll settle ${[...new Set(r.trades.map((x) => x.settlement_date))].join(', ')}.\n`
  );
}

function fees(r: DeskEod): string {
  if (r.trades.length === 0) return `${section('Fees by line')}No charges on this date.\n`;
  const f = r.fees_by_line;
  const rows: Array<[string, number]> = [
    ['Commission', f.commission_micros],
    ['EGX', f.egx_micros],
    ['MCDR', f.mcdr_micros],
    ['IPF', f.ipf_micros],
    ['FRA', f.fra_micros],
    ['Fees', f.fees_micros],
    ['Stamp duty (withheld)', f.stamp_duty_micros],
    ['Total charges', f.total_micros],
  ];
  return (
    section('Fees by line') +
    table(
      ['line', 'EGP'],
      rows.map(([k, v]) => [k, egp(v)]),
    ) +
    '\n'
  );
}

const TYPE_NAMES: Record<string, string> = {
  CSD: 'deposits',
  CSW: 'withdrawals',
  FILL: 'trade consideration',
  FEE: 'fees',
  TAX: 'taxes withheld',
  DIV: 'dividends',
  INT: 'interest',
  JNLC: 'cash journals',
  JNLS: 'security journals',
  SUB: 'fund subscriptions',
  RED: 'fund redemptions',
};

function cash(r: DeskEod): string {
  if (r.cash.totals.length === 0) return `${section('Cash movements')}No cash moved on this date.\n`;
  return (
    section(`Cash movements (${r.cash.movements.length})`) +
    table(
      ['type', 'what', 'count', 'in EGP', 'out EGP', 'net EGP'],
      r.cash.totals.map((x) => [
        x.activity_type,
        TYPE_NAMES[x.activity_type] ?? '',
        x.count,
        egp(x.in_micros),
        egp(x.out_micros),
        egp(x.net_micros),
      ]),
    ) +
    '\n'
  );
}

function settlements(r: DeskEod): string {
  const s = r.settlements_due;
  if (s.investors.length === 0) return `${section('Settlements due')}Nothing settles on this date.\n`;
  const b = s.broker;
  return (
    section(`Settlements due ${r.date}`) +
    table(
      ['account', 'buys', 'investor pays EGP', 'sells', 'investor receives EGP', 'net EGP'],
      [
        ...s.investors.map((i) => [
          i.account_number,
          i.buy.fills,
          egp(i.buy.net_micros),
          i.sell.fills,
          egp(i.sell.net_micros),
          egp(i.net_cash_micros),
        ]),
        [
          'broker net',
          b.buy.fills,
          egp(b.buy.net_micros),
          b.sell.fills,
          egp(b.sell.net_micros),
          egp(b.net_cash_micros),
        ],
      ],
    ) +
    `\nnet: what the investor receives less what they pay (negative: they pay the broker).\n` +
    `Net with the market (sells - buys, gross): ${egp(b.market_net_micros)} EGP. Fills not settled yet: ` +
    `${b.pending_fills}.\n`
  );
}

export function renderEod(r: DeskEod): string {
  const day = r.trading_day ? 'a trading day' : 'no session (weekend or holiday)';
  const head = `${chalk.bold(`End of day ${r.date}`)}  ${day}  broker ${r.broker_id ?? 'all'}  as of ${r.as_of}\n`;
  return head + trades(r) + fees(r) + cash(r) + settlements(r);
}

export async function eod(opts: EodOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  if (opts.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(opts.date))
    usage(`--date ${opts.date} must be YYYY-MM-DD`);
  const qs = opts.date !== undefined ? `?date=${encodeURIComponent(opts.date)}` : '';
  const res = ok(await api<DeskEod>(resolveProfile(g), 'GET', `/broker/v1/eod${qs}`), json);
  if (json) printJson(res);
  else process.stdout.write(renderEod(res));
}
