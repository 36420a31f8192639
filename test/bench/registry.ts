// The bench registry: suites call bench(name, fn); fn returns one or more figures
// {metric, value, unit, goal?}; the runner judges each figure that has a goal (pass = value meets it),
// keeps going when a bench throws (it becomes a FAIL row), and renders everything as one table.
import type { BenchContext } from './context.js';

export interface Goal {
  op: '>=' | '<=';
  value: number;
}

/** What a bench function returns for each figure. */
export interface Figure {
  metric: string;
  value: number | null;
  unit: string;
  goal?: Goal;
  /** Set only to override the judgement of goal (rare). */
  pass?: boolean;
  /** Extra, machine-readable detail for latest.json (samples, raw stats). */
  details?: Record<string, unknown>;
  note?: string;
}

export interface Result extends Omit<Figure, 'pass'> {
  bench: string;
  /** true/false when the figure has a goal, null when it is informational. */
  pass: boolean | null;
  error?: string;
}

export type BenchFn = (ctx: BenchContext) => Promise<Figure | Figure[]>;

type Timeout = number | ((ctx: BenchContext) => number);

interface Entry {
  name: string;
  fn: BenchFn;
  timeoutMs?: Timeout;
}

const entries: Entry[] = [];

/**
 * Registers a bench; they run in registration order. timeoutMs bounds it (a number, or computed from
 * the context's configuration; default ctx.defaultTimeoutMs, enough for a few compared HTTP runs).
 */
export function bench(name: string, fn: BenchFn, opts: { timeoutMs?: Timeout } = {}): void {
  if (entries.some((e) => e.name === name)) throw new Error(`bench ${name} registered twice`);
  entries.push({ name, fn, timeoutMs: opts.timeoutMs });
}

function timeoutOf(e: Entry, ctx: BenchContext): number {
  if (e.timeoutMs === undefined) return ctx.defaultTimeoutMs;
  return typeof e.timeoutMs === 'function' ? e.timeoutMs(ctx) : e.timeoutMs;
}

/** The longest the selected benches can take together (each is bounded by its own timeout). */
export function budgetMs(ctx: BenchContext, filter?: RegExp): number {
  return entries.filter((e) => !filter || filter.test(e.name)).reduce((sum, e) => sum + timeoutOf(e, ctx), 0);
}

export function registered(): readonly string[] {
  return entries.map((e) => e.name);
}

export function meets(value: number | null, goal: Goal): boolean {
  if (value === null || !Number.isFinite(value)) return false;
  return goal.op === '>=' ? value >= goal.value : value <= goal.value;
}

/** Runs the benches whose name matches filter (all when undefined), each bounded in time. */
export async function runAll(ctx: BenchContext, filter?: RegExp, onResult?: (r: Result) => void): Promise<Result[]> {
  const results: Result[] = [];
  for (const e of entries) {
    if (filter && !filter.test(e.name)) continue;
    const timeoutMs = timeoutOf(e, ctx);
    const t0 = Date.now();
    ctx.log(`• ${e.name} …`);
    let figures: Figure[];
    try {
      let timer: NodeJS.Timeout | undefined;
      const out = await Promise.race([
        e.fn(ctx),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
        }),
      ]).finally(() => clearTimeout(timer));
      figures = Array.isArray(out) ? out : [out];
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      const r: Result = { bench: e.name, metric: 'error', value: null, unit: '', pass: false, error: msg };
      results.push(r);
      onResult?.(r);
      ctx.log(`  ${e.name} failed: ${msg}`);
      continue;
    }
    for (const f of figures) {
      const pass = f.pass ?? (f.goal ? meets(f.value, f.goal) : null);
      const r: Result = { bench: e.name, ...f, pass };
      results.push(r);
      onResult?.(r);
    }
    ctx.log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  return results;
}

// ---- rendering ------------------------------------------------------------------------------------

function fmtNumber(v: number, unit: string): string {
  if (unit === 'x' || unit === 'ratio') return v.toFixed(2);
  if (unit === '%') return v.toFixed(1);
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  if (Math.abs(v) >= 100) return v.toFixed(0);
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

export function fmtValue(value: number | null, unit: string): string {
  if (value === null) return '-';
  const n = fmtNumber(value, unit);
  return unit === '%' ? `${n} %` : unit ? `${n} ${unit}` : n;
}

export function fmtGoal(goal: Goal | undefined, unit: string): string {
  if (!goal) return '';
  return `${goal.op} ${fmtValue(goal.value, unit)}`;
}

/** One plain-text table of every result (no colour codes, so it pastes into docs and CI logs). */
export function renderTable(results: Result[]): string {
  const head = ['bench', 'metric', 'value', 'goal', 'result', 'note'];
  const rows = results.map((r, i) => [
    i > 0 && results[i - 1].bench === r.bench ? '' : r.bench,
    r.metric,
    r.error ? '-' : fmtValue(r.value, r.unit),
    fmtGoal(r.goal, r.unit),
    r.pass === null ? '' : r.pass ? 'PASS' : 'FAIL',
    r.error ? `error: ${r.error}` : (r.note ?? ''),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const right = new Set([2]);
  const line = (cells: string[]) =>
    cells
      .map((cell, c) =>
        c === cells.length - 1 ? cell : right.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]),
      )
      .join('  ')
      .trimEnd();
  const sep = widths.map((w, c) => '-'.repeat(c === widths.length - 1 ? Math.max(4, Math.min(w, 40)) : w)).join('  ');
  const out = [line(head), sep];
  rows.forEach((row, i) => {
    if (i > 0 && row[0] !== '') out.push('');
    out.push(line(row));
  });
  const judged = results.filter((r) => r.pass !== null);
  const passed = judged.filter((r) => r.pass).length;
  out.push(
    sep,
    `goals: ${passed}/${judged.length} PASS${passed < judged.length ? `, ${judged.length - passed} FAIL` : ''}`,
  );
  return out.join('\n');
}
