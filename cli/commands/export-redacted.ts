// svc sandbox export --redact (docs/snapshots.md, "Redaction"): a snapshot that can leave the tenant's
// hands. The sandbox's journal is read with its personal data replaced by fakes (cli/journal-redact.ts),
// replayed offline into a new sandbox with the same seed, start and clock (a temporary home, rebuilt by
// the daemon's replay mode in a process of its own: cli/commands/replay.ts), which is then started on a
// free port and exported. So the file holds no national id, name, contact or ID image of the original, and none of
// its keys either (the rebuilt sandbox mints its own), yet it is the same sandbox in everything else:
// each replayed entry must answer as recorded, or nothing is written.
import { join, basename, resolve } from 'node:path';
import { api } from '../client/http.js';
import { readJson, resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { spawnDaemon, stopChild } from '../daemon-process.js';
import { CliExit, EXIT, chalk, info, ok, printJson } from '../output.js';
import { unpackSnapshot } from '../../daemon/contract/snapshot.js';
import type { JournalHeader } from '../../daemon/contract/journal.js';
import { createRedactor } from '../journal-redact.js';
import { readJournal, step, writeSecretFile } from './snapshot.js';
import { failed, newHome, printMismatches, rebuild } from './replay.js';

/** The rebuilt home's sandbox, started on a free port just long enough to export it. */
async function exportRebuilt(home: string, header: JournalHeader, json: boolean): Promise<Buffer> {
  const o = header.origin;
  const spawned = await spawnDaemon({
    home,
    port: 0,
    seed: o.seed,
    start: o.start,
    clock: o.clock,
    speed: o.speed,
    detached: false,
  });
  try {
    const creds = readJson<Omit<Profile, 'base_url'>>(join(home, 'credentials.json')) ?? {};
    const res = await api({ ...creds, base_url: spawned.locator.base_url }, 'GET', '/admin/sandbox/export', {
      timeoutMs: 600_000,
    });
    if (res.status !== 200) ok(res, json);
    return res.raw;
  } finally {
    await stopChild(spawned.child);
  }
}

export async function exportRedactedCmd(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const source = resolveProfile(g);
  step(json, `reading the journal of ${source.base_url} with personal data replaced ...`);
  const redactor = createRedactor();
  const { header, entries } = await readJournal(source, json, redactor, true);
  if (!header.complete) {
    info(
      `${chalk.red('error')} this sandbox's journal starts after the sandbox was created (a database older ` +
        `than its journal), so a replay cannot rebuild it; nothing was written.`,
    );
    throw new CliExit(EXIT.apiError);
  }
  const numbered = entries.map((entry, i) => ({ line: i + 2, entry }));
  // always a temporary home, whatever --home names (that is the source)
  const { home, discard } = newHome({ ...g, home: undefined });
  try {
    const text = `${[header, ...entries].map((x) => JSON.stringify(x)).join('\n')}\n`;
    const outcome = await rebuild(home, text, numbered, json);
    if (!outcome.ok) failed('the redacted journal', numbered, outcome);
    const mismatches = outcome.mismatches;
    if (mismatches.length) {
      printMismatches('the redacted journal', numbered.length, numbered.length, mismatches);
      info(`${chalk.red('error')} the redacted sandbox does not answer like this one; nothing was written.`);
      throw new CliExit(EXIT.apiError);
    }
    const raw = await exportRebuilt(home, header, json);
    const { manifest } = unpackSnapshot(raw);
    const file = resolve(args[0] ?? `svc-${manifest.seed}-${manifest.clock.timestamp.slice(0, 10)}-redacted.svcsnap`);
    writeSecretFile(file, raw);
    const redacted = redactor.counts();
    if (json) {
      printJson({ file, bytes: raw.length, manifest, redacted, replayed_entries: numbered.length });
      return;
    }
    info(
      `wrote ${file}: the sandbox rebuilt from ${numbered.length} redacted journal entries (seed ` +
        `${manifest.seed}, clock ${manifest.clock.timestamp}); every entry answered as recorded.`,
    );
    info(
      chalk.dim(
        "  It holds no personal data and none of this sandbox's keys: the rebuilt sandbox has keys of its own, " +
          'which the file holds.',
      ),
    );
    info(chalk.dim(`  Restore it with: svc sandbox import ${basename(file)} [--home DIR]`));
  } finally {
    discard();
  }
}
