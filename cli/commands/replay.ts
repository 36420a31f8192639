// svc sandbox replay (docs/snapshots.md, "Replay"): checks the whole journal (JSON, shape, order),
// then rebuilds the sandbox OFFLINE: the daemon runs in replay mode (`main.js --home NEW --replay`, the
// journal on its stdin) in a process of its own that listens on nothing, creates a new home with the
// journal's origin, replays every entry in-process and prints one answer per entry, with every secret
// shown once read "[secret]". Only then is the rebuilt sandbox started (--home) or deleted (isolated).
// There is no online route through which a key replays entries as other principals.
// Every answer is compared with the recorded one: the status, then the JSON body (the first differing
// field is named).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { refusalOf } from '../client/http.js';
import { privateHome, type GlobalOptions } from '../context.js';
import { DaemonStartFailed, daemonEntry, spawnDaemon } from '../daemon-process.js';
import { CliExit, EXIT, chalk, info, printJson, usage } from '../output.js';
import {
  JOURNAL_SECRET,
  parseJournalText,
  type JournalEntry,
  type JournalHeader,
  type ReplayLine,
  type ReplayResult,
} from '../../daemon/contract/journal.js';
import { firstDifference, showValue, type JsonDifference } from '../json-diff.js';
import { banner } from './sandbox.js';
import { step } from './snapshot.js';

export interface ReplayOptions {
  port?: string;
}

export type Numbered = Array<{ line: number; entry: JournalEntry }>;

export interface Mismatch {
  line: number;
  seq: number;
  route: string;
  recorded_status: number;
  replayed_status: number;
  replayed_error: string | null;
  /** The first field of the body that differs (`body.data[0].price_micros`), with both values; null when only the
   * status does. */
  field: JsonDifference | null;
}

/** Refuses an input file with a message naming it and what is wrong (exit 2, nothing changed). */
function invalid(where: string, message: string): never {
  info(`${chalk.red('error')} ${where}: ${message}`);
  info('  nothing was changed.');
  throw new CliExit(EXIT.usage);
}

/** Parses and checks a journal file; every problem names its line. */
function loadJournal(file: string): { text: string; header: JournalHeader; entries: Numbered } {
  const text = readFileSync(file, 'utf8');
  const parsed = parseJournalText(text);
  if (!parsed.ok) invalid(parsed.line === null ? file : `${file}:${parsed.line}`, parsed.message);
  return { text, header: parsed.header, entries: parsed.entries };
}

/** The entry's replayed answer against the recorded one: status, then (when recorded) the JSON body. */
function compareAnswer(line: number, entry: JournalEntry, r: ReplayResult): Mismatch | null {
  let field: JsonDifference | null = null;
  if (typeof entry.response === 'string') {
    let recorded: unknown;
    try {
      recorded = JSON.parse(entry.response);
    } catch {
      recorded = entry.response;
    }
    field = firstDifference(recorded, r.body, 'body', JOURNAL_SECRET);
  }
  if (r.status === entry.status && !field) return null;
  return {
    line,
    seq: entry.seq,
    route: entry.route,
    recorded_status: entry.status,
    replayed_status: r.status,
    replayed_error: refusalOf(r.body)?.error?.code ?? null,
    field,
  };
}

export type RebuildOutcome =
  | { ok: true; mismatches: Mismatch[] }
  | { ok: false; refused: { line: number | null; message: string } }
  | { ok: false; stopped: { seq: number; code: string; message: string } };

/**
 * Rebuilds a sandbox from the journal in `home` (which holds none): the daemon in replay mode, a
 * process of its own that listens on nothing and exits when the last entry is replayed. Compares
 * every answer as it comes. Ctrl-C kills it (the caller removes what it created).
 */
