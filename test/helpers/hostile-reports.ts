// Reports no request can make any more (docs/reliability.md, "No tenant can stop the clock"): written
// straight into the database with their three scheduler events, as a report of an older daemon (or a
// hand with the file) would be, to show that one bad row fails alone when its minutes come.
import type Database from 'better-sqlite3';

export interface HostileReport {
  id: string;
  tenantId: string;
  investorId: string;
  periodStart: string;
  periodEnd: string;
  state?: 'pending' | 'generating';
  createdMs: number;
  /** Default: seven years after createdMs. */
  expiresMs?: number;
}

/** The periods the issue named: year 1, year 100 (a 39 s stall), 1899 (read as 19xx years), and a century. */
export const HOSTILE_PERIODS: Array<[string, string]> = [
  ['0001-01-01', '2026-11-22'],
  ['0100-01-01', '2026-11-22'],
  ['1899-12-31', '2026-11-22'],
  ['0099-12-31', '0100-01-01'],
  ['1926-01-01', '2026-11-22'],
];

const iso = (ms: number) => new Date(ms).toISOString();

/** Inserts the report and schedules its start (+1 min), finish (+2 min) and purge (expiry) events. */
export function insertHostileReport(db: Database.Database, r: HostileReport): void {
  const expires = r.expiresMs ?? r.createdMs + 7 * 365 * 86_400_000;
  db.transaction(() => {
    db.prepare(
      `INSERT INTO reports (id, tenant_id, investor_id, type, period_start, period_end, sections, locale, state,
        created_ms, created_at, expires_ms, expires_at)
       VALUES (?, ?, ?, 'client_statement', ?, ?, '["summary","performance","holdings","trades"]', 'en', ?, ?, ?, ?,
         ?)`,
    ).run(
      r.id,
      r.tenantId,
      r.investorId,
      r.periodStart,
      r.periodEnd,
      r.state ?? 'pending',
      r.createdMs,
      iso(r.createdMs),
      expires,
      iso(expires),
    );
    const ev = db.prepare('INSERT INTO events (due_ms, kind, payload) VALUES (?, ?, ?)');
    const payload = JSON.stringify({ report_id: r.id });
    ev.run(r.createdMs + 60_000, 'report.start', payload);
    ev.run(r.createdMs + 120_000, 'report.finish', payload);
    ev.run(expires, 'report.purge', payload);
  })();
}
