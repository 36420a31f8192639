// svc sandbox export|import|journal|replay (docs/snapshots.md).
//  - export: GET /admin/sandbox/export, checked, written atomically with mode 0600 (it holds secrets).
//  - import: the whole file is verified first, touching nothing (the container here; the database by
//    the daemon build's verifier: schema, audit chain, ledger invariants, sealed secrets, credentials;
//    docs/snapshots.md "Import"); only then is the running daemon of the home stopped, its files
//    set aside, the snapshot's files moved in and a daemon started on them. If that daemon does not
//    come up, the previous files (and daemon) are put back. Rebuilding the daemon from files is the
//    robust path: every dependency (prepared statements, caches, the clock, the scheduler) is built
//    afresh from the imported database, exactly as on any start.
//  - journal: pages GET /admin/sandbox/journal into an NDJSON file.
//  - replay: checks the whole journal (JSON, shape, order, routes of the target's /openapi.json), then
//    re-runs each entry through POST /admin/sandbox/replay-entry in a fresh sandbox (an isolated one,
//    a new home with --home, or an empty running one with --against), inside a replay session it opens
//    first and closes at the end, and compares every status and recorded body (the first differing
//    field is named).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { api, refusalOf } from '../client/http.js';
import { privateHome, readJson, resolveHome, resolveProfile, type GlobalOptions, type Locator, type Profile } from '../context.js';
import { DaemonStartFailed, daemonEntry, healthy, spawnDaemon, stopChild, type SpawnedDaemon } from '../daemon-process.js';
import { CliExit, EXIT, chalk, info, ok, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import { MAX_SNAPSHOT_BYTES, MAX_SNAPSHOT_FILE_BYTES, SnapshotError, unpackSnapshot, type SnapshotManifest } from '../../daemon/contract/snapshot.js';
import { JOURNAL_SECRET, type JournalEntry, type JournalHeader, type JournalOrigin, type JournalPage, type ReplayResult, type ReplaySession } from '../../daemon/contract/journal.js';
import { firstDifference, showValue, type JsonDifference } from '../json-diff.js';
import type { SandboxState } from '../../daemon/contract/schemas/sandbox.js';
import { banner, running, stopDaemon } from './sandbox.js';

const DB_FILES = ['svc.db', 'svc.db-wal', 'svc.db-shm'];
/** The key material of a home: the KEK and the audit checkpoint kept with it (docs/reliability.md). */
const KEY_FILES = ['kek.key', 'audit.checkpoint'];

export interface ImportOptions {
  port?: string;
  ai?: string;
}

export interface JournalOptions {
  after?: string;
  /** Replace personal data with consistent fakes (cli/journal-redact.ts). */
  redact?: boolean;
}

export interface ReplayOptions {
  against?: string;
  port?: string;
}

function mb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** A step of a long operation, on stderr (stdout stays for results and --json). */
export function step(json: boolean, line: string): void {
  if (!json || process.stderr.isTTY) info(chalk.dim(line));
}

/** Refuses an input file with a message naming it and what is wrong (exit 2, nothing changed). */
function invalid(file: string, message: string): never {
  info(`${chalk.red('error')} ${file}: ${message}`);
  info('  nothing was changed.');
  throw new CliExit(EXIT.usage);
}

export function writeSecretFile(file: string, data: Buffer | string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

// ---- export ----------------------------------------------------------------------------------------

export async function exportCmd(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const profile = resolveProfile(g);
  step(json, `exporting the sandbox at ${profile.base_url} ...`);
  const res = await api(profile, 'GET', '/admin/sandbox/export', { timeoutMs: 600_000 });
  if (res.status !== 200) ok(res, json);
  let manifest: SnapshotManifest;
  try {
    ({ manifest } = unpackSnapshot(res.raw));
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    info(`${chalk.red('error')} the daemon's snapshot does not check out: ${err.message}`);
    throw new CliExit(EXIT.apiError);
  }
  const file = resolve(args[0] ?? `svc-${manifest.seed}-${manifest.clock.timestamp.slice(0, 10)}.svcsnap`);
  writeSecretFile(file, res.raw);
  if (json) {
    printJson({ file, bytes: res.raw.length, manifest });
    return;
  }
  info(`wrote ${file} (${mb(res.raw.length)}): seed ${manifest.seed}, clock ${manifest.clock.timestamp} (${manifest.clock.mode}), ${manifest.journal_entries} journal entries, sha256 ${manifest.payload.sha256.slice(0, 16)}...`);
  info(chalk.yellow('  The snapshot holds the key-encryption key and the credentials (api key, signing secret, operator keys): keep it as secret as they are.'));
  info(chalk.dim(`  Restore it with: svc sandbox import ${basename(file)} [--home DIR]`));
}

// ---- import ----------------------------------------------------------------------------------------

/**
 * The daemon build verifies the snapshot's bytes (schema, audit chain, ledger invariants, sealed
 * secrets: the checks live with the store they read, daemon/sandbox/verify-snapshot.ts). The bytes
 * go over a pipe, so what is verified is exactly what this process then installs.
 */
async function verifyWithDaemon(buf: Buffer): Promise<{ ok: true } | { ok: false; problem: string }> {
  const child = spawn(process.execPath, [daemonEntry(), '--verify-snapshot'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  // The verifier may refuse before reading everything (a file over the size cap): not an error here.
  child.stdin.on('error', () => {});
  child.stdin.end(buf);
  const code = await new Promise<number>((done) => child.on('close', (c) => done(c ?? 1)));
  const line = Buffer.concat(out).toString('utf8').trim().split('\n').at(-1) ?? '';
  try {
    const verdict = JSON.parse(line) as { ok: boolean; problem?: string };
    if (verdict.ok && code === 0) return { ok: true };
    if (!verdict.ok && typeof verdict.problem === 'string') return { ok: false, problem: verdict.problem };
  } catch {
    // fall through: the verifier crashed
  }
  const tail = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' ');
  return { ok: false, problem: `the snapshot could not be verified (exit code ${code}${tail ? `: ${tail}` : ''})` };
}

/** A running clock resumes where it was exported: anchor the staged copy to this machine's wall clock. */
async function reanchorStaged(dir: string): Promise<void> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(dir, 'svc.db'), { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    db.prepare('UPDATE sandbox_state SET wall_anchor_ms = ? WHERE id = 1').run(Date.now());
  } finally {
    db.close();
  }
}

function moveIfExists(from: string, to: string): void {
  if (existsSync(from)) renameSync(from, to);
}

export async function importCmd(opts: ImportOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const file = resolve(args[0]);
  if (!existsSync(file) || !statSync(file).isFile()) usage(`${args[0]}: no such file`);
  const home = resolveHome(g);
  if (statSync(file).size > MAX_SNAPSHOT_FILE_BYTES) invalid(file, `the file is larger than a snapshot may be (${mb(MAX_SNAPSHOT_BYTES)} decompressed)`);
  const buf = readFileSync(file);
  step(json, `checking ${basename(file)} (${mb(buf.length)}) ...`);
  let manifest: SnapshotManifest;
  let files: Map<string, Buffer>;
  try {
    ({ manifest, files } = unpackSnapshot(buf));
  } catch (err) {
    if (err instanceof SnapshotError) invalid(file, err.message);
    throw err;
  }
  for (const name of ['svc.db', 'kek.key']) if (!files.has(name)) invalid(file, `the snapshot has no ${name}`);
  const verdict = await verifyWithDaemon(buf);
  if (!verdict.ok) invalid(file, verdict.problem);

  // Verified: only now write in the home.
  privateHome(home);
  const staging = mkdtempSync(join(home, '.import-'));
  const backup = join(home, `.pre-import-${process.pid}`);
  try {
    for (const [name, data] of files) writeFileSync(join(staging, name), data, { mode: 0o600 });
    await reanchorStaged(staging);

    // Stop the running sandbox and swap the files.
    const previous = await running(home);
    let previousAi: string = 'none';
    if (previous) {
      const state = await api<SandboxState>(resolveProfile(g), 'GET', '/admin/sandbox/state');
      if (state.status === 200 && typeof state.body?.ai === 'string') previousAi = state.body.ai;
      step(json, `stopping the sandbox of ${home} (pid ${previous.pid}) ...`);
      await stopDaemon(home, previous);
    }
    const port = opts.port ?? previous?.port ?? 4710;
    const ai = opts.ai ?? previousAi;
    rmSync(backup, { recursive: true, force: true });
    mkdirSync(backup, { mode: 0o700 });
    for (const name of [...DB_FILES, ...KEY_FILES, 'credentials.json']) moveIfExists(join(home, name), join(backup, name));
    for (const name of files.keys()) renameSync(join(staging, name), join(home, name));
    step(json, `starting the imported sandbox (seed ${manifest.seed}, clock ${manifest.clock.timestamp}) ...`);
    let spawned: SpawnedDaemon;
    try {
      // The imported database's audit chain was verified above: its end is signed and checkpointed anew.
      spawned = await spawnDaemon({ home, port, seed: manifest.seed, clock: manifest.clock.mode, speed: manifest.clock.speed, ai, detached: true, adoptAuditHead: true });
    } catch (err) {
      if (!(err instanceof DaemonStartFailed)) throw err;
      // Put the previous sandbox back as it was.
      for (const name of [...DB_FILES, ...KEY_FILES, 'credentials.json']) rmSync(join(home, name), { force: true });
      for (const name of readdirSync(backup)) renameSync(join(backup, name), join(home, name));
      rmSync(backup, { recursive: true, force: true });
      let restored = '';
      if (previous) {
        try {
          const again = await spawnDaemon({ home, port: previous.port, seed: manifest.seed, clock: 'frozen', ai: previousAi, detached: true });
          again.child.unref();
          restored = ` The previous sandbox is running again (pid ${again.locator.pid}).`;
        } catch {
          restored = ` The previous files are back; start them with ${svc('sandbox start')}`;
        }
      }
      info(`${chalk.red('error')} the imported sandbox did not start: ${err.message}${restored}`);
      throw new CliExit(EXIT.apiError);
    }
    spawned.child.unref();
    rmSync(backup, { recursive: true, force: true });
    if (!files.has('credentials.json')) info(chalk.yellow('warning: the snapshot carries no credentials.json; use the original keys to talk to this sandbox.'));
    await banner(home, spawned.locator, json, `imported ${basename(file)}`, { imported: manifest });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

// ---- journal ---------------------------------------------------------------------------------------

type Redactor = ReturnType<(typeof import('../journal-redact.js'))['createRedactor']>;

/** Every entry of the sandbox's journal, paged in order (each redacted when a redactor is given). */
export async function readJournal(profile: Profile, json: boolean, redactor: Redactor | null, progress: boolean, from = 0): Promise<{ header: JournalHeader; entries: JournalEntry[] }> {
  let after = from;
  let header: JournalHeader | null = null;
  const entries: JournalEntry[] = [];
  for (;;) {
    const page = ok(await api<JournalPage>(profile, 'GET', `/admin/sandbox/journal?after=${after}&limit=1000`), json);
    header ??= page.header;
    for (const e of page.entries) entries.push(redactor ? redactor.entry(e) : e);
    if (progress && header.entries > 1000) step(json, `journal: ${entries.length}/${header.entries} entries`);
    if (page.next_after === null) return { header, entries };
    after = page.next_after;
  }
}

export async function journalCmd(opts: JournalOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const profile = resolveProfile(g);
  const toStdout = args[0] === undefined || args[0] === '-';
  const after = Number(opts.after ?? 0);
  if (!Number.isInteger(after) || after < 0) usage(`--after ${opts.after} must be a whole number`);
  const redactor = opts.redact ? (await import('../journal-redact.js')).createRedactor() : null;
  const { header, entries } = await readJournal(profile, json, redactor, !toStdout, after);
  const count = entries.length;
  const lines = [header, ...entries].map((x) => JSON.stringify(x));
  const text = lines.join('\n') + '\n';
  if (toStdout) {
    process.stdout.write(text);
    return;
  }
  const file = resolve(args[0]);
  writeSecretFile(file, text);
  const redacted = redactor?.counts();
  if (json) printJson({ file, entries: count, header, ...(redacted ? { redacted } : {}) });
  else if (redacted) {
    const what = Object.entries(redacted).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${(n === 1 ? k.replace(/(ss)es$|s$/, '$1') : k).replace('_', ' ')}`).join(', ');
    info(`wrote ${file}: ${count} entries (seed ${header.origin.seed}, start ${header.origin.start}), redacted: ${what || 'nothing personal found'}. Dates of birth, ids, amounts and times are kept; it replays to the same answers.`);
  } else info(`wrote ${file}: ${count} entries (seed ${header.origin.seed}, start ${header.origin.start}). It holds request bodies (national ids, ID images): keep it private, or write it with --redact.`);
}

// ---- replay ----------------------------------------------------------------------------------------

interface Loaded {
  header: JournalHeader;
  entries: Array<{ line: number; entry: JournalEntry }>;
}

/** Parses and checks a journal file; every problem names its line. */
async function loadJournal(file: string): Promise<Loaded> {
  const { JournalEntry, JournalHeader } = await import('../../daemon/contract/journal.js');
  const text = readFileSync(file, 'utf8');
  const rows = text.split('\n');
  if (rows.at(-1) === '') rows.pop();
  if (rows.length === 0) invalid(file, 'the file is empty');
  const parse = (i: number): unknown => {
    try {
      return JSON.parse(rows[i]);
    } catch (err) {
      invalid(`${file}:${i + 1}`, `not valid JSON (${(err as Error).message})`);
    }
  };
  const issue = (i: number, err: { issues: Array<{ path: PropertyKey[]; message: string }> }): never => {
    const first = err.issues[0];
    invalid(`${file}:${i + 1}`, `${first.path.length ? first.path.map(String).join('.') + ': ' : ''}${first.message}`);
  };
  const h = JournalHeader.safeParse(parse(0));
  if (!h.success) {
    const raw = parse(0) as Record<string, unknown> | null;
    if (!raw || typeof raw !== 'object' || !('svc_journal' in raw)) invalid(`${file}:1`, 'not an svc journal (the first line must be its header, {"svc_journal":1,...}); save one with svc sandbox journal FILE');
    issue(0, h.error);
  }
  const entries: Loaded['entries'] = [];
  let expected = 1;
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].trim() === '') invalid(`${file}:${i + 1}`, 'an empty line');
    const r = JournalEntry.safeParse(parse(i));
    if (!r.success) issue(i, r.error);
    const e = r.data!;
    if (e.seq !== expected) {
      invalid(`${file}:${i + 1}`, expected === 1
        ? `the journal starts at seq ${e.seq}, not 1: a replay needs the whole journal (svc sandbox journal FILE, without --after)`
        : `seq ${e.seq} follows ${expected - 1}: an entry is missing or out of order`);
    }
    expected++;
    entries.push({ line: i + 1, entry: e });
  }
  if (entries.length < h.data!.entries) invalid(file, `the file holds ${entries.length} of the journal's ${h.data!.entries} entries: it is truncated`);
  return { header: h.data!, entries };
}

/** Route templates of the target's /openapi.json, to refuse an unknown route before replaying anything. */
async function routeMatcher(profile: Profile): Promise<(method: string, path: string) => boolean> {
  const doc = ok(await api<{ paths: Record<string, Record<string, unknown>> }>(profile, 'GET', '/openapi.json'), false);
  const routes = Object.entries(doc.paths).flatMap(([tpl, ops]) => {
    const re = new RegExp('^' + tpl.split('/').map((seg) => (/^\{.+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/') + '/?$');
    return Object.keys(ops).map((m) => ({ method: m.toUpperCase(), re }));
  });
  return (method, path) => routes.some((r) => r.method === method && r.re.test(path));
}

export interface Mismatch {
  line: number;
  seq: number;
  route: string;
  recorded_status: number;
  replayed_status: number;
  replayed_error: string | null;
  /** The first field of the body that differs (`body.data[0].price_micros`), with both values; null when only the status does. */
  field: JsonDifference | null;
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
  return { line, seq: entry.seq, route: entry.route, recorded_status: entry.status, replayed_status: r.status, replayed_error: refusalOf(r.body)?.error?.code ?? null, field };
}

/** Where a journal is replayed: its profile, and what becomes of it once the replay is over. */
interface ReplayTarget {
  profile: Profile;
  /** With --home: the rebuilt sandbox, which stays running after a replay that ran. */
  keep: { home: string; locator: Locator; child: SpawnedDaemon['child'] } | null;
  /** An isolated sandbox always goes; a --home one stays (detached) unless the replay could not run. */
  finish(ran: boolean): Promise<void>;
}

/** --against: a running sandbox, which must answer, run the journal's seed and start, and be empty. */
async function runningSandbox(baseUrl: string, g: GlobalOptions, file: string, origin: JournalOrigin, json: boolean): Promise<ReplayTarget> {
  const profile = { ...resolveProfile(g), base_url: baseUrl };
  if (!(await healthy(profile.base_url))) {
    info(`${chalk.red('error')} no sandbox answers at ${profile.base_url}.`);
    throw new CliExit(EXIT.unreachable);
  }
  const state = ok(await api<SandboxState>(profile, 'GET', '/admin/sandbox/state'), json);
  if (state.seed !== origin.seed) invalid(`${file}:1`, `the journal was recorded with seed ${origin.seed}; the sandbox at ${profile.base_url} runs seed ${state.seed}`);
  if (state.start !== origin.start) invalid(`${file}:1`, `the journal starts at ${origin.start}; the sandbox at ${profile.base_url} started at ${state.start}`);
  const existing = ok(await api<JournalPage>(profile, 'GET', '/admin/sandbox/journal?limit=1'), json);
  if (existing.header.entries > 0) invalid(file, `the sandbox at ${profile.base_url} is not empty (its journal holds ${existing.header.entries} entries); replay into a fresh one: no --against, or --home DIR`);
  return { profile, keep: null, finish: async () => {} };
}

/** A fresh sandbox with the journal's seed, start and clock: isolated (a temporary home), or in a new --home. */
export async function freshSandbox(opts: ReplayOptions, g: GlobalOptions, origin: JournalOrigin, json: boolean): Promise<ReplayTarget> {
  const home = g.home ? resolve(g.home) : mkdtempSync(join(tmpdir(), 'svc-replay-'));
  if (g.home && existsSync(join(home, 'svc.db'))) usage(`${home} already holds a sandbox; replay into a new directory`);
  const created = g.home && !existsSync(home);
  privateHome(home);
  step(json, `starting a fresh sandbox (seed ${origin.seed}, start ${origin.start}, clock ${origin.clock}) in ${home} ...`);
  let spawned: SpawnedDaemon;
  try {
    spawned = await spawnDaemon({ home, port: opts.port ?? 0, seed: origin.seed, start: origin.start, clock: origin.clock, speed: origin.speed, detached: Boolean(g.home) });
  } catch (err) {
    if (!g.home || created) rmSync(home, { recursive: true, force: true });
    if (!(err instanceof DaemonStartFailed)) throw err;
    info(`${chalk.red('error')} ${err.message}`);
    throw new CliExit(EXIT.apiError);
  }
  const creds = readJson<Omit<Profile, 'base_url'>>(join(home, 'credentials.json')) ?? {};
  const child = spawned.child;
  const onSignal = () => {
    child.kill('SIGKILL');
    if (!g.home || created) rmSync(home, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  const keep = g.home ? { home, locator: spawned.locator, child } : null;
  return {
    profile: { ...creds, base_url: spawned.locator.base_url, console_url: spawned.locator.console_url },
    keep,
    async finish(ran) {
      process.off('SIGINT', onSignal);
      if (keep && ran) {
        child.unref();
        return;
      }
      await stopChild(child);
      if (!g.home || created) rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the target's replay session (replay-entry is refused outside one): the daemon checks again
 * that the sandbox is fresh and has the journal's origin. A refusal is exit 2, nothing sent.
 */
export async function openReplaySession(profile: Profile, file: string, origin: JournalOrigin, json: boolean): Promise<void> {
  const res = await api<ReplaySession>(profile, 'POST', '/admin/sandbox/replay-session', { body: { origin } });
  const err = refusalOf(res.body)?.error;
  if (err && (err.code === 'SANDBOX_NOT_FRESH' || err.code === 'REPLAY_ORIGIN_MISMATCH')) invalid(file, `${profile.base_url}: ${err.message}`);
  ok(res, json);
}

/** Closes the session once the replay is over, so the rebuilt sandbox takes no further replayed entries. */
export async function closeReplaySession(profile: Profile): Promise<void> {
  await api(profile, 'DELETE', '/admin/sandbox/replay-session').catch(() => undefined);
}

/** Re-runs every entry in order; the entries answered with another status than the recorded one. */
export async function replayEntries(profile: Profile, file: string, entries: Loaded['entries'], json: boolean): Promise<Mismatch[]> {
  const mismatches: Mismatch[] = [];
  let lastReport = Date.now();
  for (const [i, { line, entry }] of entries.entries()) {
    // The recorded answer stays here (the daemon ignores it): the request keeps well inside its size limit.
    const res = await api<ReplayResult>(profile, 'POST', '/admin/sandbox/replay-entry', { body: { ...entry, response: undefined }, timeoutMs: 600_000 });
    if (res.status !== 200) {
      const err = refusalOf(res.body)?.error;
      info(`${chalk.red('error')} ${file}:${line} (seq ${entry.seq}, ${entry.method} ${entry.path}): the replay stopped: ${err ? `${err.code}: ${err.message}` : `HTTP ${res.status}`}`);
      throw new CliExit(EXIT.apiError);
    }
    const differs = compareAnswer(line, entry, res.body);
    if (differs) mismatches.push(differs);
    if (Date.now() - lastReport > 1000 || (i + 1) % 1000 === 0) {
      lastReport = Date.now();
      step(json, `replay: ${i + 1}/${entries.length} entries (${Math.round(((i + 1) / entries.length) * 100)}%)`);
    }
  }
  return mismatches;
}

export function printMismatches(file: string, total: number, bodies: number, mismatches: Mismatch[]): void {
  if (mismatches.length === 0) {
    info(`${chalk.green('ok')} replayed ${total} entries from ${basename(file)}: every one answered as recorded${bodies < total ? ` (${bodies} with a recorded body to compare; the others by status)` : ''}.`);
    return;
  }
  info(`${chalk.red('differs')} ${mismatches.length} of ${total} entries answered differently:`);
  for (const m of mismatches.slice(0, 20)) {
    const status = m.recorded_status === m.replayed_status
      ? `status ${m.recorded_status}`
      : `recorded ${m.recorded_status}, replayed ${m.replayed_status}${m.replayed_error ? ` ${m.replayed_error}` : ''}`;
    const field = m.field ? `; ${m.field.path}: recorded ${showValue(m.field.recorded)}, replayed ${showValue(m.field.replayed)}` : '';
    info(`  ${file}:${m.line} seq ${m.seq} ${m.route}: ${status}${field}`);
  }
}

export async function replayCmd(opts: ReplayOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const file = resolve(args[0]);
  if (!existsSync(file) || !statSync(file).isFile()) usage(`${args[0]}: no such file`);
  const { header, entries } = await loadJournal(file);
  if (!header.complete) info(chalk.yellow('warning: this journal starts after its sandbox was created (a database older than the journal); the replay may differ.'));

  // The target: an isolated sandbox (default), a new home (--home) or an empty running one (--against).
  const target = opts.against
    ? await runningSandbox(String(opts.against).replace(/\/$/, ''), g, file, header.origin, json)
    : await freshSandbox(opts, g, header.origin, json);
  let succeeded = false;
  try {
    const known = await routeMatcher(target.profile);
    for (const { line, entry } of entries) if (!known(entry.method, entry.path)) invalid(`${file}:${line}`, `unknown route ${entry.method} ${entry.path} (not in the API of this svc)`);
    await openReplaySession(target.profile, file, header.origin, json);
    const started = Date.now();
    let mismatches: Mismatch[];
    try {
      mismatches = await replayEntries(target.profile, file, entries, json);
    } finally {
      await closeReplaySession(target.profile);
    }
    succeeded = true;
    const bodies = entries.filter(({ entry }) => typeof entry.response === 'string').length;
    const summary = { file, entries: entries.length, matched: entries.length - mismatches.length, bodies_compared: bodies, mismatched: mismatches, seconds: Math.round((Date.now() - started) / 100) / 10 };
    if (target.keep) {
      await banner(target.keep.home, target.keep.locator, json, `replayed ${basename(file)}`, { replay: summary });
    } else if (json) printJson(summary);
    if (!json) printMismatches(file, entries.length, summary.bodies_compared, mismatches);
    if (mismatches.length) throw new CliExit(EXIT.apiError);
  } finally {
    await target.finish(succeeded);
  }
}
