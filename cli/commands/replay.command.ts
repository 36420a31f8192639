// `svc sandbox replay` (cli/commands/replay.ts).
import type { Command } from 'commander';
import { lazy } from './declare.js';

export function register(sandbox: Command): void {
  sandbox
    .command('replay <journal>')
    .description(
      "rebuild a sandbox from a journal, offline: a new sandbox with the journal's seed and start, built in a " +
        'process of its own that listens on nothing, re-runs every entry as its principal and must answer each ' +
        'as recorded',
    )
    .option('--port <port>', 'port of the rebuilt sandbox once it starts (with --home; default 0: a free one)')
    .addHelpText(
      'after',
      `
Without --home the sandbox is rebuilt in a temporary home that is removed afterwards; with --home DIR (a
new directory) the rebuilt sandbox is started there once the replay is over, to reproduce and inspect
the issue. A journal is never replayed into a running sandbox: replayed entries act as their recorded
principals, which only the owner of a new home may have them do. Secrets a replayed answer shows once
(keys, enrolment codes) are not handed back.
Exit codes: 0 every entry answered as recorded, 1 some differ (listed) or the replay stopped, ` +
        `2 a bad journal or a home that holds a sandbox.
Examples:
  $ svc sandbox replay journal.ndjson
  $ svc --home ./repro sandbox replay journal.ndjson
  $ svc sandbox replay journal.ndjson --json`,
    )
    .action(lazy(async () => (await import('./replay.js')).replayCmd));
}
