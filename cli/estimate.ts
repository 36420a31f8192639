// What an order would cost before it is placed: the daemon's own fee and reservation rules
// (daemon/contract/fees.ts) on the schedule of fixtures/fees.json, bundled into the CLI.
import feesFixture from '../fixtures/fees.json' with { type: 'json' };
import {
  feeScheduleOf,
  feesOnly,
  notional,
  orderFees,
  reservationFor,
  type FeeLines,
  type FeesFixture,
  type Reservation,
} from '../daemon/contract/fees.js';
import { egp, price } from './output.js';

const SCHEDULE = feeScheduleOf(feesFixture as FeesFixture);

export interface OrderDraft {
  side: 'buy' | 'sell';
  qty: number;
  /** null: a market order. */
  limitPriceMicros: number | null;
}

/** The part of a quote an estimate needs (GET /v1/instruments/{symbol}/quote). */
export interface PriceContext {
  price_micros: number;
  band: { lower_micros: number; upper_micros: number };
  /** The quote's session and halt; unknown (absent) counts as not filling at once. */
  session_open?: boolean;
  halted?: boolean;
}

/** The sandbox's split quantity: 7 fill at once and 6 a minute later (docs/trading.md), so the rest rests. */
const SPLIT_QTY = 13;

/**
 * Whether the order fills whole the moment it is placed (docs/trading.md, Fills): in session, not
 * halted, a market order or a marketable limit, and not the sandbox's split quantity. Its reservation is
 * then taken and released within the placing: nothing stays reserved.
 */
function fillsAtOnce(d: OrderDraft, q: PriceContext): boolean {
  if (q.session_open !== true || q.halted === true || d.qty === SPLIT_QTY) return false;
  if (d.limitPriceMicros === null) return true;
  return d.side === 'buy' ? q.price_micros <= d.limitPriceMicros : q.price_micros >= d.limitPriceMicros;
}

export interface Estimate {
  /** The price assumed: the limit, or the tape price now for a market order. */
  priceMicros: number;
  valueMicros: number;
  fees: FeeLines;
  feesMicros: number;
  /** Buy: value + fees + stamp duty, debited. Sell: value - fees - stamp duty, credited. */
  netMicros: number;
  /** What the order holds while it works (null: too large to represent). */
  reservation: Reservation | null;
  /** It fills whole as it is placed: the reservation is only what placing it needs. */
  fillsAtOnce: boolean;
}

export function estimateOrder(d: OrderDraft, q: PriceContext): Estimate | null {
  const priceMicros = d.limitPriceMicros ?? q.price_micros;
  const valueMicros = notional(d.qty, priceMicros);
  if (valueMicros === null) return null;
  const fees = orderFees(valueMicros, SCHEDULE);
  const feesMicros = feesOnly(fees);
  const charges = feesMicros + fees.stamp_duty_micros;
  const reservation = reservationFor(
    { side: d.side, qty: d.qty, limitPriceMicros: d.limitPriceMicros },
    { lowerMicros: q.band.lower_micros, upperMicros: q.band.upper_micros },
    SCHEDULE,
  );
  return {
    priceMicros,
    valueMicros,
    fees,
    feesMicros,
    netMicros: d.side === 'buy' ? valueMicros + charges : valueMicros - charges,
    reservation,
    fillsAtOnce: fillsAtOnce(d, q),
  };
}

/** The estimate as lines of text (svc order buy's confirmation, the dashboard's order form). */
export function estimateLines(d: OrderDraft, e: Estimate): string[] {
  const at =
    d.limitPriceMicros === null
      ? `at the market price now ${price(e.priceMicros)}`
      : `at the limit ${price(e.priceMicros)}`;
  const f = e.fees;
  const lines = [
    `Value ${at}: ${egp(e.valueMicros)} EGP`,
    `Fees ${egp(e.feesMicros)} EGP (commission ${egp(f.commission_micros)}, EGX ${egp(f.egx_micros)}, MCDR ` +
      `${egp(f.mcdr_micros)}, IPF ${egp(f.ipf_micros)}, FRA ${egp(f.fra_micros)})`,
    `Stamp duty ${egp(f.stamp_duty_micros)} EGP (withheld)`,
    `${d.side === 'buy' ? 'Net debit' : 'Net credit'} about ${egp(e.netMicros)} EGP`,
  ];
  return [...lines, ...reservationLines(d, e)];
}

/** What the order holds: while it rests, or (filling at once) only what placing it needs. */
function reservationLines(d: OrderDraft, e: Estimate): string[] {
  const r = e.reservation;
  if (r === null) return ['Reservation: too large to hold'];
  if (e.fillsAtOnce) {
    const needs =
      d.side === 'buy'
        ? `${egp(r.cashMicros)} EGP of settled cash`
        : `${r.shares} settled shares` +
          `${r.cashMicros > 0 ? ` and ${egp(r.cashMicros)} EGP of settled cash (fees above the proceeds)` : ''}`;
    return ['Fills at once at the market price: nothing stays reserved', `  (placing it needs ${needs})`];
  }
  const basis = d.limitPriceMicros === null ? 'qty x the highest price allowed today' : 'qty x limit';
  if (d.side === 'buy')
    return [`Reserved now: ${egp(r.cashMicros)} EGP of settled cash`, `  (${basis}, plus the most the fees can be)`];
  return [
    `Reserved now: ${r.shares} settled shares` +
      `${r.cashMicros > 0 ? ` and ${egp(r.cashMicros)} EGP of settled cash (fees above the proceeds)` : ''}`,
  ];
}
