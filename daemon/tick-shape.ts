// Keeps one of Node's tick objects (what process.nextTick queues) alive for the daemon's lifetime.
//
// Why: nextTick builds each tick as an object literal with computed keys, and V8 remembers the
// shapes (maps) that literal goes through, weakly. When a full garbage collection finds no tick object
// alive, those shapes are freed and the remembered feedback reads "cleared"; code optimized after that
// (the stream and HTTP internals that inline nextTick) then builds every tick through the runtime's
// slow path. The daemon's start-up (migrations, 240 routes, the passkey library) makes such a
// collection likely. Measured: about 30 slow-path calls per GET, a quarter of a read's instructions
// (docs/bench-history.md, "The fifth pass"). One live tick object keeps the shapes, so the feedback stays valid.
// daemon/start.ts imports this before it loads the daemon's code.
import { createHook } from 'node:async_hooks';

/** Captures the tick object of one nextTick (an init hook, enabled only around that call). */
function captureTick(): object | undefined {
  let found: object | undefined;
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'TickObject' && found === undefined) found = resource as object;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
  return found;
}

// Held by the process object, so it lives as long as the process: a variable of this module would be
// let go once the entry module has finished evaluating.
const HELD = Symbol.for('svc.keptTick');
const holder = process as unknown as Record<symbol, object | undefined>;
holder[HELD] ??= captureTick();

/** The tick object held (undefined if this Node names its ticks otherwise). */
export function keptTick(): object | undefined {
  return holder[HELD];
}
