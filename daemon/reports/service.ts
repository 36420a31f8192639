// Client statements (docs/reports.md): a report is created pending, starts generating at the next
// simulated minute and is ready (or failed) the minute after, on the sandbox clock. At the generating
// minute its document (the figures as of period_end, the tenant's branding of that moment) is posted
// to the render worker; at the ready minute, once the worker has answered, the PDF is sealed under the
// tenant's data key and stored (render-jobs.ts); downloads are audited; after seven years the
// ciphertext is purged.
//
// Guarantees:
//  1. A refused request creates nothing (checkReport runs before any write).
//  2. The PDF exists only sealed (AES-256-GCM under the tenant's data key, bound to the report id);
//     it is opened only to be sent to its own tenant.
//  3. Deterministic: the same requests give the same PDF bytes (render.ts), so the same sha256: the
//     document is gathered at the generating minute and dated by the ready minute, whenever the worker
//     finishes.
//  5. Rendering never runs on the daemon's thread (render-queue.ts): other requests are answered while
//     a statement renders.
//  4. Another tenant's report is 404, like an unknown one.
//  6. One report cannot stop the clock (docs/reliability.md, "No tenant can stop the clock"): its period
//     is bounded (validate.ts), a stored one that is not fails with the rule's code when generated, a
//     start or finish that throws fails the report alone (GENERATION_FAILED), and the purge only
//     touches a ready report (a render that outlives its expiry is stored purged).
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { BytesReply } from '../contract/route.js';
import type { ReportSection } from '../contract/schemas/reports.js';
import { open } from '../store/crypto.js';
import type { PortfolioService } from '../portfolio/service.js';
import { createReportRepo, type ReportRepo, type ReportRow } from './repo.js';
import { checkReport, type ReportRequest } from './validate.js';
import { aad, createRenderJobs, reportFailed } from './render-jobs.js';
import { createRenderQueue } from './render-queue.js';

export const REPORT_START_EVENT = 'report.start';
export const REPORT_FINISH_EVENT = 'report.finish';
export const REPORT_PURGE_EVENT = 'report.purge';
const STEP_MS = 60_000;
/** Seven years on the sandbox clock (docs/reports.md, "Retention"). */
export const RETENTION_YEARS = 7;

export type ReportDeps = Pick<
  Deps,
  'db' | 'clock' | 'ids' | 'nowIso' | 'scheduler' | 'keys' | 'investors' | 'market' | 'audit' | 'settle' | 'onClose'
>;

interface ReportCtx extends ReportDeps {
  repo: ReportRepo;
  portfolio: PortfolioService;
}

export function reportView(r: ReportRow) {
  return {
    report_id: r.id,
    investor_id: r.investor_id,
    type: r.type,
    period_start: r.period_start,
    period_end: r.period_end,
    sections: JSON.parse(r.sections) as ReportSection[],
    locale: r.locale,
    state: r.state,
    created_at: r.created_at,
    ready_at: r.ready_at,
    expires_at: r.expires_at,
    bytes: r.bytes,
    sha256: r.sha256,
    reason_code: r.reason_code,
  };
}

function expiry(createdMs: number): number {
  const d = new Date(createdMs);
  d.setUTCFullYear(d.getUTCFullYear() + RETENTION_YEARS);
  return d.getTime();
}

function createReport(
  ctx: ReportCtx,
  tenantId: string,
  body: ReportRequest & { investor_id: string },
): Outcome<{ report_id: string; state: 'pending' }> {
  const investor = ctx.investors.lookup(tenantId, body.investor_id);
  if (!investor.ok) return investor;
  const now = ctx.clock.now();
  const cal = ctx.market.calendar;
  const checked = checkReport(body, { today: cal.localDate(now), opened: cal.localDate(investor.value.created_ms) });
  if (!checked.ok) return checked;
  const id = ctx.ids.next('rpt');
  const expiresMs = expiry(now);
  ctx.repo.insert({
    id,
    tenant_id: tenantId,
    investor_id: investor.value.id,
    period_start: checked.value.period.start,
    period_end: checked.value.period.end,
    sections: checked.value.sections,
    locale: checked.value.locale,
    created_ms: now,
    created_at: ctx.nowIso(),
    expires_ms: expiresMs,
    expires_at: ctx.market.calendar.toIso(expiresMs),
  });
  ctx.scheduler.schedule(REPORT_START_EVENT, now + STEP_MS, { report_id: id });
  ctx.scheduler.schedule(REPORT_FINISH_EVENT, now + 2 * STEP_MS, { report_id: id });
  ctx.scheduler.schedule(REPORT_PURGE_EVENT, expiresMs, { report_id: id });
  return ok({ report_id: id, state: 'pending' as const });
}

