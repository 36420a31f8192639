// corp-action:process (docs/backoffice.md "Bases").
//
// kind 'dividend': processes a declared cash dividend now, ahead of its pay date: the entitled holders
// are those the dividend's record rule fixes (daemon/dividends/service.ts: holders at the start of the
// ex-date, from the ledger's history), so its ex-date must have begun; each is paid its gross and
// withheld its tax at once, with DIV and TAX activities, by the dividend module's own record and pay
// steps. The scheduled pay step then finds it paid and does nothing. A cash dividend changes no open
// order (EGX does not adjust resting orders for cash dividends).
//
// kind 'split': an N-for-1 stock split at the clock's now: the market's prices, the holdings, the open
// orders and the pending deliveries of the symbol, in the approving transaction (corp-split.ts).
import { z } from 'zod';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { readFixture } from '../../fixtures.js';
import { createLedgerHistory } from '../../ledger/history.js';
import type { DividendCtx } from '../../dividends/context.js';
import { payDividend, recordDividend } from '../../dividends/entitlements.js';
import { createDividendRepo } from '../../dividends/repo.js';
import { processSplit } from './corp-split.js';
import type { ExecCtx } from './exec.js';

export const corpActionParams = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('dividend'), dividend_id: z.string().regex(/^div_[A-Za-z0-9_]{1,60}$/) }),
  z.strictObject({
    kind: z.literal('split'),
    symbol: z.string().regex(/^[A-Z0-9]{2,12}$/),
    ratio: z.number().int().min(2).max(100),
  }),
]);

type Params = z.infer<typeof corpActionParams>;

function dividendCtx(deps: ExecCtx['deps']): DividendCtx {
  return {
    db: deps.db,
    ids: deps.ids,
    clock: deps.clock,
    nowIso: deps.nowIso,
    ledger: deps.ledger,
    market: deps.market,
    scheduler: deps.scheduler,
    repo: createDividendRepo(deps.db),
    history: createLedgerHistory(deps.db),
    withholdingBps: readFixture<{ dividend_withholding_bps: number }>('fees.json').dividend_withholding_bps,
  };
}

function processDividend({ deps }: ExecCtx, dividendId: string): Outcome<Record<string, unknown>> {
  const ctx = dividendCtx(deps);
  const d = ctx.repo.byId(dividendId);
  if (!d) return refuse('ACTION_NOT_EXECUTABLE', `No dividend ${dividendId}.`);
  if (d.state === 'paid') return refuse('ACTION_NOT_EXECUTABLE', `${dividendId} was paid at ${d.paid_at}.`);
  if (d.state === 'declared') {
    if (deps.clock.now() < d.record_ms) {
      return refuse(
        'ACTION_NOT_EXECUTABLE',
        `The ex-date of ${dividendId} (${d.ex_date}) has not begun: its holders are fixed at ` +
          `${deps.market.calendar.toIso(d.record_ms)}.`,
      );
    }
    recordDividend(ctx, d);
  }
  payDividend(ctx, ctx.repo.byId(dividendId)!);
  const ents = ctx.repo.entitlements(dividendId);
  const paid = ents.filter((e) => e.state === 'paid');
  return ok({
    kind: 'dividend',
    dividend_id: dividendId,
    symbol: d.symbol,
    state: 'paid',
    paid_at: deps.nowIso(),
    holders_paid: paid.length,
    holders_failed: ents.length - paid.length,
    net_paid_micros: paid.reduce((s, e) => s + (e.net_micros ?? 0), 0),
  });
}

export function processCorpAction(ctx: ExecCtx, params: Record<string, unknown>): Outcome<Record<string, unknown>> {
  const p = params as Params;
  if (p.kind === 'dividend') return processDividend(ctx, p.dividend_id);
  return processSplit(ctx, p.symbol, p.ratio);
}
