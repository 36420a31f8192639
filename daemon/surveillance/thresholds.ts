// The thresholds of the surveillance rules: the defaults in fixtures/surveillance.json, each
// overridable by an operator (PUT /admin/surveillance/thresholds; null puts a default back). The
// overrides are a row of the database, so a reset forgets them and a snapshot or replay keeps them.
import type { Db } from '../store/db.js';
import { readFixture } from '../fixtures.js';
import type { SurveillanceThresholdsRow } from '../store/rows.js';

export interface Thresholds {
  wash_window_minutes: number;
  layering_min_cancels: number;
  layering_cancel_within_minutes: number;
  concentration_share_bps: number;
}

export const THRESHOLD_NAMES = [
  'wash_window_minutes',
  'layering_min_cancels',
  'layering_cancel_within_minutes',
  'concentration_share_bps',
] as const;

export type ThresholdsPatch = { [K in keyof Thresholds]?: number | null };

export function defaultThresholds(): Thresholds {
  const f = readFixture<Thresholds>('surveillance.json');
  return {
    wash_window_minutes: f.wash_window_minutes,
    layering_min_cancels: f.layering_min_cancels,
    layering_cancel_within_minutes: f.layering_cancel_within_minutes,
    concentration_share_bps: f.concentration_share_bps,
  };
}

type Row = Omit<SurveillanceThresholdsRow, 'id'>;

export function createThresholdStore(db: Db) {
  const get = db.prepare<[], Row>('SELECT * FROM surveillance_thresholds WHERE id = 1');
  const put = db.prepare(
    `INSERT INTO surveillance_thresholds (id, wash_window_minutes, layering_min_cancels, layering_cancel_within_minutes,
                                         concentration_share_bps, updated_at)
     VALUES (1, @wash_window_minutes, @layering_min_cancels, @layering_cancel_within_minutes, @concentration_share_bps,
             @updated_at)
     ON CONFLICT(id) DO UPDATE SET wash_window_minutes = excluded.wash_window_minutes,
       layering_min_cancels = excluded.layering_min_cancels,
       layering_cancel_within_minutes = excluded.layering_cancel_within_minutes,
       concentration_share_bps = excluded.concentration_share_bps, updated_at = excluded.updated_at`,
  );
  function view() {
    const defaults = defaultThresholds();
    const row = get.get();
    const thresholds = { ...defaults };
    const overridden: string[] = [];
    for (const k of THRESHOLD_NAMES) {
      const v = row?.[k];
      if (v !== null && v !== undefined) {
        thresholds[k] = v;
        overridden.push(k);
      }
    }
    return { thresholds, defaults, overridden, updated_at: row?.updated_at ?? null };
  }
  return {
    view,
    current: (): Thresholds => view().thresholds,
    /** Applies a patch: a number overrides, null puts the default back, an absent name is kept. */
    patch(p: ThresholdsPatch, nowIso: string) {
      const row = get.get();
      const next: Row = {
        wash_window_minutes: null,
        layering_min_cancels: null,
        layering_cancel_within_minutes: null,
        concentration_share_bps: null,
        updated_at: nowIso,
      };
      for (const k of THRESHOLD_NAMES) next[k] = p[k] === undefined ? (row?.[k] ?? null) : (p[k] as number | null);
      put.run(next);
      return view();
    },
  };
}

export type ThresholdStore = ReturnType<typeof createThresholdStore>;
