// What the market service holds in memory: the calendar, the catalog, the tape for the current seed,
// and the stored sandbox controls as loaded (quote overrides, halts). The database is the truth; this
// is rebuilt from it on reset and after an unplanned rollback (createMarket's reset).
import type { Clock } from '../sim/clock.js';
import type { Calendar } from './calendar.js';
import type { Catalog } from './catalog.js';
import type { ControlStore, Controls } from './control-store.js';
import type { Tape } from './tape.js';

export interface MarketState {
  readonly calendar: Calendar;
  readonly catalog: Catalog;
  readonly clock: Clock;
  readonly store: ControlStore;
  readonly controls: Controls;
  tape: Tape;
  /** Told the symbol whose future ticks or tradability changed (a quote override, a halt). */
  readonly listeners: Array<(symbol: string) => void>;
}
