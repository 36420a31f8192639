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
//  - replay: cli/commands/replay.ts (an offline rebuild in a process of its own).
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { api } from '../client/http.js';
import { privateHome, resolveHome, resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { DaemonStartFailed, daemonEntry, spawnDaemon, type SpawnedDaemon } from '../daemon-process.js';
import { CliExit, EXIT, chalk, info, ok, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import {
  MAX_SNAPSHOT_BYTES,
  MAX_SNAPSHOT_FILE_BYTES,
  SnapshotError,
  unpackSnapshot,
  type SnapshotManifest,
} from '../../daemon/contract/snapshot.js';
import type { JournalEntry, JournalHeader, JournalPage } from '../../daemon/contract/journal.js';
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

function mb(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
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
  info(
    `wrote ${file} (${mb(res.raw.length)}): seed ${manifest.seed}, clock ${manifest.clock.timestamp} (` +
      `${manifest.clock.mode}), ${manifest.journal_entries} journal entries, sha256 ` +
      `${manifest.payload.sha256.slice(0, 16)}...`,
  );
  info(
    chalk.yellow(
      '  The snapshot holds the key-encryption key and the credentials (api key, signing secret, operator ' +
        'keys): keep it as secret as they are.',
    ),
  );
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

/** The snapshot file unpacked, once the daemon's verifier accepted it (else exits: invalid snapshot). */
async function readVerified(
  file: string,
  json: boolean,
): Promise<{ manifest: SnapshotManifest; files: Map<string, Buffer> }> {
  if (statSync(file).size > MAX_SNAPSHOT_FILE_BYTES)
    invalid(file, `the file is larger than a snapshot may be (${mb(MAX_SNAPSHOT_BYTES)} decompressed)`);
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
  return { manifest, files };
}

/**
 * The imported sandbox did not start: puts the previous files back as they were and, when a sandbox was
 * running before, starts it again. Returns the sentence that says so.
 */
async function restorePrevious(
  home: string,
  backup: string,
  previous: { port: number; ai: string } | null,
  seed: number,
): Promise<string> {
  for (const name of [...DB_FILES, ...KEY_FILES, 'credentials.json']) rmSync(join(home, name), { force: true });
  for (const name of readdirSync(backup)) renameSync(join(backup, name), join(home, name));
  rmSync(backup, { recursive: true, force: true });
  if (!previous) return '';
  try {
    const again = await spawnDaemon({
      home,
      port: previous.port,
      seed,
      clock: 'frozen',
      ai: previous.ai,
      detached: true,
    });
    again.child.unref();
    return ` The previous sandbox is running again (pid ${again.locator.pid}).`;
  } catch {
    return ` The previous files are back; start them with ${svc('sandbox start')}`;
  }
}

export async function importCmd(opts: ImportOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const file = resolve(args[0]);
  if (!existsSync(file) || !statSync(file).isFile()) usage(`${args[0]}: no such file`);
  const home = resolveHome(g);
  const { manifest, files } = await readVerified(file, json);

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
    for (const name of [...DB_FILES, ...KEY_FILES, 'credentials.json'])
      moveIfExists(join(home, name), join(backup, name));
    for (const name of files.keys()) renameSync(join(staging, name), join(home, name));
    step(json, `starting the imported sandbox (seed ${manifest.seed}, clock ${manifest.clock.timestamp}) ...`);
    let spawned: SpawnedDaemon;
    try {
      // The imported database's audit chain was verified above: its end is signed and checkpointed anew.
      spawned = await spawnDaemon({
        home,
        port,
        seed: manifest.seed,
        clock: manifest.clock.mode,
        speed: manifest.clock.speed,
        ai,
        detached: true,
        adoptAuditHead: true,
      });
    } catch (err) {
      if (!(err instanceof DaemonStartFailed)) throw err;
      const restored = await restorePrevious(
        home,
        backup,
        previous ? { port: previous.port, ai: previousAi } : null,
        manifest.seed,
      );
      info(`${chalk.red('error')} the imported sandbox did not start: ${err.message}${restored}`);
      throw new CliExit(EXIT.apiError);
    }
    spawned.child.unref();
    rmSync(backup, { recursive: true, force: true });
    if (!files.has('credentials.json'))
      info(
        chalk.yellow(
          'warning: the snapshot carries no credentials.json; use the original keys to talk to this sandbox.',
        ),
      );
    await banner(home, spawned.locator, json, `imported ${basename(file)}`, { imported: manifest }, spawned.banner);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

// ---- journal ---------------------------------------------------------------------------------------

type Redactor = ReturnType<typeof import('../journal-redact.js')['createRedactor']>;

/** Every entry of the sandbox's journal, paged in order (each redacted when a redactor is given). */
export async function readJournal(
  profile: Profile,
  json: boolean,
  redactor: Redactor | null,
  progress: boolean,
  from = 0,
): Promise<{ header: JournalHeader; entries: JournalEntry[] }> {
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
  const text = `${lines.join('\n')}\n`;
  if (toStdout) {
    process.stdout.write(text);
    return;
  }
  const file = resolve(args[0]);
  writeSecretFile(file, text);
  const redacted = redactor?.counts();
  if (json) printJson({ file, entries: count, header, ...(redacted ? { redacted } : {}) });
  else if (redacted) {
    const what = Object.entries(redacted)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${(n === 1 ? k.replace(/(ss)es$|s$/, '$1') : k).replace('_', ' ')}`)
      .join(', ');
    info(
      `wrote ${file}: ${count} entries (seed ${header.origin.seed}, start ${header.origin.start}), redacted: ` +
        `${what || 'nothing personal found'}. Dates of birth, ids, amounts and times are kept; it replays to the ` +
        `same answers.`,
    );
  } else
    info(
      `wrote ${file}: ${count} entries (seed ${header.origin.seed}, start ${header.origin.start}). It holds ` +
        `request bodies (national ids, ID images): keep it private, or write it with --redact.`,
    );
}
