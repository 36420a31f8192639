// Client statements (docs/reports.md): a report is created pending, starts generating at the next
// simulated minute and is ready (or failed) the minute after, on the sandbox clock; its PDF is then
// rendered from the figures as of period_end and the tenant's branding of that moment, sealed under
// the tenant's data key and stored; downloads are audited; after seven years the ciphertext is purged.
//
// Guarantees:
//  1. A refused request creates nothing (checkReport runs before any write).
//  2. The PDF exists only sealed (AES-256-GCM under the tenant's data key, bound to the report id);
//     it is opened only to be sent to its own tenant.
//  3. Deterministic: the same requests give the same PDF bytes (render.ts), so the same sha256.
//  4. Another tenant's report is 404, like an unknown one.
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { Reply } from '../contract/route.js';
import { open, seal, sha256 } from '../store/crypto.js';
import { brandingOf } from '../branding/service.js';
import type { PortfolioService } from '../portfolio/service.js';
import { createReportRepo, type ReportRepo, type ReportRow } from './repo.js';
import { checkReport, type ReportRequest } from './validate.js';
import { statementDocument } from './document.js';
import { RenderError, renderStatement } from './render.js';

export const REPORT_START_EVENT = 'report.start';
export const REPORT_FINISH_EVENT = 'report.finish';
export const REPORT_PURGE_EVENT = 'report.purge';
const STEP_MS = 60_000;
/** Seven years on the sandbox clock (docs/reports.md, "Retention"). */
export const RETENTION_YEARS = 7;

export type ReportDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'nowIso' | 'scheduler' | 'keys' | 'investors' | 'market' | 'audit'>;

interface ReportCtx extends ReportDeps {
  repo: ReportRepo;
  portfolio: PortfolioService;
}

const aad = (id: string) => `report:${id}`;

export function reportView(r: ReportRow) {
  return {
    report_id: r.id, investor_id: r.investor_id, type: r.type, period_start: r.period_start, period_end: r.period_end,
    sections: JSON.parse(r.sections) as string[], locale: r.locale, state: r.state, created_at: r.created_at, ready_at: r.ready_at,
    expires_at: r.expires_at, bytes: r.bytes, sha256: r.sha256, reason_code: r.reason_code,
  };
}

function expiry(createdMs: number): number {
  const d = new Date(createdMs);
  d.setUTCFullYear(d.getUTCFullYear() + RETENTION_YEARS);
  return d.getTime();
}

function createReport(ctx: ReportCtx, tenantId: string, body: ReportRequest & { investor_id: string }): Outcome<{ report_id: string; state: 'pending' }> {
  const investor = ctx.investors.lookup(tenantId, body.investor_id);
  if (!investor.ok) return investor;
  const now = ctx.clock.now();
  const checked = checkReport(body, ctx.market.calendar.localDate(now));
  if (!checked.ok) return checked;
  const id = ctx.ids.next('rpt');
  const expiresMs = expiry(now);
  ctx.repo.insert({
    id, tenant_id: tenantId, investor_id: investor.value.id, period_start: checked.value.period.start, period_end: checked.value.period.end,
    sections: checked.value.sections, locale: checked.value.locale, created_ms: now, created_at: ctx.nowIso(), expires_ms: expiresMs,
    expires_at: ctx.market.calendar.toIso(expiresMs),
  });
  ctx.scheduler.schedule(REPORT_START_EVENT, now + STEP_MS, { report_id: id });
  ctx.scheduler.schedule(REPORT_FINISH_EVENT, now + 2 * STEP_MS, { report_id: id });
  ctx.scheduler.schedule(REPORT_PURGE_EVENT, expiresMs, { report_id: id });
  return ok({ report_id: id, state: 'pending' as const });
}

/** The PDF of a report, rendered from its figures as of period_end and the branding of this moment. */
function render(ctx: ReportCtx, r: ReportRow): Buffer {
  const investor = ctx.investors.lookup(r.tenant_id, r.investor_id);
  if (!investor.ok) throw new RenderError(`investor ${r.investor_id} is gone`);
  const inv = investor.value;
  const broker = ctx.db.prepare<[string], { name: string; name_ar: string; fra_license_no: string }>('SELECT name, name_ar, fra_license_no FROM brokers WHERE id = ?').get(inv.broker_id)!;
  const branding = brandingOf(ctx, r.tenant_id);
  const period = { start: r.period_start, end: r.period_end };
  const document = statementDocument({
    locale: r.locale, sections: JSON.parse(r.sections), period, generatedAt: ctx.nowIso(),
    investor: { id: inv.id, full_name: inv.full_name, account_number: inv.account_number }, broker,
    branding: { ...branding, logo: branding.logo ? { bytes: branding.logo.bytes, contentType: branding.logo.contentType } : null },
    figures: ctx.portfolio.statement(r.tenant_id, inv.id, period),
  });
  return renderStatement({ document, atMs: ctx.clock.now(), logo: branding.logo });
}

function finish(ctx: ReportCtx, id: string): void {
  const r = ctx.repo.byId(id);
  if (!r || r.state !== 'generating') return;
  let pdf: Buffer;
  try {
    pdf = render(ctx, r);
  } catch (err) {
    if (!(err instanceof RenderError)) throw err;
    ctx.repo.failed(id, 'RENDER_FAILED');
    return;
  }
  const sealed = seal(ctx.keys.tenantDek(r.tenant_id), pdf, aad(id));
  ctx.repo.ready(id, ctx.nowIso(), { bytes: pdf.length, sha256: sha256(pdf), sealed });
}

/** GET .../download: the PDF, audited; 409 before ready, 410 once purged (or past its expiry). */
function download(ctx: ReportCtx, tenantId: string, id: string, actor: string): Outcome<Reply> {
  const r = ctx.repo.get(tenantId, id);
  if (!r) return refuse('NOT_FOUND', `No report ${id}.`);
  if (r.purged_at !== null || ctx.clock.now() >= r.expires_ms) return refuse('REPORT_PURGED', `Report ${id} expired at ${r.expires_at}; its PDF has been purged.`);
  if (r.state !== 'ready') return refuse('REPORT_NOT_READY', `Report ${id} is ${r.state}; poll GET /v1/reports/${id} until it is ready.`);
  const pdf = open(ctx.keys.tenantDek(tenantId), ctx.repo.sealedPdf(id)!, aad(id));
  ctx.db.transaction(() => ctx.audit.append({ actor, action: 'report.downloaded', subject: id, tenantId, detail: { sha256: r.sha256, bytes: r.bytes } }))();
  const filename = `statement-${r.investor_id}-${r.period_start}-${r.period_end}-${r.locale}.pdf`;
  return ok({ status: 200, raw: pdf, contentType: 'application/pdf', headers: { 'content-disposition': `attachment; filename="${filename}"` } });
}

export function createReportService(deps: ReportDeps, portfolio: PortfolioService) {
  const ctx: ReportCtx = { ...deps, portfolio, repo: createReportRepo(deps.db) };
  deps.scheduler.on(REPORT_START_EVENT, (p: { report_id: string }) => void ctx.repo.generating(p.report_id));
  deps.scheduler.on(REPORT_FINISH_EVENT, (p: { report_id: string }) => finish(ctx, p.report_id));
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
