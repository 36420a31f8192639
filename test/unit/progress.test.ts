// Progress of long operations on stderr: a spinner with the elapsed time on a terminal, erased when the
// work ends; without a terminal, quiet for quick work and a line now and then for slow work.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withProgress } from '../../cli/progress.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream };
}

// Fake timers and Date: the work "takes" its time only as the test moves the clock, so what the spinner
// and the quiet lines show is exact, however busy the machine is.
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Moves fake time on by `ms`, then answers what the running `withProgress` returned. */
async function afterMs<T>(ms: number, running: Promise<T>): Promise<T> {
  await vi.advanceTimersByTimeAsync(ms);
  return running;
}

describe('withProgress', () => {
  it('on a terminal: redraws a spinner with the label and elapsed seconds on one line, erases it at the end, returns the result', async () => {
    const s = stream(true);
    const result = await afterMs(
      120,
      withProgress(
        'advancing the clock 30 days',
        async () => {
          await sleep(120);
          return 42;
        },
        { stream: s.stream, frameMs: 20 },
      ),
    );
    expect(result).toBe(42);
    expect(s.writes.length).toBeGreaterThan(3);
    expect(s.writes[0]).toMatch(/^\r. advancing the clock 30 days 0\.0s\u001B\[K$/);
    expect(new Set(s.writes.slice(0, -1).map((w) => w[1])).size).toBeGreaterThan(1);
    expect(s.writes.at(-1)).toBe('\r\u001B[K');
  });

  it('on a terminal: a failure still erases the line and rethrows', async () => {
    const s = stream(true);
    await expect(
      withProgress('x', async () => Promise.reject(new Error('boom')), { stream: s.stream }),
    ).rejects.toThrow('boom');
    expect(s.writes.at(-1)).toBe('\r\u001B[K');
  });

  it('without a terminal: nothing for quick work; for slow work a line after quietMs and then every everyMs', async () => {
    const quick = stream(false);
    await afterMs(
      20,
      withProgress('advancing', async () => sleep(20), { stream: quick.stream, quietMs: 200 }),
    );
    expect(quick.writes).toEqual([]);
    const slow = stream(false);
    await afterMs(
      190,
      withProgress('advancing', async () => sleep(190), { stream: slow.stream, quietMs: 50, everyMs: 60 }),
    );
    expect(slow.writes.length).toBeGreaterThanOrEqual(2);
    for (const w of slow.writes) expect(w).toMatch(/^advancing \(\d\.\ds so far\)\n$/);
    // after 50 ms, then every 60 ms until the work ends at 190 ms
    expect(slow.writes).toEqual([
      'advancing (0.1s so far)\n',
      'advancing (0.1s so far)\n',
      'advancing (0.2s so far)\n',
    ]);
  });
});