export async function rebuild(home: string, text: string, entries: Numbered, json: boolean): Promise<RebuildOutcome> {
  const child = spawn(process.execPath, [daemonEntry(), '--home', home, '--replay'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const onSignal = () => child.kill('SIGKILL');
  process.once('SIGINT', onSignal);
  child.stdin.on('error', () => {}); // the daemon refuses a home before reading the journal
  child.stdin.end(text);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  const mismatches: Mismatch[] = [];
  let outcome: RebuildOutcome | null = null;
  let lastReport = Date.now();
  for await (const raw of createInterface({ input: child.stdout })) {
    const l = JSON.parse(raw) as ReplayLine;
    if ('refused' in l) outcome = { ok: false, refused: l.refused };
    else if ('stopped' in l) outcome = { ok: false, stopped: l.stopped };
    else if ('done' in l) outcome = { ok: true, mismatches };
    else {
      const { line, entry } = entries[l.result.seq - 1];
      const differs = compareAnswer(line, entry, l.result);
      if (differs) mismatches.push(differs);
      if (Date.now() - lastReport > 1000 || l.result.seq % 1000 === 0) {
        lastReport = Date.now();
        step(
          json,
          `replay: ${l.result.seq}/${entries.length} entries (${Math.round((l.result.seq / entries.length) * 100)}%)`,
        );
      }
    }
  }
  const code = await exited;
  process.off('SIGINT', onSignal);
  if (child.signalCode === 'SIGKILL') throw new CliExit(EXIT.interrupted);
  if (!outcome) {
    info(
      `${chalk.red('error')} the replay ended without an answer (exit code ${code}).\n` +
        `${stderr.split('\n').slice(-15).join('\n')}`,
    );
    throw new CliExit(EXIT.apiError);
  }
  return outcome;
}

export function printMismatches(file: string, total: number, bodies: number, mismatches: Mismatch[]): void {
  if (mismatches.length === 0) {
    info(
      `${chalk.green('ok')} replayed ${total} entries from ${basename(file)}: every one answered as recorded` +
        `${bodies < total ? ` (${bodies} with a recorded body to compare; the others by status)` : ''}.`,
    );
    return;
  }
  info(`${chalk.red('differs')} ${mismatches.length} of ${total} entries answered differently:`);
  for (const m of mismatches.slice(0, 20)) {
    const status =
      m.recorded_status === m.replayed_status
        ? `status ${m.recorded_status}`
        : `recorded ${m.recorded_status}, replayed ${m.replayed_status}` +
          `${m.replayed_error ? ` ${m.replayed_error}` : ''}`;
    const field = m.field
      ? `; ${m.field.path}: recorded ${showValue(m.field.recorded)}, replayed ${showValue(m.field.replayed)}`
      : '';
    info(`  ${file}:${m.line} seq ${m.seq} ${m.route}: ${status}${field}`);
  }
}

/** A replay that could not rebuild: refused (exit 2, nothing kept) or stopped at an entry (exit 1). */
export function failed(file: string, entries: Numbered, o: Exclude<RebuildOutcome, { ok: true }>): never {
  if ('refused' in o) invalid(o.refused.line === null ? file : `${file}:${o.refused.line}`, o.refused.message);
  const e = entries[o.stopped.seq - 1]?.entry;
  info(
    `${chalk.red('error')} ${file}:${e ? entries[o.stopped.seq - 1].line : '?'} (seq ${o.stopped.seq}` +
      `${e ? `, ${e.method} ${e.path}` : ''}): the replay stopped: ${o.stopped.code}: ${o.stopped.message}`,
  );
  throw new CliExit(EXIT.apiError);
}

/** A new home for the rebuilt sandbox: --home DIR (which must hold no sandbox), else a temporary one. */
export function newHome(g: GlobalOptions): { home: string; discard: () => void } {
  const home = g.home ? resolve(g.home) : mkdtempSync(join(tmpdir(), 'svc-replay-'));
  if (g.home && existsSync(join(home, 'svc.db'))) usage(`${home} already holds a sandbox; replay into a new directory`);
  const created = !g.home || !existsSync(home);
  privateHome(home);
  return { home, discard: () => (created ? rmSync(home, { recursive: true, force: true }) : undefined) };
}

export async function replayCmd(opts: ReplayOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const file = resolve(args[0]);
  if (!existsSync(file) || !statSync(file).isFile()) usage(`${args[0]}: no such file`);
  const { text, header, entries } = loadJournal(file);
  if (!header.complete)
    info(
      chalk.yellow(
        'warning: this journal starts after its sandbox was created (a database older than the journal); the ' +
          'replay may differ.',
      ),
    );
  const { home, discard } = newHome(g);
  const origin = header.origin;
  step(
    json,
    `rebuilding the sandbox offline (seed ${origin.seed}, start ${origin.start}, clock ${origin.clock}) in ${home} ...`,
  );
  const started = Date.now();
  let outcome: RebuildOutcome;
  try {
    outcome = await rebuild(home, text, entries, json);
  } catch (err) {
    discard();
    throw err;
  }
  if (!outcome.ok) {
    discard();
    failed(file, entries, outcome);
  }
  const mismatches = outcome.mismatches;
  const bodies = entries.filter(({ entry }) => typeof entry.response === 'string').length;
  const summary = {
    file,
    entries: entries.length,
    matched: entries.length - mismatches.length,
    bodies_compared: bodies,
    mismatched: mismatches,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  if (g.home) await startRebuilt(home, opts, header, json, summary, discard);
  else {
    discard();
    if (json) printJson(summary);
  }
  if (!json) printMismatches(file, entries.length, summary.bodies_compared, mismatches);
  if (mismatches.length) throw new CliExit(EXIT.apiError);
}

/** --home: the rebuilt sandbox starts like any other (detached), and its banner is printed. */
async function startRebuilt(
  home: string,
  opts: ReplayOptions,
  header: JournalHeader,
  json: boolean,
  summary: Record<string, unknown>,
  discard: () => void,
): Promise<void> {
  const o = header.origin;
  try {
    const spawned = await spawnDaemon({
      home,
      port: opts.port ?? 0,
      seed: o.seed,
      start: o.start,
      clock: o.clock,
      speed: o.speed,
      detached: true,
    });
    spawned.child.unref();
    await banner(
      home,
      spawned.locator,
      json,
      `replayed ${basename(String(summary.file))}`,
      { replay: summary },
      spawned.banner,
    );
  } catch (err) {
    if (!(err instanceof DaemonStartFailed)) throw err;
    discard();
    info(`${chalk.red('error')} ${err.message}`);
    throw new CliExit(EXIT.apiError);
  }
}
