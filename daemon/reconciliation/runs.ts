// A reconciliation run: compares the book with the external statements of one business day and keeps
// the breaks up to date, in the request's transaction.
// - A difference with an unresolved break of the same (investor, asset, kind) updates that break (its
//   values and last seen); otherwise it opens a new break, linked to the last resolved break of that
//   key when there is one (reopens).
// - An unresolved break whose difference this run does not see is resolved `auto` by the run.
// So there is never more than one unresolved break per (investor, asset, kind) (a unique index says
// it again).
import { ok, type Outcome } from '../contract/outcome.js';
import type { ReconCtx } from './context.js';
import { compare, type Finding } from './compare.js';
import { checkDate } from './days.js';
import type { RunRow } from './repo.js';
import { linesPerSource, snapshotOf } from './snapshot.js';
import { keyOf } from './sides.js';

interface Tally {
  opened: number;
  autoResolved: number;
}

function applyFindings(ctx: ReconCtx, run: { id: string; date: string; at: string }, findings: Finding[]): Tally {
  const byKind = new Map(findings.map((f) => [`${f.key}|${f.kind}`, f]));
  const tally: Tally = { opened: 0, autoResolved: 0 };
  for (const b of ctx.repo.unresolved()) {
    const f = byKind.get(`${keyOf(b.tenant_id, b.investor_id, b.asset)}|${b.kind}`);
    if (!f) {
      ctx.repo.autoResolve(b.id, run.at, run.id);
      tally.autoResolved++;
      continue;
    }
    byKind.delete(`${f.key}|${f.kind}`);
    ctx.repo.seen({
      id: b.id,
      ledger_value: f.ledger_value,
      external_value: f.external_value,
      difference: f.ledger_value - f.external_value,
      last_run_id: run.id,
      last_seen_date: run.date,
    });
  }
  for (const f of findings) {
    if (!byKind.has(`${f.key}|${f.kind}`)) continue;
    ctx.repo.insertBreak({
      id: ctx.ids.next('rbk'),
      tenant_id: f.tenant_id,
      investor_id: f.investor_id,
      asset: f.asset,
      kind: f.kind,
      ledger_value: f.ledger_value,
      external_value: f.external_value,
      difference: f.ledger_value - f.external_value,
      first_run_id: run.id,
      first_seen_date: run.date,
      first_seen_at: run.at,
      last_run_id: run.id,
      last_seen_date: run.date,
      reopens: ctx.repo.lastResolved(f),
    });
    tally.opened++;
  }
  return tally;
}

/** Runs a reconciliation of `date` (a business day up to today). */
export function runReconciliation(ctx: ReconCtx, date: string, actor: string): Outcome<RunRow> {
  const checked = checkDate(ctx, date);
  if (!checked.ok) return checked;
  const day = snapshotOf(ctx, date);
  const findings = compare(day.sides, day.ext);
  const run = { id: ctx.ids.next('rcn'), date, at: ctx.nowIso() };
  const lines = linesPerSource(day);
  // The run row first: breaks reference it.
  const row = {
    id: run.id,
    date,
    created_at: run.at,
    created_by: actor,
    investors: ctx.repo.investorCount(),
    custodian_lines: lines.custodian,
    bank_lines: lines.bank,
    breaks_found: findings.length,
    breaks_opened: 0,
    breaks_auto_resolved: 0,
  };
  ctx.repo.insertRun(row);
  const tally = applyFindings(ctx, run, findings);
  ctx.repo.setRunTally(run.id, tally.opened, tally.autoResolved);
  return ok(ctx.repo.run(run.id)!);
}
