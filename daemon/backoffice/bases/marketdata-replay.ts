// marketdata:replay (docs/backoffice.md "Bases"): re-applies the quote overrides recorded between
// `from` and `to` (inclusive), at the approval instant, in the order they were recorded, optionally for
// some symbols only. Each goes through the market's own quote control, so it is stored as a new
// override and the resting orders of its symbol are re-planned; for each symbol the last override of
// the window is the quote in force afterwards. Every override is checked first (on the tick grid,
// inside today's price band): one that is not refuses the whole replay and nothing is applied.
// The record is read from quote_overrides (written only by the market's control store); a sandbox
// reset empties it, so a replay reaches back to the last reset at most.
import { z } from 'zod';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { isOnTick } from '../../market/ticks.js';
import type { ExecCtx } from './exec.js';

const symbol = z.string().regex(/^[A-Z0-9]{2,12}$/);

export const replayParams = z
  .strictObject({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    symbols: z.array(symbol).min(1).max(50).optional(),
  })
  .refine((p) => Date.parse(p.from) < Date.parse(p.to), { message: 'must be after from', path: ['to'] });

type Params = z.infer<typeof replayParams>;
interface Recorded {
  symbol: string;
  at_ms: number;
  price_micros: number;
}

function recorded(ctx: ExecCtx, p: Params): Recorded[] {
  const rows = ctx.deps.db
    .prepare<[number, number], Recorded>(
      'SELECT symbol, at_ms, price_micros FROM quote_overrides WHERE at_ms BETWEEN ? AND ? ORDER BY at_ms, id',
    )
    .all(Date.parse(p.from), Date.parse(p.to));
  return p.symbols ? rows.filter((r) => p.symbols!.includes(r.symbol)) : rows;
}

/** Why this override cannot be applied now, or null. */
function problem(ctx: ExecCtx, r: Recorded, now: number): string | null {
  const { market } = ctx.deps;
  if (!market.catalog.get(r.symbol)) return `${r.symbol} is no longer listed`;
  if (!isOnTick(r.price_micros)) return `${r.symbol} ${r.price_micros} is off the tick grid`;
  const { band } = market.referenceAt(r.symbol, now);
  if (r.price_micros < band.lowerMicros || r.price_micros > band.upperMicros) {
    return `${r.symbol} ${r.price_micros} is outside today's band ${band.lowerMicros}-${band.upperMicros}`;
  }
  return null;
}

export function replayMarketData(ctx: ExecCtx, params: Record<string, unknown>): Outcome<Record<string, unknown>> {
  const p = params as Params;
  const rows = recorded(ctx, p);
  if (rows.length === 0)
    return refuse('ACTION_NOT_EXECUTABLE', `No quote overrides were recorded between ${p.from} and ${p.to}.`);
  const now = ctx.deps.clock.now();
  for (const r of rows) {
    const why = problem(ctx, r, now);
    if (why)
      return refuse(
        'ACTION_NOT_EXECUTABLE',
        `The override of ${ctx.deps.market.calendar.toIso(r.at_ms)} cannot be applied now: ${why}; ` +
          'nothing was replayed.',
      );
  }
  const quotes: Record<string, number> = {};
  for (const r of rows) {
    const applied = ctx.deps.market.setQuote(r.symbol, r.price_micros);
    // checked above, in this same synchronous turn: a refusal here is a bug (the request rolls back)
    if (!applied.ok) throw new Error(`marketdata:replay: ${r.symbol} refused after its check: ${applied.code}`);
    quotes[r.symbol] = r.price_micros;
  }
  return ok({ replayed: rows.length, applied_at: ctx.deps.market.calendar.toIso(now), quotes });
}
