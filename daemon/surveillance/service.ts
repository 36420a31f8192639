// Trade surveillance (docs/surveillance.md): runs the rules of rules.ts over one EGX session at each
// session close (a computed source of the scheduler, so it runs at the same simulated instant on every
// replay of a seed) and on demand, stores what it finds as alerts, and moves alerts through open ->
// escalated -> closed. Guarantees: one alert per (rule, investor, symbol, session), so running a
// session again raises nothing twice; the evidence of an alert never changes; every raised alert and
// every change of state is in the audit chain.
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { concentration, layering, washTrades, type FillFact, type Finding } from './rules.js';
import { createSurveillanceRepo, type AlertFilter, type SurveillanceRepo } from './repo.js';
import { createThresholdStore, type ThresholdsPatch, type ThresholdStore } from './thresholds.js';
import { alertView, runView } from './views.js';

export type SurveillanceDeps = Pick<Deps, 'db' | 'ids' | 'audit' | 'market' | 'clock' | 'scheduler' | 'nowIso'>;

interface Ctx {
  deps: SurveillanceDeps;
  repo: SurveillanceRepo;
  thresholds: ThresholdStore;
}

/** The session's volume per symbol: the tape's volume up to now plus the sandbox's own fills. */
function volumeOf(ctx: Ctx, date: string, fills: readonly FillFact[]): (symbol: string) => number {
  const own = new Map<string, number>();
  for (const f of fills) own.set(f.symbol, (own.get(f.symbol) ?? 0) + f.qty);
  const at = ctx.deps.clock.now();
  const memo = new Map<string, number>();
  return (symbol) => {
    let v = memo.get(symbol);
    if (v === undefined)
      memo.set(symbol, (v = (ctx.deps.market.tape.barAsOf(symbol, date, at)?.volume ?? 0) + (own.get(symbol) ?? 0)));
    return v;
  };
}

function findings(ctx: Ctx, date: string): Finding[] {
  const cal = ctx.deps.market.calendar;
  const t = ctx.thresholds.current();
  const closeMs = cal.session(date)!.closeMs;
  const fromMs = cal.session(cal.prevTradingDay(date))!.closeMs;
  const fills = ctx.repo.fillsOf(date);
  return [
    ...washTrades(fills, t),
    ...layering(ctx.repo.cancelsOf(fromMs, closeMs), t),
    ...concentration(fills, volumeOf(ctx, date, fills), t),
  ];
}

/** Runs every rule over the session of `date`; stores the run and the alerts it raises. */
function runSession(ctx: Ctx, trigger: 'session_close' | 'on_demand', date: string, actor: string) {
  const { deps, repo } = ctx;
  const at = deps.nowIso();
  const runId = deps.ids.next('srun');
  repo.insertRun({
    id: runId,
    trigger,
    session_date: date,
    thresholds: JSON.stringify(ctx.thresholds.current()),
    alerts_raised: 0,
    ran_at: at,
  });
  const raised: string[] = [];
  for (const f of findings(ctx, date)) {
    if (repo.alerted(f, date)) continue;
    const id = deps.ids.next('alr');
    const cal = deps.market.calendar;
    repo.insertAlert({
      id,
      run_id: runId,
      session_date: date,
      window_start: cal.toIso(f.start_ms),
      window_end: cal.toIso(f.end_ms),
      at,
      f,
    });
    raised.push(id);
  }
  repo.setRaised(runId, raised.length);
  if (raised.length > 0) {
    deps.audit.append({
      actor,
      action: 'surveillance.alerts_raised',
      subject: runId,
      tenantId: null,
      detail: { trigger, session_date: date, alert_ids: raised },
    });
  }
  return runView(
    {
      id: runId,
      trigger,
      session_date: date,
      thresholds: JSON.stringify(ctx.thresholds.current()),
      alerts_raised: raised.length,
      ran_at: at,
    },
    repo.byRun(runId),
  );
}

