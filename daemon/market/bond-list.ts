// The bond and sukuk listing: clean price from the tape, accrued interest and dirty price to the T+1
// settlement date (bonds.ts). Ordered by market_id then symbol; the shariah filter never reorders.
import { DateTime } from 'luxon';
import type { MarketReader } from './service.js';
import { accruedMicros, dirtyPriceMicros } from './bonds.js';
import type { Instrument } from './catalog.js';

const NOTE =
  'Ordered by market_id then symbol only; no yield or coupon sort is offered. Bonds and sukuk are not ' +
  'orderable in this release. Accrued interest is per unit of face value to the T+1 settlement date.';

/** Bond dates are carried on the wire as the start of the day in Cairo, with its offset. */
const toIsoDate = (d: string) => DateTime.fromISO(d, { zone: 'Africa/Cairo' }).toISO({ suppressMilliseconds: true })!;

function bondRow(b: Instrument, clean: number, settlement: string, baseUrl: string) {
  const accrued = accruedMicros(b as Required<Instrument>, settlement);
  return {
    market_id: b.market_id,
    symbol: b.symbol,
    name: b.name,
    name_ar: b.name_ar,
    isin: b.isin,
    security_type: b.security_type as 'bond' | 'sukuk',
    clean_price_micros: clean,
    ref_price_micros: clean,
    currency: 'EGP' as const,
    shariah_compliant: b.shariah_compliant,
    face_value_micros: b.face_value_micros!,
    coupon_rate_bps: b.coupon_rate_bps!,
    coupon_frequency: b.coupon_frequency!,
    issue_date: toIsoDate(b.issue_date!),
    maturity_date: toIsoDate(b.maturity_date!),
    day_count_convention: b.day_count_convention!,
    first_coupon_date: b.first_coupon_date ?? null,
    accrued_interest_micros: accrued,
    dirty_price_micros: dirtyPriceMicros(clean, accrued, b.face_value_micros!),
    settlement_date: settlement,
    logo_url: baseUrl + b.logo_url,
  };
}

/** GET /v1/bonds. */
export function listBonds(deps: MarketReader, shariahOnly: boolean, baseUrl: string) {
  const { market } = deps;
  const now = deps.clock.now();
  const settlement = market.calendar.addTradingDays(market.calendar.localDate(now), 1);
  const bonds = market.catalog.bonds
    .filter((b) => !shariahOnly || b.shariah_compliant)
    .map((b) => bondRow(b, market.tape.priceAt(b.symbol, now), settlement, baseUrl));
  return { bonds, ordering: 'alphabetical' as const, note: NOTE };
}
