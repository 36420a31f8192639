// svc desk queue|execute|reject: the dealer's order queue (X-Console-Key from the profile). Orders wait
// there while auto-fill is off (svc api POST /admin/sandbox/auto-fill -d '{"enabled":false}').
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { ok, price, printJson, table, usage } from '../output.js';
import { parseEgp } from '../money.js';
import type { DeskOrder, DeskQueue } from '../../daemon/contract/schemas/trading.js';
import { renderOrder } from './order.js';

export interface QueueOptions {
  limit?: string;
}

export interface ExecuteOptions {
  price?: string;
  qty?: string;
}

export interface RejectOptions {
  reason?: string;
}

export async function queue(opts: QueueOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const qs = opts.limit !== undefined ? `?limit=${encodeURIComponent(opts.limit)}` : '';
  const res = ok(await api<DeskQueue>(resolveProfile(g), 'GET', `/broker/v1/queue${qs}`), json);
  if (json) {
    printJson(res);
    return;
  }
  if (res.orders.length === 0) {
    process.stdout.write(`No orders waiting at the desk (auto-fill is ${res.auto_fill ? 'on' : 'off'}).\n`);
    return;
  }
  process.stdout.write(
    `${table(
      [
        'order',
        'account',
        'name',
        'side',
        'qty',
        'filled',
        'symbol',
        'type',
        'limit EGP',
        'tif',
        'tape EGP',
        'band EGP',
        'created',
      ],
      res.orders.map((o) => [
        o.order_id,
        o.account_number,
        o.investor_name,
        o.side,
        o.qty,
        o.filled_qty,
        o.symbol,
        o.type,
        price(o.limit_price_micros),
        o.time_in_force,
        price(o.market.price_micros),
        `${price(o.market.band.lower_micros)}-${price(o.market.band.upper_micros)}`,
        o.created_at,
      ]),
    )}\n`,
  );
}

export async function execute(opts: ExecuteOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const body: Record<string, number> = {};
  if (opts.price !== undefined) {
    try {
      body.price_micros = parseEgp(opts.price);
    } catch (err) {
      usage(`--price: ${(err as Error).message}`);
    }
  }
  if (opts.qty !== undefined) {
    if (!/^[1-9]\d{0,9}$/.test(opts.qty)) usage(`--qty ${opts.qty} must be a whole number of shares greater than 0`);
    body.qty = Number(opts.qty);
  }
  const o = ok(
    await api<DeskOrder>(resolveProfile(g), 'POST', `/broker/v1/queue/${encodeURIComponent(args[0])}/execute`, {
      body,
    }),
    json,
  );
  if (json) printJson(o);
  else process.stdout.write(renderOrder(o));
}

export async function reject(opts: RejectOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  if (opts.reason === undefined)
    usage(
      'missing --reason CODE (DEALER_REJECTED, COMPLIANCE_REVIEW, PRICE_AWAY_FROM_MARKET, ' +
        'DUPLICATE_ORDER_SUSPECTED, INSTRUMENT_HALTED or INSUFFICIENT_BUYING_POWER)',
    );
  const o = ok(
    await api<DeskOrder>(resolveProfile(g), 'POST', `/broker/v1/queue/${encodeURIComponent(args[0])}/reject`, {
      body: { reason_code: opts.reason },
    }),
    json,
  );
  if (json) printJson(o);
  else process.stdout.write(renderOrder(o));
}