/** The session an on-demand run looks at: the given trading day up to today, or the latest that opened. */
function sessionDate(ctx: Ctx, date: string | undefined): Outcome<string> {
  const cal = ctx.deps.market.calendar;
  const now = ctx.deps.clock.now();
  const today = cal.localDate(now);
  if (date === undefined) {
    const s = cal.session(today);
    return ok(s && now >= s.openMs ? today : cal.prevTradingDay(today));
  }
  if (
    Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
    new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
  ) {
    return refuse('SURVEILLANCE_DATE_INVALID', `date: ${date} is not a calendar date.`);
  }
  if (date > today)
    return refuse('SURVEILLANCE_DATE_INVALID', `date: ${date} is after today (${today}, the sandbox clock).`);
  if (!cal.isTradingDay(date))
    return refuse('SURVEILLANCE_DATE_INVALID', `date: ${date} is not an EGX trading day (a weekend or a holiday).`);
  return ok(date);
}

function escalate(ctx: Ctx, id: string, note: string | undefined, actor: string) {
  const a = ctx.repo.byId(id);
  if (!a) return refuse('NOT_FOUND', `No alert ${id}.`);
  if (a.state !== 'open')
    return refuse('ALERT_STATE_CONFLICT', `The alert ${id} is ${a.state}; only an open alert is escalated.`);
  const at = ctx.deps.nowIso();
  ctx.repo.escalate(id, note ?? null, at);
  ctx.deps.audit.append({
    actor,
    action: 'surveillance.alert_escalated',
    subject: id,
    tenantId: a.tenant_id,
    detail: { note: note ?? null },
  });
  return ok(alertView(ctx.repo.byId(id)!));
}

function close(ctx: Ctx, id: string, note: string | undefined, actor: string) {
  const a = ctx.repo.byId(id);
  if (!a) return refuse('NOT_FOUND', `No alert ${id}.`);
  if (a.state === 'closed') return refuse('ALERT_STATE_CONFLICT', `The alert ${id} is already closed.`);
  const text = note?.trim() ?? '';
  if (text === '') return refuse('ALERT_NOTE_REQUIRED');
  const at = ctx.deps.nowIso();
  ctx.repo.close(id, text, at);
  ctx.deps.audit.append({
    actor,
    action: 'surveillance.alert_closed',
    subject: id,
    tenantId: a.tenant_id,
    detail: { from: a.state, note: text },
  });
  return ok(alertView(ctx.repo.byId(id)!));
}

export function createSurveillanceService(deps: SurveillanceDeps) {
  const ctx: Ctx = { deps, repo: createSurveillanceRepo(deps.db), thresholds: createThresholdStore(deps.db) };
  const cal = deps.market.calendar;
  deps.scheduler.addSource({
    name: 'surveillance',
    nextDue: (afterMs) => cal.nextClose(afterMs),
    run: (atMs) => void runSession(ctx, 'session_close', cal.localDate(atMs), 'system'),
  });
  return {
    run(date: string | undefined, actor: string) {
      const d = sessionDate(ctx, date);
      return d.ok ? ok(runSession(ctx, 'on_demand', d.value, actor)) : d;
    },
    list: (f: AlertFilter) => ({ alerts: ctx.repo.list(f).map(alertView) }),
    get(id: string) {
      const a = ctx.repo.byId(id);
      return a ? ok(alertView(a)) : refuse('NOT_FOUND', `No alert ${id}.`);
    },
    escalate: (id: string, note: string | undefined, actor: string) => escalate(ctx, id, note, actor),
    close: (id: string, note: string | undefined, actor: string) => close(ctx, id, note, actor),
    thresholds: () => ctx.thresholds.view(),
    setThresholds(p: ThresholdsPatch, actor: string) {
      const v = ctx.thresholds.patch(p, deps.nowIso());
      deps.audit.append({
        actor,
        action: 'surveillance.thresholds_changed',
        subject: 'surveillance_thresholds',
        tenantId: null,
        detail: { ...p },
      });
      return v;
    },
  };
}

export type SurveillanceService = ReturnType<typeof createSurveillanceService>;
