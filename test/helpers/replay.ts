// The offline rebuild (daemon/sandbox/replay-offline.ts) run on a test app: what `main.js --replay`
// does in its own process, here on the app of a fresh test sandbox (never listening either).
import type { TestApp } from './app.js';
import type { JournalEntry, JournalHeader, ReplayLine, ReplayResult } from '../../daemon/contract/journal.js';
import { rebuildFromJournal } from '../../daemon/sandbox/replay-offline.js';
import type { Inject } from '../../daemon/sandbox/replay.js';

export const injectOf =
  (t: TestApp): Inject =>
  (o) =>
    t.app.inject(o);

/** Rebuilds `t` (a fresh sandbox) from the journal; the exit code the replay mode would take and its lines. */
export async function rebuild(
  t: TestApp,
  header: JournalHeader,
  entries: JournalEntry[],
): Promise<{ code: number; lines: ReplayLine[]; results: ReplayResult[] }> {
  const lines: ReplayLine[] = [];
  const code = await rebuildFromJournal(
    t.deps,
    injectOf(t),
    header,
    entries.map((entry, i) => ({ line: i + 2, entry })),
    (l) => lines.push(l),
  );
  const results = lines.flatMap((l) => ('result' in l ? [l.result] : []));
  return { code, lines, results };
}
