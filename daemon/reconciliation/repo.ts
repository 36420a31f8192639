// SQL of reconciliation (migration 018): the ledger reads the two sides are computed from, the injected
// breaks (overrides of the external side), runs and breaks. Read-only on the ledger's tables.
import type { Db } from '../store/db.js';
import type { BreakKind, BreakState } from '../contract/schemas/reconciliation.js';
import type { LedgerAccountsRow, ReconBreaksRow, ReconOverridesRow, ReconRunsRow } from '../store/rows.js';

export type AccountInfo = Pick<LedgerAccountsRow, 'id' | 'tenant_id' | 'owner' | 'asset' | 'bucket'>;

export type OverrideRow = ReconOverridesRow;

export type RunRow = ReconRunsRow;

export type BreakRow = ReconBreaksRow;

export interface BreakFilter {
  state?: BreakState;
  kind?: BreakKind;
  investor_id?: string;
  asset?: string;
  run_id?: string;
  limit: number;
}

export type NewBreak = Omit<
  BreakRow,
  'seq' | 'state' | 'acknowledged_at' | 'acknowledged_by' | 'resolution' | 'resolved_at' | 'resolved_by' | 'note'
>;

function breakWhere(f: BreakFilter): { sql: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  const eq = (col: string, v: unknown) => {
    if (v === undefined) return;
    parts.push(`${col} = ?`);
    args.push(v);
  };
  eq('state', f.state);
  eq('kind', f.kind);
  eq('investor_id', f.investor_id);
  eq('asset', f.asset);
  if (f.run_id !== undefined) {
    parts.push('(first_run_id = ? OR last_run_id = ?)');
    args.push(f.run_id, f.run_id);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', args };
}

export function createReconRepo(db: Db) {
  const q = reconStatements(db);
  return { ...inputAndRunMethods(db, q), ...breakMethods(db, q) };
}

export type ReconRepo = ReturnType<typeof createReconRepo>;

function reconStatements(db: Db) {
  return {
    accounts: db.prepare<[], AccountInfo>(
      "SELECT id, tenant_id, owner, asset, bucket FROM ledger_accounts WHERE asset NOT GLOB 'fund:*'",
    ),
    entries: db.prepare<[number], [number, number, number]>(
      'SELECT debit_account_id, credit_account_id, amount FROM ledger_entries WHERE at_ms < ?',
    ),
    investor: db.prepare<[string], { id: string; tenant_id: string }>(
      'SELECT id, tenant_id FROM investors WHERE id = ?',
    ),
    investorCount: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM investors'),
    insertOverride: db.prepare(
      `INSERT INTO recon_overrides (id, tenant_id, investor_id, asset, kind, amount, from_date, through_date,
                                    created_at)
       VALUES (@id, @tenant_id, @investor_id, @asset, @kind, @amount, @from_date, @through_date, @created_at)`,
    ),
    overridesOn: db.prepare<[string, string], OverrideRow>(
      'SELECT * FROM recon_overrides WHERE from_date <= ? AND (through_date IS NULL OR through_date >= ?) ' +
        'ORDER BY seq',
    ),
    override: db.prepare<[string], OverrideRow>('SELECT * FROM recon_overrides WHERE id = ?'),
    insertRun: db.prepare(
      `INSERT INTO recon_runs (id, date, created_at, created_by, investors, custodian_lines, bank_lines, breaks_found,
                               breaks_opened, breaks_auto_resolved)
       VALUES (@id, @date, @created_at, @created_by, @investors, @custodian_lines, @bank_lines, @breaks_found,
               @breaks_opened, @breaks_auto_resolved)`,
    ),
    run: db.prepare<[string], RunRow>('SELECT * FROM recon_runs WHERE id = ?'),
    tally: db.prepare('UPDATE recon_runs SET breaks_opened = ?, breaks_auto_resolved = ? WHERE id = ?'),
    unresolved: db.prepare<[], BreakRow>("SELECT * FROM recon_breaks WHERE state <> 'resolved' ORDER BY seq"),
    lastResolved: db.prepare<[string, string, string, string], { id: string }>(
      'SELECT id FROM recon_breaks WHERE tenant_id = ? AND investor_id = ? AND asset = ? AND kind = ? AND ' +
        "state = 'resolved' ORDER BY seq DESC LIMIT 1",
    ),
    insertBreak: db.prepare(
      `INSERT INTO recon_breaks (id, tenant_id, investor_id, asset, kind, ledger_value, external_value, difference,
                                 first_run_id, first_seen_date, first_seen_at, last_run_id, last_seen_date, state,
                                 reopens)
       VALUES (@id, @tenant_id, @investor_id, @asset, @kind, @ledger_value, @external_value, @difference,
               @first_run_id, @first_seen_date, @first_seen_at, @last_run_id, @last_seen_date, 'open', @reopens)`,
    ),
    seen: db.prepare(
      'UPDATE recon_breaks SET ledger_value = @ledger_value, external_value = @external_value, difference = ' +
        '@difference, last_run_id = @last_run_id, last_seen_date = @last_seen_date WHERE id = @id',
    ),
    autoResolve: db.prepare(
      "UPDATE recon_breaks SET state = 'resolved', resolution = 'auto', resolved_at = ?, resolved_by = ? WHERE id = ?",
    ),
    acknowledge: db.prepare(
      "UPDATE recon_breaks SET state = 'acknowledged', acknowledged_at = ?, acknowledged_by = ?, note = " +
        "COALESCE(?, note) WHERE id = ? AND state = 'open'",
    ),
    accept: db.prepare(
      "UPDATE recon_breaks SET state = 'resolved', resolution = 'accepted', resolved_at = ?, resolved_by = ?, " +
        "note = ? WHERE id = ? AND state <> 'resolved'",
    ),
    adjust: db.prepare(
      "UPDATE recon_breaks SET state = 'resolved', resolution = 'adjusted', resolved_at = ?, resolved_by = ?, " +
        "note = ? WHERE id = ? AND state <> 'resolved'",
    ),
    break: db.prepare<[string], BreakRow>('SELECT * FROM recon_breaks WHERE id = ?'),
  };
}

type ReconStatements = ReturnType<typeof reconStatements>;

/** What a run reads (ledger accounts and postings, investors, injected overrides) and the runs themselves. */
function inputAndRunMethods(db: Db, q: ReconStatements) {
  return {
    accounts: () => q.accounts.all(),
    /** Every posting before `cutoffMs` as [debit account, credit account, amount] (arrays: the hot read). */
    entriesBefore: (cutoffMs: number) => q.entries.raw().all(cutoffMs) as Array<[number, number, number]>,
    investor: (id: string) => q.investor.get(id),
    investorCount: () => q.investorCount.get()!.n,
    insertOverride: (row: Omit<OverrideRow, 'seq'>) => void q.insertOverride.run(row),
    override: (id: string) => q.override.get(id)!,
    overridesOn: (date: string) => q.overridesOn.all(date, date),
    insertRun: (row: Omit<RunRow, 'seq'>) => void q.insertRun.run(row),
    run: (id: string) => q.run.get(id),
    setRunTally: (id: string, opened: number, autoResolved: number) => void q.tally.run(opened, autoResolved, id),
    runs(date: string | undefined, limit: number): RunRow[] {
      if (date)
        return db
          .prepare<[string, number], RunRow>('SELECT * FROM recon_runs WHERE date = ? ORDER BY seq DESC LIMIT ?')
          .all(date, limit);
      return db.prepare<[number], RunRow>('SELECT * FROM recon_runs ORDER BY seq DESC LIMIT ?').all(limit);
    },
  };
}

/** Breaks: found, seen again, auto-resolved, acknowledged, accepted or adjusted, read and listed. */
function breakMethods(db: Db, q: ReconStatements) {
  return {
    unresolved: () => q.unresolved.all(),
    lastResolved: (b: { tenant_id: string; investor_id: string; asset: string; kind: string }) =>
      q.lastResolved.get(b.tenant_id, b.investor_id, b.asset, b.kind)?.id ?? null,
    insertBreak: (row: NewBreak) => void q.insertBreak.run(row),
    seen: (row: {
      id: string;
      ledger_value: number;
      external_value: number;
      difference: number;
      last_run_id: string;
      last_seen_date: string;
    }) => void q.seen.run(row),
    autoResolve: (id: string, at: string, runId: string) => void q.autoResolve.run(at, runId, id),
    acknowledge: (id: string, at: string, by: string, note: string | null) =>
      q.acknowledge.run(at, by, note, id).changes === 1,
    accept: (id: string, at: string, by: string, note: string) => q.accept.run(at, by, note, id).changes === 1,
    adjust: (id: string, at: string, actionId: string, note: string) =>
      q.adjust.run(at, actionId, note, id).changes === 1,
    break: (id: string) => q.break.get(id),
    breaks(f: BreakFilter): BreakRow[] {
      const w = breakWhere(f);
      return db
        .prepare<unknown[], BreakRow>(`SELECT * FROM recon_breaks ${w.sql} ORDER BY seq DESC LIMIT ?`)
        .all(...w.args, f.limit);
    },
  };
}
