// cli/scenario/pool.ts, the part of `svc scenario run --jobs` that keeps a parallel run's output and
// reports those of a serial one, driven by promises the test settles in the order it chooses.
import { describe, expect, it } from 'vitest';
import { inOrder, OrderedOutput } from '../../cli/scenario/pool.js';

/** A promise and its resolve, to finish a job exactly when the test says. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('OrderedOutput', () => {
  it("streams the earliest unfinished file's lines and holds a later file's until the earlier ones end", () => {
    const seen: string[] = [];
    const out = new OrderedOutput(3, (t) => seen.push(t));
    out.write(0, 'a1');
    out.write(2, 'c1');
    out.write(1, 'b1');
    expect(seen).toEqual(['a1']);
    out.write(2, 'c2');
    out.finish(2);
    out.finish(1);
    expect(seen).toEqual(['a1']);
    out.write(0, 'a2');
    out.finish(0);
    expect(seen).toEqual(['a1', 'a2', 'b1', 'c1', 'c2']);
  });

  it('a file that becomes the earliest unfinished one streams live from then on', () => {
    const seen: string[] = [];
    const out = new OrderedOutput(2, (t) => seen.push(t));
    out.write(1, 'b1');
    out.finish(0);
    expect(seen).toEqual(['b1']);
    out.write(1, 'b2');
    expect(seen).toEqual(['b1', 'b2']);
  });
});

describe('inOrder', () => {
  it('runs at most N at once, started in order, results in item order whatever finishes first', async () => {
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const all = inOrder([0, 1, 2, 3], 2, async (item, i) => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await gates[i].promise;
      running--;
      return `r${item}`;
    });
    await turn();
    expect(started).toEqual([0, 1]);
    gates[1].open();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    gates[3].open();
    gates[2].open();
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[0].open();
    expect(await all).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(most).toBe(2);
  });

  it('with one job, each starts only once the one before it has ended', async () => {
    const order: string[] = [];
    await inOrder([0, 1, 2], 1, async (_item, i) => {
      order.push(`start ${i}`);
      await turn();
      order.push(`end ${i}`);
    });
    expect(order).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });
});
