// svc fund list|subscribe|redeem. Amounts are typed in EGP and units as decimals (up to 6 places),
// both sent as exact integer micros; the investor is --investor or $SVC_INVESTOR_ID. Fund orders are
// signed and idempotent and execute at once at the current NAV.
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { chalk, CliExit, egp, EXIT, nav, ok, printJson, table, units, usage } from '../output.js';
import { parseEgp, parseUnits } from '../money.js';
import type { FundList, FundOrder } from '../../daemon/contract/schemas/funds.js';

export interface ListOptions {
  shariah?: boolean;
}

export interface OrderOptions {
  investor?: string;
  idempotencyKey?: string;
}

function investorOf(opts: { investor?: string }): string {
  const id = opts.investor ?? process.env.SVC_INVESTOR_ID;
  if (!id) usage('missing --investor INV (or set SVC_INVESTOR_ID)');
  return id;
}

export function renderFundOrder(o: FundOrder): string {
  const unitsMoved = `${units(o.result_units_micros)} units`;
  const cash = `${egp(o.result_amount_micros)} EGP`;
  const moved = o.side === 'subscribe' ? `${cash} -> ${unitsMoved}` : `${unitsMoved} -> ${cash}`;
  const accrual = o.first_accrual_date ? `  earns from the ${o.first_accrual_date} sweep` : '';
  return (
    `${o.fund_order_id}  ${o.side} ${o.fund_code}  ${moved} at NAV ${nav(o.nav_micros)} (${o.nav_date})  ` +
    `${chalk.green(o.state)}${accrual}\n`
  );
}

export async function list(opts: ListOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const qs = opts.shariah ? '?shariah=true' : '';
  const res = ok(await api<FundList>(resolveProfile(g), 'GET', `/v1/funds${qs}`), json);
  if (json) {
    printJson(res);
    return;
  }
  process.stdout.write(
    `${table(
      ['fund', 'name', 'NAV EGP', 'NAV date', 'yield', 'min first EGP', 'shariah', 'cut-off'],
      res.funds.map((f) => [
        f.fund_code,
        f.name,
        nav(f.nav_micros),
        f.nav_date,
        `${(f.indicative_yield_bps / 100).toFixed(2)}%`,
        egp(f.min_subscription_micros),
        f.shariah_compliant ? 'yes' : 'no',
        f.cutoff_local,
      ]),
    )}\n`,
  );
}

async function place(body: Record<string, unknown>, opts: OrderOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const o = ok(
    await api<FundOrder>(resolveProfile(g), 'POST', '/v1/fund-orders', { body, idempotencyKey: opts.idempotencyKey }),
    json,
  );
  if (json) printJson(o);
  else process.stdout.write(renderFundOrder(o));
  // A business refusal exits 1 after its answer is printed, like a rejected order (docs/cli.md, Exit codes).
  if (o.state === 'rejected') throw new CliExit(EXIT.apiError);
}

export async function subscribe(opts: OrderOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const [code, amountText] = args;
  let amount: number;
  try {
    amount = parseEgp(amountText);
  } catch (err) {
    usage(`AMOUNT_EGP: ${(err as Error).message}`);
  }
  if (amount === 0) usage('AMOUNT_EGP must be greater than 0');
  await place(
    { investor_id: investorOf(opts), fund_code: code.toUpperCase(), side: 'subscribe', amount_micros: amount },
    opts,
    g,
  );
}

export async function redeem(opts: OrderOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const [code, unitsText] = args;
  let units: number;
  try {
    units = parseUnits(unitsText);
  } catch (err) {
    usage(`UNITS: ${(err as Error).message}`);
  }
  if (units === 0) usage('UNITS must be greater than 0');
  await place(
    { investor_id: investorOf(opts), fund_code: code.toUpperCase(), side: 'redeem', units_micros: units },
    opts,
    g,
  );
}
