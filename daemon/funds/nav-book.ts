// The NAV of each fund at any simulated instant. The daily sweep is a function of the date
// (nav.ts): the NAV at an instant is the base NAV accrued by one sweep per calendar day from the
// base's sweep date to the latest sweep at or before the instant (the fund's cut-off, 12:00 Cairo).
// The base is the fixture NAV at the sandbox start, or the latest `nav` control set at or before the
// instant. Nothing is stored per sweep, so no scheduler event is needed: an order, a valuation or a
// list read at any instant (including inside a clock advance) sees exactly the sweeps that have run.
import type { Deps } from '../deps.js';
import type { Statement } from 'better-sqlite3';
import type { Calendar } from '../market/calendar.js';
import type { Fund } from './catalog.js';
import { lastSweepDate, navAfterDays } from './nav.js';
import { epochDay } from '../market/calendar.js';
import type { FundNavOverridesRow } from '../store/rows.js';

interface Base {
  key: string;
  navMicros: number;
  sweepDate: string;
  atMs: number;
}

export interface NavAt {
  navMicros: number;
  /** The sweep date this NAV belongs to (the latest sweep at or before the instant). */
  sweepDate: string;
}

const MEMO_LIMIT = 100_000;

type OverrideRow = FundNavOverridesRow;

/** What the book reads and remembers; everything it remembers is rebuilt from the database on reset. */
interface NavBookState {
  cal: Calendar;
  q: {
    start: Statement<[], { start_ms: number }>;
    overrides: Statement<[], OverrideRow>;
    insert: Statement<[string, string, number, number]>;
  };
  startMs: number | null;
  overrides: Map<string, Base[]> | null;
  /** `${base.key}|${date}` -> NAV after the sweep of date. */
  memo: Map<string, number>;
  /** Per base: the furthest sweep computed so far, to extend forward instead of starting over. */
  frontier: Map<string, { date: string; navMicros: number }>;
}

function forget(s: NavBookState): void {
  s.startMs = null;
  s.overrides = null;
  s.memo.clear();
  s.frontier.clear();
}

/** The date of the latest sweep at or before `ms` (Africa/Cairo). */
function sweepDateAt(s: NavBookState, fund: Fund, ms: number): string {
  const iso = s.cal.toIso(ms);
  return lastSweepDate(iso.slice(0, 10), iso.slice(11, 19), fund.cutoff_local);
}

function loadOverrides(s: NavBookState): Map<string, Base[]> {
  if (s.overrides) return s.overrides;
  const byFund = new Map<string, Base[]>();
  for (const r of s.q.overrides.all()) {
    const list = byFund.get(r.fund_code) ?? [];
    list.push({
      key: `o${r.id}:${r.nav_micros}:${r.sweep_date}`,
      navMicros: r.nav_micros,
      sweepDate: r.sweep_date,
      atMs: r.at_ms,
    });
    byFund.set(r.fund_code, list);
  }
  s.overrides = byFund;
  return byFund;
}

/** The base in force at `ms`: the latest control set at or before it, else the fixture NAV at the sandbox start. */
function baseAt(s: NavBookState, fund: Fund, ms: number): Base {
  const list = loadOverrides(s).get(fund.fund_code) ?? [];
  for (let i = list.length - 1; i >= 0; i--) if (list[i].atMs <= ms) return list[i];
  s.startMs ??= s.q.start.get()!.start_ms;
  const sweepDate = sweepDateAt(s, fund, s.startMs);
  return { key: `f:${fund.fund_code}:${sweepDate}`, navMicros: fund.nav_micros, sweepDate, atMs: s.startMs };
}

function navOn(s: NavBookState, fund: Fund, base: Base, date: string): number {
  // Before the base's own sweep (a valuation before the sandbox start) the NAV is the base's.
  if (date <= base.sweepDate) return base.navMicros;
  const key = `${base.key}|${date}`;
  const hit = s.memo.get(key);
  if (hit !== undefined) return hit;
  const f = s.frontier.get(base.key);
  const from = f && f.date <= date ? f : { date: base.sweepDate, navMicros: base.navMicros };
  const nav = navAfterDays(from.navMicros, fund.indicative_yield_bps, epochDay(date) - epochDay(from.date));
  if (s.memo.size >= MEMO_LIMIT) s.memo.clear();
  s.memo.set(key, nav);
  if (!f || date > f.date) s.frontier.set(base.key, { date, navMicros: nav });
  return nav;
}

/** The NAV in force at `ms`: after the latest sweep at or before it. */
function navAt(s: NavBookState, fund: Fund, ms: number): NavAt {
  const sweepDate = sweepDateAt(s, fund, ms);
  return { navMicros: navOn(s, fund, baseAt(s, fund, ms), sweepDate), sweepDate };
}

/** Sandbox control: from `ms` on, the NAV after the current sweep is navMicros; later sweeps accrue from it. */
function override(s: NavBookState, fund: Fund, ms: number, navMicros: number): NavAt {
  const sweepDate = sweepDateAt(s, fund, ms);
  s.q.insert.run(fund.fund_code, sweepDate, navMicros, ms);
  // Reread on next use (inside this transaction it sees the new row); memo keys carry the row's
  // id, NAV and date, so a rolled-back row can never be confused with a later one.
  s.overrides = null;
  return { navMicros, sweepDate };
}

export function createNavBook(deps: Pick<Deps, 'db' | 'market' | 'onReset'>) {
  const s: NavBookState = {
    cal: deps.market.calendar,
    q: {
      start: deps.db.prepare<[], { start_ms: number }>('SELECT start_ms FROM sandbox_state WHERE id = 1'),
      overrides: deps.db.prepare<[], OverrideRow>(
        'SELECT id, fund_code, sweep_date, nav_micros, at_ms FROM fund_nav_overrides ORDER BY at_ms, id',
      ),
      insert: deps.db.prepare<[string, string, number, number]>(
        'INSERT INTO fund_nav_overrides (fund_code, sweep_date, nav_micros, at_ms) VALUES (?, ?, ?, ?)',
      ),
    },
    startMs: null,
    overrides: null,
    memo: new Map(),
    frontier: new Map(),
  };
  deps.onReset.push(() => forget(s));
  return {
    sweepDateAt: (fund: Fund, ms: number) => sweepDateAt(s, fund, ms),
    navAt: (fund: Fund, ms: number) => navAt(s, fund, ms),
    override: (fund: Fund, ms: number, navMicros: number) => override(s, fund, ms, navMicros),
  };
}

export type NavBook = ReturnType<typeof createNavBook>;
