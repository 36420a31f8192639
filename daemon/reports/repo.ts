// SQL of client statements (migration 014).
import type { Db } from '../store/db.js';
import type { ReportLocale, ReportSection } from '../contract/schemas/reports.js';
import type { ReportsRow } from '../store/rows.js';

/** A report as COLUMNS reads it: every column but the sealed PDF and the sequence. */
export type ReportRow = Omit<ReportsRow, 'seq' | 'pdf_sealed'>;

export interface NewReport {
  id: string;
  tenant_id: string;
  investor_id: string;
  period_start: string;
  period_end: string;
  sections: readonly ReportSection[];
  locale: ReportLocale;
  created_ms: number;
  created_at: string;
  expires_ms: number;
  expires_at: string;
}

const COLUMNS =
  'id, tenant_id, investor_id, type, period_start, period_end, sections, locale, state, created_ms, ' +
  'created_at, ready_at, expires_ms, expires_at, bytes, sha256, reason_code, purged_at';

export function createReportRepo(db: Db) {
  const q = {
    insert: db.prepare(
      `INSERT INTO reports (id, tenant_id, investor_id, type, period_start, period_end, sections, locale, state,
        created_ms, created_at, expires_ms, expires_at)
       VALUES (@id, @tenant_id, @investor_id, 'client_statement', @period_start, @period_end, @sections, @locale,
         'pending', @created_ms, @created_at, @expires_ms, @expires_at)`,
    ),
    get: db.prepare<[string, string], ReportRow>(`SELECT ${COLUMNS} FROM reports WHERE tenant_id = ? AND id = ?`),
    byId: db.prepare<[string], ReportRow>(`SELECT ${COLUMNS} FROM reports WHERE id = ?`),
    sealed: db.prepare<[string], { pdf_sealed: Buffer | null }>('SELECT pdf_sealed FROM reports WHERE id = ?'),
    generating: db.prepare("UPDATE reports SET state = 'generating' WHERE id = ? AND state = 'pending'"),
    ready: db.prepare(
      "UPDATE reports SET state = 'ready', ready_at = ?, bytes = ?, sha256 = ?, pdf_sealed = ? WHERE id = ? " +
        "AND state = 'generating'",
    ),
    failed: db.prepare(
      "UPDATE reports SET state = 'failed', reason_code = ? WHERE id = ? AND state IN ('pending', 'generating')",
    ),
    readyPurged: db.prepare(
      "UPDATE reports SET state = 'ready', ready_at = ?, bytes = ?, sha256 = ?, purged_at = ? WHERE id = ? AND " +
        "state = 'generating'",
    ),
    purge: db.prepare(
      "UPDATE reports SET pdf_sealed = NULL, purged_at = ? WHERE id = ? AND state = 'ready' AND purged_at IS NULL",
    ),
  };
  return {
    insert: (r: NewReport) => q.insert.run({ ...r, sections: JSON.stringify(r.sections) }),
    get: (tenantId: string, id: string): ReportRow | undefined => q.get.get(tenantId, id),
    byId: (id: string): ReportRow | undefined => q.byId.get(id),
    sealedPdf: (id: string): Buffer | null => q.sealed.get(id)?.pdf_sealed ?? null,
    generating: (id: string) => q.generating.run(id),
    ready: (id: string, at: string, pdf: { bytes: number; sha256: string; sealed: Buffer }) =>
      q.ready.run(at, pdf.bytes, pdf.sha256, pdf.sealed, id),
    /** Ready after its expiry (the render outlived the retention): the size and digest, no ciphertext. */
    readyPurged: (id: string, at: string, pdf: { bytes: number; sha256: string }, purgedAt: string) =>
      q.readyPurged.run(at, pdf.bytes, pdf.sha256, purgedAt, id),
    failed: (id: string, reason: string) => q.failed.run(reason, id),
    purge: (id: string, at: string) => q.purge.run(at, id),
  };
}

export type ReportRepo = ReturnType<typeof createReportRepo>;
