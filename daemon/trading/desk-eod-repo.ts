// The end-of-day report's reads (docs/desk.md), each scoped to the dealer's broker (null: every
// broker): the fills of a trade date, the cash-moving activities of the day, and the fills whose
// settlement falls on the date with their settlement state. Read-only; the report is assembled in
// desk-eod.ts.
import type { Db } from '../store/db.js';
import type { FillRow } from './repository.js';
import type { ActivitiesRow } from '../store/rows.js';

export type EodFillRow = FillRow & { account_number: string };

export type EodActivityRow = Pick<
  ActivitiesRow,
  | 'id'
  | 'tenant_id'
  | 'investor_id'
  | 'activity_type'
  | 'net_amount_micros'
  | 'description'
  | 'ref_type'
  | 'ref_id'
  | 'at'
> & { account_number: string };

export type EodSettlementRow = EodFillRow & { settlement_state: 'pending' | 'settled' };

export function createEodRepo(db: Db) {
  const fills = db.prepare<{ broker: string | null; date: string }, EodFillRow>(
    `SELECT f.*, i.account_number FROM fills f JOIN investors i ON i.id = f.investor_id
      WHERE f.trade_date = @date AND (@broker IS NULL OR i.broker_id = @broker) ORDER BY f.seq`,
  );
  const activities = db.prepare<{ broker: string | null; from: number; to: number }, EodActivityRow>(
    `SELECT a.id, a.tenant_id, a.investor_id, i.account_number, a.activity_type, a.net_amount_micros, a.description,
      a.ref_type, a.ref_id, a.at
       FROM activities a JOIN investors i ON i.id = a.investor_id
      WHERE a.at_ms >= @from AND a.at_ms < @to AND a.net_amount_micros <> 0
        AND (@broker IS NULL OR i.broker_id = @broker)
      ORDER BY a.seq`,
  );
  const due = db.prepare<{ broker: string | null; date: string }, EodSettlementRow>(
    `SELECT f.*, i.account_number, s.state AS settlement_state
       FROM fills f JOIN investors i ON i.id = f.investor_id JOIN settlements s ON s.fill_id = f.id
      WHERE f.settlement_date = @date AND (@broker IS NULL OR i.broker_id = @broker) ORDER BY f.seq`,
  );
  return {
    fills: (broker: string | null, date: string) => fills.all({ broker, date }),
    /** Activities that moved cash in [fromMs, toMs). */
    activities: (broker: string | null, fromMs: number, toMs: number) =>
      activities.all({ broker, from: fromMs, to: toMs }),
    settlementsDue: (broker: string | null, date: string) => due.all({ broker, date }),
  };
}

export type EodRepo = ReturnType<typeof createEodRepo>;
