// A statement's render, from its generating minute to its ready minute (docs/reports.md, "Rendering
// and the event loop"). At the generating minute (the start event) the daemon gathers the document on
// its own thread, inside the event's transaction, so the figures and branding are those of that
// moment, and posts it to the render worker (render-queue.ts). The report becomes ready when both
// have happened: its ready minute has come on the sandbox clock (the finish event) and the worker has
// answered. Whichever comes second stores the result: the finish event inside its own transaction, or
// the worker's answer in a transaction of its own once no request batch is open. ready_at is always
// the ready minute, and the PDF's date too, so the bytes do not depend on when the worker finished.
//
// settled() resolves once every report whose ready minute has come is stored: the clock controls
// await it, so on a frozen clock an advance answers with its reports already ready.
import type { Deps } from '../deps.js';
import { seal, sha256 } from '../store/crypto.js';
import { brandingOf } from '../branding/service.js';
import { storedLogoProblem } from '../branding/validate.js';
import type { PortfolioService } from '../portfolio/service.js';
import type { ReportRepo, ReportRow } from './repo.js';
import { statementDocument } from './document.js';
import { checkPeriod } from './validate.js';
import type { RenderJob } from './render.js';
import type { RenderQueue } from './render-queue.js';

export type RenderJobsDeps = Pick<Deps, 'db' | 'clock' | 'keys' | 'investors' | 'market' | 'audit'>;

export interface RenderJobsCtx extends RenderJobsDeps {
  repo: ReportRepo;
  portfolio: PortfolioService;
  queue: RenderQueue;
  /** The report's ready minute: its finish event's time, fixed at creation. */
  readyMsOf(r: ReportRow): number;
}

/** One report's render in flight. */
interface InFlight {
  readyMs: number;
  /** The sandbox's generation when it started: a reset in between makes the result someone else's. */
  generation: number;
  /** The ready minute has come (the finish event ran). */
  due: boolean;
  /** The worker's answer, once it came: the PDF, or why there is none (and the report's reason code). */
  result: { pdf: Buffer } | Failed | null;
  stored: Promise<void>;
  markStored(): void;
}

/** No PDF: why (for the log) and the reason code the report gets (RENDER_FAILED unless named). */
interface Failed {
  failed: string;
  code?: string;
}

/** Marks a pending or generating report failed with `code`, audited; nothing if it is past that. */
export function reportFailed(ctx: Pick<RenderJobsCtx, 'repo' | 'audit'>, id: string, code: string): void {
  const r = ctx.repo.byId(id);
  if (!r || ctx.repo.failed(id, code).changes !== 1) return;
  ctx.audit.append({
    actor: 'system',
    action: 'report.failed',
    subject: id,
    tenantId: r.tenant_id,
    detail: { reason_code: code },
  });
}

/** The PDF's additional data under the tenant key: a sealed PDF opens only as its own report. */
export const aad = (id: string) => `report:${id}`;

function generation(db: RenderJobsDeps['db']): number {
  return db.prepare<[], { generation: number }>('SELECT generation FROM sandbox_state WHERE id = 1').get()!.generation;
}

/**
 * What the worker needs: the document of this moment (figures as of period_end, today's branding) and
 * the logo; or why there is none. The period is checked again by the request's own rules first
 * (validate.ts): a stored row that breaks them fails with their code instead of being computed.
 */
function gather(ctx: RenderJobsCtx, r: ReportRow, readyMs: number): RenderJob | Failed {
  const investor = ctx.investors.lookup(r.tenant_id, r.investor_id);
  if (!investor.ok) return { failed: `investor ${r.investor_id} is gone` };
  const inv = investor.value;
  const cal = ctx.market.calendar;
  const bounded = checkPeriod(r.period_start, r.period_end, {
    today: cal.localDate(ctx.clock.now()),
    opened: cal.localDate(inv.created_ms),
  });
  if (!bounded.ok) return { failed: bounded.message ?? bounded.code, code: bounded.code };
  const broker = ctx.db
    .prepare<[string], { name: string; name_ar: string; fra_license_no: string }>(
      'SELECT name, name_ar, fra_license_no FROM brokers WHERE id = ?',
    )
    .get(inv.broker_id)!;
  const branding = brandingOf(ctx, r.tenant_id);
  const logo = branding.logo ? { bytes: branding.logo.bytes, contentType: branding.logo.contentType } : null;
  // checked again, as at upload: a logo the renderer cannot draw never reaches it (docs/branding.md, "Reports")
  const logoProblem = logo && storedLogoProblem(logo.bytes, logo.contentType);
  if (logoProblem) return { failed: `the logo on file cannot be drawn: ${logoProblem}` };
  const period = { start: r.period_start, end: r.period_end };
  const document = statementDocument({
    locale: r.locale,
    sections: JSON.parse(r.sections),
    period,
    generatedAt: ctx.market.calendar.toIso(readyMs),
    investor: { id: inv.id, full_name: inv.full_name, account_number: inv.account_number },
    broker,
    branding: { ...branding, logo },
    figures: ctx.portfolio.statement(r.tenant_id, inv.id, period),
  });
  return { document, atMs: readyMs, logo };
}

