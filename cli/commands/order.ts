// svc order buy|sell|cancel|list|show|note. Prices are typed in EGP and sent as exact integer micros;
// the investor is --investor or $SVC_INVESTOR_ID. Placing and cancelling are signed and idempotent.
//
// With SYMBOL, QTY or the investor missing, a terminal asks for them (order-wizard.ts) and shows the
// estimate before anything is sent; without one that is a usage error (exit 2) naming what is missing.
//
// --wait follows the order to a terminal state (filled, canceled, rejected, expired). On a running
// clock it polls GET /v1/orders/{id} (the daemon runs due fills and expiries as it answers), at most
// --timeout seconds. On a frozen clock nothing moves by itself: it prints the order and says which
// clock advance would move it. Exit 1 when the order was rejected or the wait timed out.
import { setTimeout as sleep } from 'node:timers/promises';
import { api, refusalOf } from '../client/http.js';
import { resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { CliExit, EXIT, chalk, egp, info, ok, price, printJson, table, usage } from '../output.js';
import { svc } from '../hints.js';
import { canPrompt } from '../interactive.js';
import { parseEgp } from '../money.js';
import type { SandboxState } from '../../daemon/contract/schemas/sandbox.js';
import type { ContractNote, Order, OrderList } from '../../daemon/contract/schemas/trading.js';
import type { Given } from './order-wizard.js';

export interface PlaceOptions {
  limit?: string;
  tif?: string;
  investor?: string;
  clientOrderId?: string;
  idempotencyKey?: string;
  wait?: boolean;
  timeout?: string;
  /** The language of the assistant's remedy printed under a rejection. */
  lang?: 'en' | 'ar';
}

export type CancelOptions = Pick<PlaceOptions, 'idempotencyKey' | 'wait' | 'timeout'>;

export interface ListOptions {
  investor?: string;
  status?: string;
  limit?: string;
}

const POLL_MS = 500;
const TERMINAL = new Set(['filled', 'canceled', 'rejected', 'expired']);

/** --investor, else $SVC_INVESTOR_ID; undefined when neither is set (an empty value counts as unset). */
function investorOf(opts: { investor?: string }): string | undefined {
  return (opts.investor ?? process.env.SVC_INVESTOR_ID) || undefined;
}

function statusText(o: Order): string {
  const s = o.status;
  if (s === 'filled') return chalk.green(s);
  if (s === 'rejected') return chalk.red(`${s} (${o.reason_code})`);
  if (s === 'canceled' || s === 'expired') return chalk.yellow(o.reason_code ? `${s} (${o.reason_code})` : s);
  return s;
}

export function renderOrder(o: Order): string {
  const at = o.type === 'limit' ? `limit ${price(o.limit_price_micros)}` : 'market';
  const fill = o.filled_qty > 0 ? `  filled ${o.filled_qty}/${o.qty} @ ${price(o.avg_price_micros)} EGP` : '';
  return (
    `${o.order_id}  ${o.side} ${o.qty} ${o.symbol}  ${at} ${o.time_in_force}  ${statusText(o)}${fill}  ` +
    `${chalk.dim(o.updated_at)}\n`
  );
}

function print(o: Order, json: boolean): void {
  if (json) printJson(o);
  else process.stdout.write(renderOrder(o));
}

async function clockMode(profile: Profile): Promise<'frozen' | 'running' | null> {
  if (!profile.admin_key) return null;
  const res = await api<SandboxState>(profile, 'GET', '/admin/sandbox/state');
  return res.status === 200 ? res.body.clock.mode : null;
}

function frozenHint(o: Order): string {
  if (o.status === 'accepted') return svc('clock advance --until next_open');
  if (o.status === 'pending_new')
    return (
      `the dealer desk holds it: ${svc(`desk execute ${o.order_id}`)} (or ` +
      `${svc(`desk reject ${o.order_id} --reason CODE`)})`
    );
  if (o.status === 'pending_cancel' || o.status === 'partially_filled') return svc('clock advance --minutes 1');
  return o.time_in_force === 'day'
    ? `${svc('clock advance --minutes N')} (it expires at the close: --until next_close)`
    : `${svc('clock advance --minutes N')} or --days N`;
}

async function follow(profile: Profile, first: Order, timeoutS: number, json: boolean): Promise<Order> {
  let o = first;
  if (TERMINAL.has(o.status)) return o;
  if ((await clockMode(profile)) === 'frozen') {
    info(`The sandbox clock is frozen: the order moves only when the clock does. Run: ${frozenHint(o)}`);
    return o;
  }
  const deadline = Date.now() + timeoutS * 1000;
  while (!TERMINAL.has(o.status)) {
    if (Date.now() >= deadline) {
      print(o, json);
      info(`${o.order_id} is still ${o.status} after ${timeoutS} s.`);
      throw new CliExit(EXIT.apiError);
    }
    await sleep(POLL_MS);
    const next = ok(await api<Order>(profile, 'GET', `/v1/orders/${encodeURIComponent(o.order_id)}`), json);
    if (!json && (next.status !== o.status || next.filled_qty !== o.filled_qty))
      info(`  ${o.status} -> ${next.status}${next.filled_qty ? ` (${next.filled_qty}/${next.qty} filled)` : ''}`);
    o = next;
  }
  return o;
}

function timeoutOf(opts: { timeout?: string }): number {
  const s = Number(opts.timeout ?? '300');
  if (!Number.isInteger(s) || s <= 0) usage(`--timeout ${opts.timeout} must be a positive whole number of seconds`);
  return s;
}

async function place(side: 'buy' | 'sell', opts: PlaceOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const [symbol, qtyText] = args;
  const timeoutS = timeoutOf(opts);
  const investorId = investorOf(opts);
  if (symbol === undefined || qtyText === undefined) {
    const missing = [symbol === undefined ? 'SYMBOL' : null, qtyText === undefined ? 'QTY' : null]
      .filter(Boolean)
      .join(' and ');
    if (!canPrompt(json))
      usage(
        `missing ${missing} (no terminal to ask in): ` +
          `${svc(`order ${side} SYMBOL QTY [--limit PRICE_EGP] [--tif day|gtc|ioc|fok]`)}`,
      );
    await askAndSend(
      side,
      resolveProfile(g),
      { symbol, qty: qtyText, limit: opts.limit, tif: opts.tif, investor: investorId },
      opts,
      timeoutS,
      json,
    );
    return;
  }
  if (!/^[1-9]\d{0,9}$/.test(qtyText)) usage(`QTY ${qtyText} must be a whole number of shares greater than 0`);
  if (investorId === undefined && !canPrompt(json)) usage('missing --investor INV (or set SVC_INVESTOR_ID)');
  const body: Record<string, unknown> = {
    investor_id: investorId,
    symbol: symbol.toUpperCase(),
    side,
    type: 'market',
    qty: Number(qtyText),
  };
  if (opts.limit !== undefined) {
    try {
      body.limit_price_micros = parseEgp(opts.limit);
    } catch (err) {
      usage(`--limit: ${(err as Error).message}`);
    }
    body.type = 'limit';
  }
  if (opts.tif !== undefined) body.time_in_force = opts.tif;
  if (opts.clientOrderId !== undefined) body.client_order_id = opts.clientOrderId;
  if (investorId === undefined) {
    // Only the investor is missing: the order stands as typed (market unless --limit, day unless --tif);
    // the investor is asked for and the estimate shown before confirming, as when more is missing.
    const given: Given = {
      symbol,
      qty: qtyText,
      type: opts.limit === undefined ? 'market' : 'limit',
      limit: opts.limit,
      tif: opts.tif ?? 'day',
    };
    await askAndSend(side, resolveProfile(g), given, opts, timeoutS, json);
    return;
  }
  await send(resolveProfile(g), body, opts, timeoutS, json);
}

async function askAndSend(
  side: 'buy' | 'sell',
  profile: Profile,
  given: Given,
  opts: PlaceOptions,
  timeoutS: number,
  json: boolean,
): Promise<void> {
  const { askOrder } = await import('./order-wizard.js');
  const asked = await askOrder(side, profile, given);
  if (!asked) {
    info('Nothing placed.');
    return;
  }
  if (opts.clientOrderId !== undefined) asked.client_order_id = opts.clientOrderId;
  await send(profile, asked, opts, timeoutS, json);
}

/**
 * Under a rejection, for people: the assistant's remedy when it answers one (cli/commands/ai.ts); nothing
 * otherwise. Under a refused request the hint already gives the remedy in svc commands, so the
 * assistant adds a line only in Arabic (the hint's language is English).
 */
async function explainRejection(
  profile: Profile,
  about: { orderId: string } | { code: string },
  stream: NodeJS.WriteStream,
  lang: 'en' | 'ar' = 'en',
): Promise<void> {
  if ('code' in about && lang === 'en') return;
  const { rejectionRemedy, remedyLine } = await import('./ai.js');
  const remedy = await rejectionRemedy(profile, about, lang);
  if (remedy) stream.write(`${remedyLine(remedy)}\n`);
}

async function send(
  profile: Profile,
  body: Record<string, unknown>,
  opts: PlaceOptions,
  timeoutS: number,
  json: boolean,
): Promise<void> {
  const res = await api<Order>(profile, 'POST', '/v1/orders', { body, idempotencyKey: opts.idempotencyKey });
  let o: Order;
  try {
    o = ok(res, json);
  } catch (err) {
    const code = refusalOf(res.body)?.error?.code;
    if (!json && res.status < 500 && typeof code === 'string')
      await explainRejection(profile, { code }, process.stderr, opts.lang);
    throw err;
  }
  if (opts.wait) o = await follow(profile, o, timeoutS, json);
  print(o, json);
  if (o.status !== 'rejected') return;
  if (!json) await explainRejection(profile, { orderId: o.order_id }, process.stdout, opts.lang);
  throw new CliExit(EXIT.apiError);
}

export async function buy(opts: PlaceOptions, g: GlobalOptions, args: string[]): Promise<void> {
  await place('buy', opts, g, args);
}

export async function sell(opts: PlaceOptions, g: GlobalOptions, args: string[]): Promise<void> {
  await place('sell', opts, g, args);
}

export async function cancel(opts: CancelOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const timeoutS = timeoutOf(opts);
  const profile = resolveProfile(g);
  let o: Order = ok(
    await api<Order>(profile, 'DELETE', `/v1/orders/${encodeURIComponent(args[0])}`, {
      idempotencyKey: opts.idempotencyKey,
    }),
    json,
  );
  if (opts.wait) o = await follow(profile, o, timeoutS, json);
  print(o, json);
}

export async function list(opts: ListOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const params = new URLSearchParams();
  const investorId = opts.investor ?? process.env.SVC_INVESTOR_ID;
  if (investorId) params.set('investor_id', investorId);
  if (opts.status !== undefined) params.set('status', opts.status);
  if (opts.limit !== undefined) params.set('limit', String(opts.limit));
  const qs = params.size ? `?${params}` : '';
  const res = ok(await api<OrderList>(resolveProfile(g), 'GET', `/v1/orders${qs}`), json);
  if (json) {
    printJson(res);
    return;
  }
  if (res.orders.length === 0) {
    process.stdout.write('No orders.\n');
    return;
  }
  process.stdout.write(
    `${table(
      [
        'order',
        'investor',
        'side',
        'qty',
        'symbol',
        'type',
        'limit EGP',
        'tif',
        'status',
        'filled',
        'avg EGP',
        'reason',
        'created',
      ],
      res.orders.map((o) => [
        o.order_id,
        o.investor_id,
        o.side,
        o.qty,
        o.symbol,
        o.type,
        price(o.limit_price_micros),
        o.time_in_force,
        o.status,
        o.filled_qty,
        price(o.avg_price_micros),
        o.reason_code ?? '-',
        o.created_at,
      ]),
    )}\n`,
  );
}

export async function show(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const o = ok(await api<Order>(resolveProfile(g), 'GET', `/v1/orders/${encodeURIComponent(args[0])}`), json);
  if (json) {
    printJson(o);
    return;
  }
  const rows: Array<[string, string]> = [
    ['order', o.order_id],
    ['client_order_id', o.client_order_id ?? '-'],
    ['investor', o.investor_id],
    ['instrument', `${o.symbol} (XCAI)`],
    ['side', o.side],
    ['type', o.type],
    ['limit', o.limit_price_micros === null ? '-' : `${price(o.limit_price_micros)} EGP`],
    ['time in force', o.time_in_force],
    ['quantity', String(o.qty)],
    ['status', `${statusText(o)} (state ${o.state})`],
    ['filled', `${o.filled_qty}${o.avg_price_micros === null ? '' : ` @ ${price(o.avg_price_micros)} EGP average`}`],
    ['reason', o.reason_code ?? '-'],
    ['created', o.created_at],
    ['submitted', o.submitted_at ?? '-'],
    ['filled at', o.filled_at ?? '-'],
    ['canceled at', o.canceled_at ?? '-'],
    ['expired at', o.expired_at ?? '-'],
  ];
  process.stdout.write(`${rows.map(([k, v]) => `${k.padEnd(16)}${v}`).join('\n')}\n`);
}

export async function note(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const n = ok(
    await api<ContractNote>(resolveProfile(g), 'GET', `/v1/orders/${encodeURIComponent(args[0])}/contract-note`),
    json,
  );
  if (json) {
    printJson(n);
    return;
  }
  const f = n.fees;
  const out = [
    `Contract note  ${n.order_id}  account ${n.account_number}`,
    `${n.side === 'buy' ? 'Bought' : 'Sold'} ${n.filled_qty} of ${n.order_qty} ` +
      `${n.symbol} (${n.market_id})  ${n.status}`,
    `Trade date ${n.trade_date}  settlement date ${n.settlement_date} (T+2)`,
    '',
    table(
      ['executed', 'qty', 'price EGP', 'gross EGP', 'fees EGP', 'stamp duty EGP', 'net EGP', 'settles'],
      n.fills.map((x) => [
        x.executed_at,
        x.qty,
        price(x.price_micros),
        egp(x.gross_micros),
        egp(x.fees.total_micros),
        egp(x.withholding.stamp_duty_micros),
        egp(x.net_micros),
        x.settlement_date,
      ]),
    ),
    '',
    `Gross consideration          ${egp(n.gross_consideration_micros)} EGP  (average ${price(n.avg_price_micros)})`,
    `Commission                   ${egp(f.commission_micros)}`,
    `EGX fee                      ${egp(f.egx_micros)}`,
    `MCDR fee                     ${egp(f.mcdr_micros)}`,
    `Investor protection fund     ${egp(f.ipf_micros)}`,
    `FRA fee                      ${egp(f.fra_micros)}`,
    `Stamp duty (withheld)        ${egp(n.withholding.stamp_duty_micros)}`,
    `Net consideration (${n.net_direction})   ${egp(n.net_consideration_micros)} EGP`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}
