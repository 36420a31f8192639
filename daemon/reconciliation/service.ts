// Reconciliation against the custodian (MCDR holdings per investor and symbol) and the bank (cash per
// investor), docs/reconciliation.md. Guarantees:
// - The external statements are computed from the ledger at the end of each business day (sides.ts:
//   the outside world's view, on value dates); only the sandbox's injected breaks are stored, as
//   overrides of that side. Nothing here writes the ledger.
// - A clean sandbox reconciles with no break, whatever was traded, funded, subscribed, paid or settled.
// - A run keeps at most one unresolved break per (investor, asset, kind); a break is resolved once
//   (auto by a later run that matches, accepted by an operator with a note).
// - Bad input (an unknown investor or symbol, a date in the future or off the calendar, a second
//   decision on a break) is refused as a value, and nothing is written.
// The parts: days.ts (dates), sides.ts + statements.ts + snapshot.ts (the two sides), compare.ts
// (differences), runs.ts (a run and the breaks it keeps), breaks.ts (operator decisions), inject.ts
// (the sandbox control), repo.ts (SQL), views.ts (the wire shapes).
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type {
  ExternalStatement,
  Injection,
  ReconciliationBreak,
  ReconciliationRun,
} from '../contract/schemas/reconciliation.js';
import type { ReconCtx, ReconDeps } from './context.js';
import { checkDate } from './days.js';
import { acceptBreak, acknowledgeBreak, getBreak } from './breaks.js';
import { injectBreak, type InjectInput } from './inject.js';
import { createReconRepo, type BreakFilter } from './repo.js';
import { runReconciliation } from './runs.js';
import { snapshotOf } from './snapshot.js';
import { statementLines, type Source } from './statements.js';
import { breakView, injectionView, runView } from './views.js';

const map = <T, U>(o: Outcome<T>, f: (v: T) => U): Outcome<U> => (o.ok ? ok(f(o.value)) : o);

function statement(
  ctx: ReconCtx,
  q: { date: string; source: Source; investor_id?: string },
): Outcome<ExternalStatement> {
  const d = checkDate(ctx, q.date);
  if (!d.ok) return d;
  const day = snapshotOf(ctx, q.date);
  const lines = statementLines(day.sides, day.ext, q.source, q.investor_id);
  return ok({ date: q.date, source: q.source, as_of: ctx.market.calendar.toIso(day.cutoffMs), lines });
}

export function createReconciliationService(deps: ReconDeps) {
  const ctx: ReconCtx = { ...deps, repo: createReconRepo(deps.db) };
  return {
    inject: (i: InjectInput): Outcome<Injection> => map(injectBreak(ctx, i), injectionView),
    statement: (q: { date: string; source: Source; investor_id?: string }) => statement(ctx, q),
    run: (date: string, actor: string): Outcome<ReconciliationRun> => map(runReconciliation(ctx, date, actor), runView),
    runs: (q: { date?: string; limit: number }) => ({ runs: ctx.repo.runs(q.date, q.limit).map(runView) }),
    getRun(id: string): Outcome<ReconciliationRun> {
      const r = ctx.repo.run(id);
      return r ? ok(runView(r)) : refuse('NOT_FOUND', `No reconciliation run ${id}.`);
    },
    breaks: (f: BreakFilter) => ({ breaks: ctx.repo.breaks(f).map(breakView) }),
    getBreak: (id: string): Outcome<ReconciliationBreak> => map(getBreak(ctx, id), breakView),
    acknowledge: (id: string, actor: string, note?: string) => map(acknowledgeBreak(ctx, id, actor, note), breakView),
    accept: (id: string, actor: string, note: string) => map(acceptBreak(ctx, id, actor, note), breakView),
  };
}

export type ReconciliationService = ReturnType<typeof createReconciliationService>;
