// The offline rebuild of a sandbox from its journal (docs/snapshots.md, "Replay"): `node
// dist/daemon/main.js --home NEW --replay` reads a journal on stdin, creates a new sandbox in a home
// that holds none (the journal's origin: seed, start, clock, speed), replays every entry in-process
// through the app's own stack (replay.ts) without ever listening, prints one ReplayLine per entry and
// exits; `svc sandbox replay` then starts the rebuilt sandbox like any other. Nobody but the process
// that creates the home takes part, so replay is no route through which one key acts for others: a
// journal entry runs as its recorded principal only while the sandbox being built belongs to whoever
// runs the rebuild, who holds every key of it anyway (credentials.json). Every answer printed has the
// secrets it showed once (tenant keys, enrolment codes) read "[secret]".
import type { JournalEntry, JournalHeader, ReplayLine } from '../contract/journal.js';
import { replayEntry, type Inject, type ReplayDeps } from './replay.js';
import { closeSession, openSession } from './replay-session.js';

/** The audit's actor for every replayed entry (the recorded principal is its on_behalf_of). */
export const REPLAY_ACTOR = 'replay';

type Numbered = Array<{ line: number; entry: JournalEntry }>;

/** Route templates of the app's own /openapi.json: an entry naming any other route is refused up front. */
async function unknownRoute(inject: Inject, entries: Numbered): Promise<ReplayLine | null> {
  const res = await inject({ method: 'GET', url: '/openapi.json', headers: {} });
  const doc = JSON.parse(res.body) as { paths: Record<string, Record<string, unknown>> };
  const routes = Object.entries(doc.paths).flatMap(([tpl, ops]) => {
    const re = new RegExp(
      '^' +
        tpl
          .split('/')
          .map((seg) => (/^\{.+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/') +
        '/?$',
    );
    return Object.keys(ops).map((m) => ({ method: m.toUpperCase(), re }));
  });
  for (const { line, entry: e } of entries) {
    if (!routes.some((r) => r.method === e.method && r.re.test(e.path))) {
      return { refused: { line, message: `unknown route ${e.method} ${e.path} (not in the API of this svc)` } };
    }
  }
  return null;
}

/**
 * Replays the journal into this (new) sandbox, writing one line per entry; the exit code: 0 every
 * entry replayed, 1 one could not be (stopped), 2 nothing replayed (refused).
 */
export async function rebuildFromJournal(
  deps: ReplayDeps,
  inject: Inject,
  header: JournalHeader,
  entries: Numbered,
  write: (l: ReplayLine) => void,
): Promise<0 | 1 | 2> {
  const unknown = await unknownRoute(inject, entries);
  if (unknown) {
    write(unknown);
    return 2;
  }
  const opened = openSession(deps, REPLAY_ACTOR, header.origin);
  if (!opened.ok) {
    write({ refused: { line: 1, message: opened.message ?? opened.code } });
    return 2;
  }
  try {
    for (const { entry } of entries) {
      const r = await replayEntry(deps, inject, entry, REPLAY_ACTOR);
      if (!r.ok) {
        write({ stopped: { seq: entry.seq, code: r.code, message: r.message ?? r.code } });
        return 1;
      }
      write({ result: r.value });
    }
  } finally {
    closeSession(deps, REPLAY_ACTOR);
  }
  write({ done: { entries: entries.length } });
  return 0;
}
