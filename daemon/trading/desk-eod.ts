// The dealer desk's end of day (GET /broker/v1/eod, docs/desk.md): for one exchange date, every fill
// of the dealer's broker's investors with its fee lines, the fee totals by line, the cash the ledger
// moved that day (deposits, withdrawals, trade consideration, fees, taxes, dividends), and the
// settlement obligations falling due that day, per investor and net for the broker. All money is
// integer micros; another broker's investors never appear.
import { DateTime } from 'luxon';
import type { Deps } from '../deps.js';
import type { Operator } from '../contract/route.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { checkDate } from '../contract/dates.js';
import { FEE_LINE_KEYS, feesOnly, sumFeeLines, totalCharges, type FeeLines } from '../contract/fees.js';
import { executionView } from './execution-view.js';
import type { ActivityType } from '../contract/activities.js';
import {
  createEodRepo,
  type EodActivityRow,
  type EodFillRow,
  type EodRepo,
  type EodSettlementRow,
} from './desk-eod-repo.js';

export type EodDeps = Pick<Deps, 'db' | 'clock' | 'market' | 'nowIso'>;

function feeLinesOf(f: FeeLines): FeeLines {
  const out = {} as FeeLines;
  for (const k of FEE_LINE_KEYS) out[k] = f[k];
  return out;
}

function tradeView(f: EodFillRow) {
  const fees = feeLinesOf(f);
  return { ...executionView(f), fees, fees_micros: feesOnly(fees) };
}

function feeTotals(fills: readonly EodFillRow[]) {
  const lines = sumFeeLines(fills.map(feeLinesOf));
  const fees = feesOnly(lines);
  return { ...lines, fees_micros: fees, total_micros: totalCharges(lines) };
}

function cashMovements(rows: readonly EodActivityRow[]) {
  const byType = new Map<
    ActivityType,
    { activity_type: ActivityType; count: number; in_micros: number; out_micros: number; net_micros: number }
  >();
  for (const r of rows) {
    const t = byType.get(r.activity_type) ?? {
      activity_type: r.activity_type,
      count: 0,
      in_micros: 0,
      out_micros: 0,
      net_micros: 0,
    };
    t.count += 1;
    if (r.net_amount_micros > 0) t.in_micros += r.net_amount_micros;
    else t.out_micros -= r.net_amount_micros;
    t.net_micros += r.net_amount_micros;
    byType.set(r.activity_type, t);
  }
  return {
    movements: rows.map((r) => ({
      activity_id: r.id,
      activity_type: r.activity_type,
      tenant_id: r.tenant_id,
      investor_id: r.investor_id,
      account_number: r.account_number,
      amount_micros: r.net_amount_micros,
      description: r.description,
      ref_type: r.ref_type,
      ref_id: r.ref_id,
      at: r.at,
    })),
    totals: [...byType.values()].sort((a, b) => (a.activity_type < b.activity_type ? -1 : 1)),
  };
}

interface SideTotal {
  fills: number;
  gross_micros: number;
  net_micros: number;
}

const emptySide = (): SideTotal => ({ fills: 0, gross_micros: 0, net_micros: 0 });

function addTo(s: SideTotal, f: EodFillRow): void {
  s.fills += 1;
  s.gross_micros += f.value_micros;
  s.net_micros += f.net_micros;
}

/** Buys are paid by investors (net = value + charges), sells paid to them (net = value - charges). */
function obligations(rows: readonly EodSettlementRow[]) {
  const per = new Map<
    string,
    {
      investor_id: string;
      tenant_id: string;
      account_number: string;
      buy: SideTotal;
      sell: SideTotal;
      pending_fills: number;
    }
  >();
  const broker = { buy: emptySide(), sell: emptySide(), pending_fills: 0 };
  for (const r of rows) {
    const inv = per.get(r.investor_id) ?? {
      investor_id: r.investor_id,
      tenant_id: r.tenant_id,
      account_number: r.account_number,
      buy: emptySide(),
      sell: emptySide(),
      pending_fills: 0,
    };
    addTo(inv[r.side], r);
    addTo(broker[r.side], r);
    if (r.settlement_state === 'pending') {
      inv.pending_fills += 1;
      broker.pending_fills += 1;
    }
    per.set(r.investor_id, inv);
  }
  return {
    investors: [...per.values()].map((i) => ({ ...i, net_cash_micros: i.sell.net_micros - i.buy.net_micros })),
    broker: {
      ...broker,
      net_cash_micros: broker.sell.net_micros - broker.buy.net_micros,
      market_net_micros: broker.sell.gross_micros - broker.buy.gross_micros,
    },
  };
}

/** The date asked for: a real YYYY-MM-DD not after today on the sandbox clock (default today). */
function eodDate(deps: EodDeps, date: string | undefined): Outcome<string> {
  const today = deps.market.calendar.localDate(deps.clock.now());
  if (date === undefined) return ok(today);
  const checked = checkDate('date', date);
  if (!checked.ok) return checked;
  if (date > today) return refuse('DATE_IN_FUTURE', `date: ${date} is after today (${today}) on the sandbox clock.`);
  return ok(date);
}

function report(deps: EodDeps, repo: EodRepo, op: Operator, date: string) {
  const cal = deps.market.calendar;
  const start = DateTime.fromISO(date, { zone: cal.zone }).startOf('day');
  const fills = repo.fills(op.brokerId, date);
  return {
    date,
    broker_id: op.brokerId,
    as_of: deps.nowIso(),
    trading_day: cal.isTradingDay(date),
    trades: fills.map(tradeView),
    fees_by_line: feeTotals(fills),
    cash: cashMovements(repo.activities(op.brokerId, start.toMillis(), start.plus({ days: 1 }).toMillis())),
    settlements_due: obligations(repo.settlementsDue(op.brokerId, date)),
  };
}

export function createEodDesk(deps: EodDeps) {
  const repo = createEodRepo(deps.db);
  return {
    eod(op: Operator, date: string | undefined) {
      const d = eodDate(deps, date);
      return d.ok ? ok(report(deps, repo, op, d.value)) : d;
    },
  };
}

export type EodDesk = ReturnType<typeof createEodDesk>;
export type EodReport = ReturnType<typeof report>;
