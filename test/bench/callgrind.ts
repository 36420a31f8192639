// Reading a callgrind file (valgrind --tool=callgrind): a function's inclusive instructions, and the
// functions whose cost the counting benches set apart, because they fall in one counted window and not
// in another: V8's optimizing compiler (its own thread, still tiering code up) and a major GC cycle
// (concurrent marking and sweeping on helper threads, the mark-compact pause, the start of incremental
// marking). Used by test/bench/icount.ts (the daemon) and test/bench/client-icount.ts (the client).
import { execFileSync } from 'node:child_process';

export const COMPILER = /OptimizingCompileDispatcher::CompileNext\(/;
export const MAJOR_GC: readonly RegExp[] = [
  /ConcurrentMarking::JobTaskMajor::Run\(/,
  /Sweeper::SweeperJob::Run\(/,
  /v8::internal::Heap::MarkCompact\(\)/,
  /v8::internal::IncrementalMarking::Start\(/,
];

/** The inclusive instructions of the first function of the file matching a pattern (0 if none), divided by `per`. */
export function inclusiveOf(file: string, per: number): (re: RegExp) => number {
  const out = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
  });
  const lines = out.split('\n');
  return (re) => {
    const line = lines.find((l) => re.test(l));
    return line ? Number(line.trim().split(/\s+/)[0].replace(/,/g, '')) / per : 0;
  };
}

/** A major GC's instructions, by `inclusive`. */
export const majorGc = (inclusive: (re: RegExp) => number) => MAJOR_GC.reduce((n, re) => n + inclusive(re), 0);