/** GET .../download: the PDF, audited; 409 before ready, 410 once purged (or past its expiry). */
function download(ctx: ReportCtx, tenantId: string, id: string, actor: string): Outcome<BytesReply<'application/pdf'>> {
  const r = ctx.repo.get(tenantId, id);
  if (!r) return refuse('NOT_FOUND', `No report ${id}.`);
  if (r.purged_at !== null || ctx.clock.now() >= r.expires_ms)
    return refuse('REPORT_PURGED', `Report ${id} expired at ${r.expires_at}; its PDF has been purged.`);
  if (r.state === 'failed')
    return refuse(
      'REPORT_NOT_READY',
      `Report ${id} failed (${r.reason_code}) and will not become ready; request a new report.`,
    );
  if (r.state !== 'ready')
    return refuse('REPORT_NOT_READY', `Report ${id} is ${r.state}; poll GET /v1/reports/${id} until it is ready.`);
  const pdf = open(ctx.keys.tenantDek(tenantId), ctx.repo.sealedPdf(id)!, aad(id));
  ctx.db.transaction(() =>
    ctx.audit.append({
      actor,
      action: 'report.downloaded',
      subject: id,
      tenantId,
      detail: { sha256: r.sha256, bytes: r.bytes },
    }),
  )();
  const filename = `statement-${r.investor_id}-${r.period_start}-${r.period_end}-${r.locale}.pdf`;
  return ok({
    status: 200,
    raw: pdf,
    contentType: 'application/pdf',
    headers: { 'content-disposition': `attachment; filename="${filename}"` },
  });
}

/** The minute a report is ready: its finish event's time, fixed at creation. */
const readyMsOf = (r: Pick<ReportRow, 'created_ms'>) => r.created_ms + 2 * STEP_MS;

export function createReportService(deps: ReportDeps, portfolio: PortfolioService) {
  const ctx: ReportCtx = { ...deps, portfolio, repo: createReportRepo(deps.db) };
  const renders = createRenderJobs({ ...ctx, queue: createRenderQueue(), readyMsOf });
  // A start or finish that throws (a bug, or a row no request could have made) fails its report alone:
  // the scheduler rolls the event back and the report becomes failed with GENERATION_FAILED (audited).
  const failReport = (p: { report_id: string } | null) => {
    if (!p) return;
    renders.forget(p.report_id);
    reportFailed(ctx, p.report_id, 'GENERATION_FAILED');
  };
  deps.scheduler.on(
    REPORT_START_EVENT,
    (p: { report_id: string }) => {
      if (ctx.repo.generating(p.report_id).changes === 1) renders.start(p.report_id);
    },
    failReport,
  );
  deps.scheduler.on(REPORT_FINISH_EVENT, (p: { report_id: string }) => renders.finish(p.report_id), failReport);
  deps.settle.push(() => renders.settled());
  deps.onClose.push(() => renders.close());
  renders.resume();
  // Only a ready report has a PDF to purge; one still rendering at its expiry is stored purged (render-jobs.ts).
  deps.scheduler.on(REPORT_PURGE_EVENT, (p: { report_id: string }) => void ctx.repo.purge(p.report_id, ctx.nowIso()));
  return {
    create: (tenantId: string, body: ReportRequest & { investor_id: string }) => createReport(ctx, tenantId, body),
    get: (tenantId: string, id: string): Outcome<ReturnType<typeof reportView>> => {
      const r = ctx.repo.get(tenantId, id);
      return r ? ok(reportView(r)) : refuse('NOT_FOUND', `No report ${id}.`);
    },
    download: (tenantId: string, id: string, actor: string) => download(ctx, tenantId, id, actor),
  };
}

export type ReportService = ReturnType<typeof createReportService>;