interface Jobs {
  ctx: RenderJobsCtx;
  inFlight: Map<string, InFlight>;
  closing: boolean;
}

/** Writes the result (ready or failed) if it is still this report's; call inside a transaction. */
function store(s: Jobs, id: string, job: InFlight): void {
  const { ctx } = s;
  s.inFlight.delete(id);
  job.markStored();
  const r = ctx.repo.byId(id);
  if (r?.state !== 'generating' || generation(ctx.db) !== job.generation || !job.result) return;
  if ('failed' in job.result) return reportFailed(ctx, id, job.result.code ?? 'RENDER_FAILED');
  const pdf = job.result.pdf;
  const readyAt = ctx.market.calendar.toIso(job.readyMs);
  // The render outlived the retention (one advance passed both minutes): its purge found nothing to
  // delete, so the report is stored as it would be by now, ready and purged, with no ciphertext.
  if (ctx.clock.now() >= r.expires_ms)
    return void ctx.repo.readyPurged(id, readyAt, { bytes: pdf.length, sha256: sha256(pdf) }, r.expires_at);
  const sealed = seal(ctx.keys.tenantDek(r.tenant_id), pdf, aad(id));
  ctx.repo.ready(id, readyAt, { bytes: pdf.length, sha256: sha256(pdf), sealed });
}

/** The worker answered after the ready minute: store in a transaction of its own, outside any open batch. */
function storeLater(s: Jobs, id: string, job: InFlight): void {
  if (s.closing || s.inFlight.get(id) !== job) return job.markStored();
  if (s.ctx.db.inTransaction) return void setImmediate(() => storeLater(s, id, job));
  s.ctx.db.transaction(() => store(s, id, job))();
}

function answered(s: Jobs, id: string, job: InFlight, result: InFlight['result']): void {
  job.result = result;
  if (job.due) storeLater(s, id, job);
}

/** Gathers the document now and posts it; replaces any earlier render of the same report. */
function begin(s: Jobs, r: ReportRow): InFlight {
  const { ctx } = s;
  const readyMs = ctx.readyMsOf(r);
  const input = gather(ctx, r, readyMs);
  let markStored = () => {};
  const stored = new Promise<void>((resolve) => (markStored = resolve));
  const job: InFlight = { readyMs, generation: generation(ctx.db), due: false, result: null, stored, markStored };
  s.inFlight.set(r.id, job);
  if ('failed' in input) {
    job.result = input;
    return job;
  }
  ctx.queue.render(input).then(
    (pdf) => answered(s, r.id, job, { pdf }),
    (err: unknown) => answered(s, r.id, job, { failed: err instanceof Error ? err.message : String(err) }),
  );
  return job;
}

export function createRenderJobs(ctx: RenderJobsCtx) {
  const s: Jobs = { ctx, inFlight: new Map(), closing: false };
  return {
    /** The generating minute (inside the start event's transaction). */
    start(id: string): void {
      const r = ctx.repo.byId(id);
      if (r && r.state === 'generating') begin(s, r);
    },
    /**
     * The ready minute (inside the finish event's transaction): stores the result if the worker has
     * answered, else marks the render due. A report with no render in flight (the daemon restarted, or
     * the start's transaction rolled back) starts one now.
     */
    finish(id: string): void {
      const r = ctx.repo.byId(id);
      if (r?.state !== 'generating') return;
      const job = s.inFlight.get(id) ?? begin(s, r);
      job.due = true;
      if (job.result) store(s, id, job);
    },
    /** At start-up: reports left generating by the last run render again (their ready minute may have passed). */
    resume(): void {
      const ids = ctx.db
        .prepare<[], { id: string }>("SELECT id FROM reports WHERE state = 'generating' ORDER BY id")
        .all();
      for (const { id } of ids) {
        const r = ctx.repo.byId(id)!;
        const job = begin(s, r);
        job.due = job.readyMs <= ctx.clock.now();
        if (job.due && job.result) ctx.db.transaction(() => store(s, r.id, job))();
      }
    },
    /** The report failed some other way (its event threw): drop its render; an answer that still comes is ignored. */
    forget(id: string): void {
      const job = s.inFlight.get(id);
      s.inFlight.delete(id);
      job?.markStored();
    },
    /** Resolves once every render whose ready minute has come is stored. */
    async settled(): Promise<void> {
      for (;;) {
        const due = [...s.inFlight.values()].filter((j) => j.due);
        if (due.length === 0) return;
        await Promise.all(due.map((j) => j.stored));
      }
    },
    /** The app is closing: answers that still come are dropped (the reports render again at the next start). */
    async close(): Promise<void> {
      s.closing = true;
      await ctx.queue.close();
      for (const job of s.inFlight.values()) job.markStored();
      s.inFlight.clear();
    },
  };
}

export type RenderJobs = ReturnType<typeof createRenderJobs>;
