// The one sandbox clock. `frozen`: moves only when advanced (scenarios, CI). `running`: simulated
// time = wall time since the anchor x speed + the simulated time at the anchor. While the scheduler
// processes an event, time is pinned to the event's instant so everything it writes carries that time.
import type { Db } from '../store/db.js';
import type { SandboxStateRow } from '../store/rows.js';

export type ClockMode = 'frozen' | 'running';

type ClockRow = Pick<SandboxStateRow, 'clock_mode' | 'sim_ms' | 'wall_anchor_ms' | 'speed_milli'>;

export interface Clock {
  now(): number;
  mode(): ClockMode;
  speedMilli(): number;
  /** Moves the clock to `ms` (never backwards); persists in the caller's transaction. */
  set(ms: number): void;
  setMode(mode: ClockMode, speedMilli?: number): void;
  pin(ms: number): void;
  unpin(): void;
  /** Re-reads the persisted state (after reset or import). */
  reload(): void;
}

export function createClock(db: Db, wallNow: () => number): Clock {
  const read = db.prepare<[], ClockRow>(
    'SELECT clock_mode, sim_ms, wall_anchor_ms, speed_milli FROM sandbox_state WHERE id = 1',
  );
  const write = db.prepare(
    'UPDATE sandbox_state SET clock_mode = ?, sim_ms = ?, wall_anchor_ms = ?, speed_milli = ? WHERE id = 1',
  );
  let s: ClockRow = read.get()!;
  let pinned: number | null = null;

  function unpinnedNow(): number {
    if (s.clock_mode === 'frozen') return s.sim_ms;
    return s.sim_ms + Math.floor(((wallNow() - s.wall_anchor_ms) * s.speed_milli) / 1000);
  }

  function persist(next: ClockRow): void {
    write.run(next.clock_mode, next.sim_ms, next.wall_anchor_ms, next.speed_milli);
    s = next;
  }

  return {
    now: () => pinned ?? unpinnedNow(),
    mode: () => s.clock_mode,
    speedMilli: () => s.speed_milli,
    set(ms) {
      const target = Math.max(ms, unpinnedNow());
      persist({ ...s, sim_ms: target, wall_anchor_ms: wallNow() });
    },
    setMode(mode, speedMilli = s.speed_milli) {
      persist({ clock_mode: mode, sim_ms: unpinnedNow(), wall_anchor_ms: wallNow(), speed_milli: speedMilli });
    },
    pin(ms) {
      pinned = ms;
    },
    unpin() {
      pinned = null;
    },
    reload() {
      s = read.get()!;
      pinned = null;
    },
  };
}
