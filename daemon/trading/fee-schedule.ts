// The fee schedule in force (docs/trading.md "Fees", docs/backoffice.md "fee-schedule:update"): the
// newest row of fee_schedules, written only by an approved fee-schedule:update, or fixtures/fees.json
// while there is none. Fills read it when they are booked; what a fill was charged is stored with the
// fill, so a new schedule changes future fills only and never a past contract note.
import type { Db } from '../store/db.js';
import { cachedRead } from '../store/table-watch.js';
import type { FeeSchedule } from '../contract/fees.js';
import { loadFeeSchedule } from './fees.js';

const latest = (db: Db) =>
  db.prepare<[], { schedule: string }>('SELECT schedule FROM fee_schedules ORDER BY seq DESC LIMIT 1');

/** The schedule in force now, read from the database (no cache). */
export function feeScheduleInForce(db: Db): FeeSchedule {
  const row = latest(db).get();
  return row ? (JSON.parse(row.schedule) as FeeSchedule) : loadFeeSchedule();
}

/** Makes `schedule` the one in force from now on; call inside the approving transaction. */
export function putFeeSchedule(db: Db, schedule: FeeSchedule, actionId: string, effectiveAt: string): number {
  return Number(
    db
      .prepare('INSERT INTO fee_schedules (schedule, action_id, effective_at) VALUES (?, ?, ?)')
      .run(JSON.stringify(schedule), actionId, effectiveAt).lastInsertRowid,
  );
}

/** The schedule in force for the order path, cached until fee_schedules is written. */
export function createFeeScheduleReader(db: Db, onReset: Array<() => void>): () => FeeSchedule {
  const q = latest(db);
  const fixture = loadFeeSchedule();
  const cache = cachedRead(db, 'fee_schedules', () => {
    const row = q.get();
    return row ? (JSON.parse(row.schedule) as FeeSchedule) : fixture;
  });
  onReset.push(() => cache.forget());
  return () => cache.get();
}
