// The market's part of a stock split (docs/market.md "Splits"): an N-for-1 split of an equity is
// recorded at the clock's now, and from that instant the tape quotes the symbol's prices divided by N
// (tape/adjusted.ts): the live price, the reference price (previous close) and so the band, the
// minute path the matcher fills resting orders from, and the desk's book around the price. Prices
// before the instant are unchanged. The listeners are told (the trading service re-reads the symbol's
// resting orders and re-plans them). What a split does to holdings, orders and settlements is the
// corporate action's (daemon/backoffice/bases/corp-action.ts), in the same transaction.
//
// Refusals, checked before anything is stored: UNKNOWN_SYMBOL; SPLIT_NOT_APPLICABLE (not an equity, a
// ratio outside 2..100, or a reference price that divided by the ratio would fall under the smallest
// price); SPLIT_ALREADY_APPLIED (the symbol was split at this very instant).
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { Instrument } from './catalog.js';
import type { SplitRow } from './control-store.js';
import { findInstrument } from './quotes.js';
import type { MarketState } from './state.js';
import { MIN_PRICE_MICROS } from './ticks.js';

export const MIN_SPLIT_RATIO = 2;
export const MAX_SPLIT_RATIO = 100;

export interface SplitPlan {
  instrument: Instrument;
  ratio: number;
  atMs: number;
  refBeforeMicros: number;
}

/** Whether `symbol` can be split by `ratio` now; nothing is stored. */
export function checkSplit(m: MarketState, symbol: string, ratio: number): Outcome<SplitPlan> {
  const inst = findInstrument(m, symbol);
  if (!inst.ok) return inst;
  const sym = inst.value.symbol;
  if (inst.value.security_type !== 'equity')
    return refuse('SPLIT_NOT_APPLICABLE', `${sym} is a ${inst.value.security_type}; only equities split.`);
  if (!Number.isInteger(ratio) || ratio < MIN_SPLIT_RATIO || ratio > MAX_SPLIT_RATIO) {
    return refuse(
      'SPLIT_NOT_APPLICABLE',
      `The ratio must be a whole number from ${MIN_SPLIT_RATIO} to ${MAX_SPLIT_RATIO}; ${ratio} is not.`,
    );
  }
  const atMs = m.clock.now();
  const twin = m.store.splitAt(sym, atMs);
  if (twin)
    return refuse(
      'SPLIT_ALREADY_APPLIED',
      `${sym} was already split (${twin.id}, ${twin.ratio}-for-1) at ${twin.effective_at}.`,
    );
  const ref = m.tape.referencePriceAt(sym, atMs);
  if (ref < ratio * MIN_PRICE_MICROS) {
    return refuse(
      'SPLIT_NOT_APPLICABLE',
      `${sym}'s reference price ${ref} divided by ${ratio} would fall under the smallest price ${MIN_PRICE_MICROS}.`,
    );
  }
  return ok({ instrument: inst.value, ratio, atMs, refBeforeMicros: ref });
}

/** Records a checked split and moves the tape to it; answers the stored row. */
export function applySplit(m: MarketState, plan: SplitPlan, ids: { id: string; actionId: string | null }): SplitRow {
  const row: SplitRow = {
    id: ids.id,
    symbol: plan.instrument.symbol,
    ratio: plan.ratio,
    effective_ms: plan.atMs,
    effective_at: m.calendar.toIso(plan.atMs),
    action_id: ids.actionId,
  };
  m.store.addSplit(row);
  m.controls.splits = [...m.controls.splits, { symbol: row.symbol, atMs: row.effective_ms, ratio: row.ratio }];
  m.tape.invalidate();
  for (const l of m.listeners) l(row.symbol);
  return row;
}
