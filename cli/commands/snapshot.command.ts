// `svc sandbox export`, `import` and `journal` (cli/commands/snapshot.ts; export --redact is
// cli/commands/export-redacted.ts).
import type { Command } from 'commander';
import { aiOption, lazy } from './declare.js';

export function register(sandbox: Command): void {
  declareExport(sandbox);
  declareImport(sandbox);
  declareJournal(sandbox);
}

function declareExport(sandbox: Command): void {
  sandbox
    .command('export [file]')
    .description('save the whole sandbox (state, clock, seed, credentials) to one snapshot file; it holds secrets')
    .option(
      '--redact',
      'rebuild the sandbox from its journal with personal data replaced by fakes (in an isolated sandbox) and ' +
        'export that: no personal data and none of these keys',
    )
    .addHelpText(
      'after',
      `
The file holds the database, the key-encryption key and the credentials: keep it as secret as the keys.
With --redact it holds neither this sandbox's personal data nor its keys, and every journal entry must
replay to its recorded answer, or nothing is written.
Examples:
  $ svc sandbox export                      writes svc-<seed>-<date>.svcsnap here
  $ svc sandbox export --redact support-1234.svcsnap
  $ svc sandbox export /tmp/bug-1234.svcsnap --json`,
    )
    .action(
      lazy<{ redact?: boolean }>(
        async () => async (opts, g, args) =>
          (opts.redact
            ? (await import('./export-redacted.js')).exportRedactedCmd
            : (await import('./snapshot.js')).exportCmd)(opts, g, args),
      ),
    );
}

function declareImport(sandbox: Command): void {
  sandbox
    .command('import <file>')
    .description(
      'replace the sandbox of this home with a snapshot (checked first; a bad file changes nothing), then start it',
    )
    .option(
      '--port <port>',
      "port of the imported sandbox (default: the replaced daemon's, else 4710; 0 picks a free one)",
    )
    .addOption(aiOption("assistant provider (default: the replaced daemon's, else none)"))
    .addHelpText(
      'after',
      `
Exit codes: 0 imported and running, 1 the imported sandbox did not start (the previous one is put back), 2 a bad file.
Examples:
  $ svc sandbox import bug-1234.svcsnap
  $ svc --home /tmp/repro sandbox import bug-1234.svcsnap --port 0 --json`,
    )
    .action(lazy(async () => (await import('./snapshot.js')).importCmd));
}

function declareJournal(sandbox: Command): void {
  sandbox
    .command('journal [file]')
    .description('save the request journal (every committed state-changing request) as NDJSON; stdout without FILE')
    .option('--after <seq>', 'only entries after this seq')
    .option(
      '--redact',
      'replace national ids, names, emails, phones, addresses and ID images with consistent fakes; the file ' +
        'still replays to the same answers',
    )
    .addHelpText(
      'after',
      `
The journal holds request bodies (national ids, ID images), never keys or signatures; --redact makes one
you can share (docs/snapshots.md, "Redaction").
Examples:
  $ svc sandbox journal journal.ndjson
  $ svc sandbox journal --redact support-1234.ndjson
  $ svc sandbox journal | tail -n 3`,
    )
    .action(lazy(async () => (await import('./snapshot.js')).journalCmd));
}
