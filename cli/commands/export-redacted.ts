// svc sandbox export --redact (docs/snapshots.md, "Redaction"): a snapshot that can leave the tenant's
// hands. The sandbox's journal is read with its personal data replaced by fakes (cli/journal-redact.ts),
// replayed into an isolated fresh sandbox with the same seed, start and clock, and that sandbox is
// exported. So the file holds no national id, name, contact or ID image of the original, and none of
// its keys either (the rebuilt sandbox mints its own), yet it is the same sandbox in everything else:
// each replayed entry must answer as recorded, or nothing is written.
import { basename, resolve } from 'node:path';
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { CliExit, EXIT, chalk, info, ok, printJson } from '../output.js';
import { unpackSnapshot } from '../../daemon/contract/snapshot.js';
import { createRedactor } from '../journal-redact.js';
import { closeReplaySession, freshSandbox, openReplaySession, printMismatches, readJournal, replayEntries, step, writeSecretFile } from './snapshot.js';

export async function exportRedactedCmd(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const source = resolveProfile(g);
  step(json, `reading the journal of ${source.base_url} with personal data replaced ...`);
  const redactor = createRedactor();
  const { header, entries } = await readJournal(source, json, redactor, true);
  if (!header.complete) {
    info(`${chalk.red('error')} this sandbox's journal starts after the sandbox was created (a database older than its journal), so a replay cannot rebuild it; nothing was written.`);
    throw new CliExit(EXIT.apiError);
  }
  const numbered = entries.map((entry, i) => ({ line: i + 2, entry }));
  // always an isolated sandbox in a temporary home, whatever --home names (that is the source)
  const target = await freshSandbox({ port: '0' }, { ...g, home: undefined }, header.origin, json);
  try {
    await openReplaySession(target.profile, 'the redacted journal', header.origin, json);
    let mismatches;
    try {
      mismatches = await replayEntries(target.profile, 'the redacted journal', numbered, json);
    } finally {
      await closeReplaySession(target.profile);
    }
    if (mismatches.length) {
      printMismatches('the redacted journal', numbered.length, numbered.length, mismatches);
      info(`${chalk.red('error')} the redacted sandbox does not answer like this one; nothing was written.`);
      throw new CliExit(EXIT.apiError);
    }
    const res = await api(target.profile, 'GET', '/admin/sandbox/export', { timeoutMs: 600_000 });
    if (res.status !== 200) ok(res, json);
    const { manifest } = unpackSnapshot(res.raw);
    const file = resolve(args[0] ?? `svc-${manifest.seed}-${manifest.clock.timestamp.slice(0, 10)}-redacted.svcsnap`);
    writeSecretFile(file, res.raw);
    const redacted = redactor.counts();
    if (json) {
      printJson({ file, bytes: res.raw.length, manifest, redacted, replayed_entries: numbered.length });
      return;
    }
    info(`wrote ${file}: the sandbox rebuilt from ${numbered.length} redacted journal entries (seed ${manifest.seed}, clock ${manifest.clock.timestamp}); every entry answered as recorded.`);
    info(chalk.dim('  It holds no personal data and none of this sandbox\'s keys: the rebuilt sandbox has keys of its own, which the file holds.'));
    info(chalk.dim(`  Restore it with: svc sandbox import ${basename(file)} [--home DIR]`));
  } finally {
    await target.finish(false);
  }
}
