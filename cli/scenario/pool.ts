// Running scenario files N at a time without changing what the run reports. Each file already has a
// daemon and a home of its own, so the files cannot see each other; what parallelism could change is
// only the order things are written and collected in. So: files start in their order, reports are
// collected by file index (never by finishing order), and each file's human lines go to a slot that
// is written through while it is the earliest unfinished file and held back until then otherwise.
// A run with N jobs prints and reports what the same run with one job does, apart from durations.

/** Output of several files at once, written in file order: the earliest unfinished file streams live. */
export class OrderedOutput {
  private readonly held: string[][];
  private readonly done: boolean[];
  private cursor = 0;

  constructor(
    count: number,
    private readonly sink: (text: string) => void,
  ) {
    this.held = Array.from({ length: count }, () => []);
    this.done = Array.from({ length: count }, () => false);
  }

  /** Text of file `index`: written now if no earlier file is still running, held back otherwise. */
  write(index: number, text: string): void {
    if (index === this.cursor) this.sink(text);
    else this.held[index].push(text);
  }

  /** File `index` has written everything: the files after it that were held back come out, in order. */
  finish(index: number): void {
    this.done[index] = true;
    while (this.cursor < this.done.length && this.done[this.cursor]) {
      this.cursor++;
      if (this.cursor < this.held.length) {
        for (const text of this.held[this.cursor]) this.sink(text);
        this.held[this.cursor] = [];
      }
    }
  }
}

/**
 * `work(item, index)` for every item, at most `jobs` at a time, started in the items' order; the
 * results in the items' order whatever order they finish in. `work` must not throw (a file that
 * cannot run is a report, not an exception); if it does, nothing more starts, and once the running
 * ones end the first error is thrown.
 */
export async function inOrder<T, R>(items: T[], jobs: number, work: (item: T, index: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        results[i] = await work(items[i], i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker);
  const settled = await Promise.allSettled(workers);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return results;
}
