// daemon/tick-shape.ts holds one of Node's tick objects for the daemon's lifetime, so V8's feedback
// on the shapes of process.nextTick's objects is never cleared by a collection (docs/bench-history.md, "The
// fifth pass"). What this checks: the object held really is a queued tick (Node's async-id symbols,
// the callback and its arguments), and one holder serves the whole process.
import { describe, expect, it } from 'vitest';
import { keptTick } from '../../daemon/tick-shape.js';

describe('the daemon keeps one tick object alive', () => {
  it('holds a tick object of process.nextTick, with its async ids, callback and arguments', () => {
    const tick = keptTick() as Record<string | symbol, unknown> | undefined;
    expect(tick).toBeDefined();
    const symbols = Object.getOwnPropertySymbols(tick).map((s) => s.description);
    expect(symbols).toEqual(['async_id_symbol', 'trigger_async_id_symbol']);
    expect(Object.keys(tick!)).toEqual(['callback', 'args']);
    expect(typeof tick!.callback).toBe('function');
  });

  it('is the same object after the module is evaluated again elsewhere (one holder per process)', async () => {
    const first = keptTick();
    const again = (await import('../../daemon/tick-shape.js?again' as string)) as { keptTick(): object | undefined };
    expect(again.keptTick()).toBe(first);
  });
});
