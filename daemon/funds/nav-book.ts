// The NAV of each fund at any simulated instant. The daily sweep is a function of the date
// (nav.ts): the NAV at an instant is the base NAV accrued by one sweep per calendar day from the
// base's sweep date to the latest sweep at or before the instant (the fund's cut-off, 12:00 Cairo).
// The base is the fixture NAV at the sandbox start, or the latest `nav` control set at or before the
// instant. Nothing is stored per sweep, so no scheduler event is needed: an order, a valuation or a
// list read at any instant (including inside a clock advance) sees exactly the sweeps that have run.
import type { Deps } from '../deps.js';
import type { Fund, FundCatalog } from './catalog.js';
import { lastSweepDate, navAfterDays } from './nav.js';
import { epochDay } from '../market/calendar.js';

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

export function createNavBook(deps: Pick<Deps, 'db' | 'market' | 'onReset'>, funds: FundCatalog) {
  const cal = deps.market.calendar;
  const q = {
    start: deps.db.prepare<[], { start_ms: number }>('SELECT start_ms FROM sandbox_state WHERE id = 1'),
    overrides: deps.db.prepare<[], { id: number; fund_code: string; sweep_date: string; nav_micros: number; at_ms: number }>(
      'SELECT id, fund_code, sweep_date, nav_micros, at_ms FROM fund_nav_overrides ORDER BY at_ms, id',
    ),
    insert: deps.db.prepare('INSERT INTO fund_nav_overrides (fund_code, sweep_date, nav_micros, at_ms) VALUES (?, ?, ?, ?)'),
  };
  let startMs: number | null = null;
  let overrides: Map<string, Base[]> | null = null;
  /** `${base.key}|${date}` -> NAV after the sweep of date. */
  const memo = new Map<string, number>();
  /** Per base: the furthest sweep computed so far, to extend forward instead of starting over. */
  const frontier = new Map<string, { date: string; navMicros: number }>();

  deps.onReset.push(() => {
    startMs = null;
    overrides = null;
    memo.clear();
    frontier.clear();
  });

  /** Africa/Cairo date and HH:MM:SS of an instant. */
  function local(ms: number): { date: string; time: string } {
    const iso = cal.toIso(ms);
    return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
  }

  function sweepDateAt(fund: Fund, ms: number): string {
    const l = local(ms);
    return lastSweepDate(l.date, l.time, fund.cutoff_local);
  }

  function loadOverrides(): Map<string, Base[]> {
    if (overrides) return overrides;
    overrides = new Map();
    for (const r of q.overrides.all()) {
      const list = overrides.get(r.fund_code) ?? [];
      list.push({ key: `o${r.id}:${r.nav_micros}:${r.sweep_date}`, navMicros: r.nav_micros, sweepDate: r.sweep_date, atMs: r.at_ms });
      overrides.set(r.fund_code, list);
    }
    return overrides;
  }

  function baseAt(fund: Fund, ms: number): Base {
    const list = loadOverrides().get(fund.fund_code) ?? [];
    for (let i = list.length - 1; i >= 0; i--) if (list[i].atMs <= ms) return list[i];
    startMs ??= q.start.get()!.start_ms;
    const sweepDate = sweepDateAt(fund, startMs);
    return { key: `f:${fund.fund_code}:${sweepDate}`, navMicros: fund.nav_micros, sweepDate, atMs: startMs };
  }

  function navOn(fund: Fund, base: Base, date: string): number {
    // Before the base's own sweep (a valuation before the sandbox start) the NAV is the base's.
    if (date <= base.sweepDate) return base.navMicros;
    const key = `${base.key}|${date}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const f = frontier.get(base.key);
    const from = f && f.date <= date ? f : { date: base.sweepDate, navMicros: base.navMicros };
    const nav = navAfterDays(from.navMicros, fund.indicative_yield_bps, epochDay(date) - epochDay(from.date));
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, nav);
    if (!f || date > f.date) frontier.set(base.key, { date, navMicros: nav });
    return nav;
  }

  return {
    sweepDateAt,

    /** The NAV in force at `ms`: after the latest sweep at or before it. */
    navAt(fund: Fund, ms: number): NavAt {
      const sweepDate = sweepDateAt(fund, ms);
      return { navMicros: navOn(fund, baseAt(fund, ms), sweepDate), sweepDate };
    },

    /** Sandbox control: from `ms` on, the NAV after the current sweep is navMicros; later sweeps accrue from it. */
    override(fund: Fund, ms: number, navMicros: number): NavAt {
      const sweepDate = sweepDateAt(fund, ms);
      q.insert.run(fund.fund_code, sweepDate, navMicros, ms);
      // Reread on next use (inside this transaction it sees the new row); memo keys carry the row's
      // id, NAV and date, so a rolled-back row can never be confused with a later one.
      overrides = null;
      return { navMicros, sweepDate };
    },
  };
}

export type NavBook = ReturnType<typeof createNavBook>;
