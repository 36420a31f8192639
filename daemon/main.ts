// The daemon (bundled as dist/daemon/server.js, loaded by daemon/start.ts): open the store under $SVC_HOME, build the
// app, listen on 127.0.0.1, write the locator file, and close gracefully on SIGINT/SIGTERM (in-flight requests finish,
// the database is closed cleanly; WAL + synchronous=NORMAL already make every acknowledged write survive a crash).
import { parseRateLimit, RATE_LIMIT_USAGE, type RateLimitSpec } from './contract/rate-limit.js';
import { parseArgs } from 'node:util';
import { chmodSync, closeSync, existsSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { loadKekRing } from './store/kek-file.js';
import { LATEST_SCHEMA_VERSION } from './store/db.js';
import { homeSchemaProblem } from './store/schema-check.js';
import { seedFromTemplate, writeTemplate } from './store/template.js';
import {
  EXIT_HOME_ALTERED,
  EXIT_PORT_IN_USE,
  FIRST_START_FILES,
  keepSandboxId,
  LOCATOR_FILE,
  privateHome,
  readSandboxId,
  registerHome,
  SANDBOX_ID_FILE,
} from './contract/home-files.js';
import type { ClockMode } from './sim/clock.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseAiProvider, type AiProvider } from './contract/schemas/assistant.js';
import { parseJournalText, type ParsedJournal, type ReplayLine } from './contract/journal.js';

export const VERSION = '0.1.0';
const DEFAULT_START = '2026-11-22T09:00:00+02:00'; // a Sunday morning in Cairo, before the open
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'];

interface DaemonOptions {
  port: number;
  seed: number;
  startMs: number;
  clockMode: ClockMode;
  speed: number;
  ai: AiProvider;
  logLevel: string;
  rateLimit: RateLimitSpec | null;
}

const { values: args } = parseArgs({
  options: {
    home: { type: 'string' },
    port: { type: 'string', default: '4710' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string' },
    start: { type: 'string' },
    clock: { type: 'string' },
    speed: { type: 'string' },
    ai: { type: 'string', default: 'none' },
    'log-level': { type: 'string', default: 'info' },
    // `svc sandbox import` pipes a snapshot's bytes here before touching a home (docs/snapshots.md).
    'verify-snapshot': { type: 'boolean', default: false },
    // `svc sandbox replay` rebuilds a sandbox here from the journal on stdin, offline: a new home, the
    // journal's origin, every entry replayed in-process, one JSON line each on stdout; nothing listens
    // and the process exits (docs/snapshots.md, "Replay").
    replay: { type: 'boolean', default: false },
    // The owner vouches for the audit chain as the database holds it (docs/reliability.md, "The audit
    // chain against a database writer"): `svc sandbox import` passes it for the database it moved in.
    'adopt-audit-head': { type: 'boolean', default: false },
    // The build writes the migrated template database here, and exits (daemon/store/template.ts).
    'write-template': { type: 'string' },
    // Where to tell the CLI "listening": a pipe the CLI opened (`svc sandbox start`), which receives the
    // locator as one JSON line once the daemon listens, and is closed; the CLI then has nothing to poll.
    'ready-fd': { type: 'string' },
    // each API key's rate limit, "200/min" (docs/faults.md); off when absent
    'rate-limit': { type: 'string' },
  },
});

if (args['write-template']) {
  writeTemplate(resolve(args['write-template']));
  process.exit(0);
}

/** Reads the snapshot on stdin, prints the verdict as one JSON line; exit 0 accepted, 2 refused. */
async function verifySnapshotOnStdin(): Promise<never> {
  const { MAX_SNAPSHOT_FILE_BYTES } = await import('./contract/snapshot.js');
  const { verifySnapshot } = await import('./sandbox/verify-snapshot.js');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin) {
    bytes += (chunk as Buffer).length;
    if (bytes > MAX_SNAPSHOT_FILE_BYTES) {
      process.stdout.write(
        `${JSON.stringify({ ok: false, problem: `the file is larger than ${MAX_SNAPSHOT_FILE_BYTES} bytes` })}\n`,
      );
      process.exit(2);
    }
    chunks.push(chunk as Buffer);
  }
  const verdict = verifySnapshot(Buffer.concat(chunks));
  process.stdout.write(`${JSON.stringify(verdict.ok ? { ok: true } : verdict)}\n`, () =>
    process.exit(verdict.ok ? 0 : 2),
  );
  return new Promise<never>(() => {});
}

if (args['verify-snapshot']) await verifySnapshotOnStdin();

/** The flags as options, or the first one that is wrong (a usage refusal: exit 2, nothing started). */
function parseOptions(a: typeof args): { ok: true; value: DaemonOptions } | { ok: false; message: string } {
  const refuse = (message: string) => ({ ok: false as const, message });
  const port = Number(a.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return refuse(`--port ${a.port} is not a port number`);
  const seed = a.seed === undefined ? 42 : Number(a.seed);
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1)
    return refuse(`--seed ${a.seed} must be an integer 0..4294967295`);
  const start = DateTime.fromISO(a.start ?? DEFAULT_START, { setZone: true });
  if (!start.isValid) return refuse(`--start ${a.start} is not an RFC 3339 timestamp`);
  const clockMode = (a.clock ?? 'frozen') as ClockMode;
  if (clockMode !== 'frozen' && clockMode !== 'running') return refuse('--clock must be frozen or running');
  const speed = a.speed === undefined ? 1 : Number(a.speed);
  if (!(speed >= 0.001 && speed <= 10000)) return refuse('--speed must be a number in [0.001, 10000]');
  const ai = parseAiProvider(a.ai!);
  if (!ai) return refuse('--ai must be none, registry or openai:<http(s) base URL>');
  const logLevel = a['log-level']!;
  if (!LOG_LEVELS.includes(logLevel)) return refuse('--log-level must be debug, info, warn or error');
  const limitText = a['rate-limit'] === 'off' ? undefined : a['rate-limit'];
  const rateLimit = limitText === undefined ? null : parseRateLimit(limitText);
  if (limitText !== undefined && !rateLimit) return refuse(`--rate-limit must be ${RATE_LIMIT_USAGE}`);
  const value = { port, seed, startMs: start.toMillis(), clockMode, speed, ai, logLevel, rateLimit };
  return { ok: true, value };
}

const home = resolve(args.home ?? process.env.SVC_HOME ?? join(homedir(), '.svc'));
privateHome(home);

/** Writes one line of the replay's output; resolves once it is handed to the pipe. */
function replayLine(line: ReplayLine): Promise<void> {
  return new Promise((done) => process.stdout.write(`${JSON.stringify(line)}\n`, () => done()));
}

/** --replay: the journal on stdin, checked whole; only into a home without a sandbox (else exit 2, nothing touched). */
async function replayJournalOnStdin(): Promise<Extract<ParsedJournal, { ok: true }>> {
  const refused = async (line: number | null, message: string): Promise<never> => {
    await replayLine({ refused: { line, message } });
    process.exit(2);
  };
  if (existsSync(join(home, 'svc.db')))
    return refused(
      null,
      `${home} already holds a sandbox: a journal is replayed only into a new home, which the replay creates`,
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const parsedJournal = parseJournalText(Buffer.concat(chunks).toString('utf8'));
  if (!parsedJournal.ok) return refused(parsedJournal.line, parsedJournal.message);
  return parsedJournal;
}
const journalToReplay = args.replay ? await replayJournalOnStdin() : null;
if (journalToReplay) {
  // the sandbox is created with the journal's origin, whatever the flags say
  const o = journalToReplay.header.origin;
  Object.assign(args, { seed: String(o.seed), start: o.start, clock: o.clock, speed: String(o.speed) });
}
const parsed = parseOptions(args);
if (!parsed.ok) {
  process.stderr.write(`svc daemon: ${parsed.message}\n`);
  process.exit(2);
}
const { port, seed, startMs, clockMode, speed, logLevel } = parsed.value;

// A home whose schema or guard triggers differ from what the migrations make at its version, or whose
// guarded tables hold rows their CHECKs refuse, is not started: nothing of it runs, nothing is written
// (docs/reliability.md, "A home whose guards were altered does not start").
const altered = homeSchemaProblem(join(home, 'svc.db'), LATEST_SCHEMA_VERSION);
if (altered) {
  process.stderr.write(
    `svc daemon: refusing to start: ${altered}. The database's guards were altered; restore svc.db from a ` +
      `backup or import a snapshot.\n`,
  );
  process.exit(EXIT_HOME_ALTERED);
}

// A first start (no database yet) that fails removes what it created, so that the home is left as it was.
const firstStart = !existsSync(join(home, 'svc.db'));
const hadSandboxId = readSandboxId(home) !== null;
const sandboxId = keepSandboxId(home, `sbx_${randomBytes(8).toString('hex')}`);
// A first start copies the migrated template the build made beside this bundle (when it is exactly this
// svc's schema) instead of running every migration; without one, openDb migrates as before.
const fromTemplate =
  firstStart && seedFromTemplate(fileURLToPath(new URL('./template.db', import.meta.url)), join(home, 'svc.db'));

// kek.key, or kek.next.key when the database says a rotation committed under it; and kek.next.key
// beside it while a KEK rotation is still re-sealing in slices (daemon/store/kek-file.ts)
const { kek, next: kekNext } = loadKekRing(home);

const deps = createDeps({
  dbFile: join(home, 'svc.db'),
  kek,
  kekNext,
  sandbox: { seed, startMs, clockMode, speedMilli: Math.round(speed * 1000) },
  ai: parsed.value.ai,
  version: VERSION,
  home,
  adoptAuditHead: args['adopt-audit-head'],
  rateLimit: parsed.value.rateLimit,
});
// The audit chain does not reach the checkpoint kept beside the key: the daemon serves, signs nothing,
// and GET /admin/audit/verify (svc admin audit --verify) reports it.
const auditProblem = deps.audit.anchorProblem();
if (auditProblem)
  process.stderr.write(
    `svc daemon: AUDIT CHAIN NOT VOUCHED FOR (${auditProblem.kind}): ${auditProblem.reason}; nothing more is ` +
      `signed until it is resolved (docs/reliability.md)\n`,
  );

const credentialsFile = join(home, 'credentials.json');
if (deps.bootstrap) {
  const b = deps.bootstrap;
  writeFileSync(
    credentialsFile,
    `${JSON.stringify(
      {
        tenant_id: b.tenant.tenant_id,
        api_key: b.tenant.api_key,
        signing_secret: b.tenant.signing_secret,
        broker_id: b.broker_id,
        admin_key: b.operators.admin_key,
        dealer_key: b.operators.dealer_key,
        security_key: b.operators.security_key,
        approver_key: b.operators.approver_key,
        compliance_key: b.operators.compliance_key,
        auditor_key: b.operators.auditor_key,
        admin_step_up: b.step_up.admin,
        dealer_step_up: b.step_up.dealer,
        security_step_up: b.step_up.security,
        approver_step_up: b.step_up.approver,
        compliance_step_up: b.step_up.compliance,
        auditor_step_up: b.step_up.auditor,
      },
      null,
      2,
    )}\n`,
    { mode: 0o600 },
  );
  chmodSync(credentialsFile, 0o600);
}

// One line per request, without headers (keys never reach the log). Successful quick reads are the
// bulk of traffic and the least interesting, so they log at debug (`--log-level debug` shows them);
// every write, every error and every slow read logs at info. Run in the request inspector's
// onResponse hook (http/inspect.ts), after it records the request: one hook per request, not two.
const SLOW_MS = 50;
const logReads = logLevel === 'debug';
function accessLog(req: FastifyRequest, reply: FastifyReply): void {
  const ms = reply.elapsedTime;
  const quietRead = req.method === 'GET' && reply.statusCode < 400 && ms < SLOW_MS;
  if (!quietRead || logReads) {
    // the root logger with the request id first: the bytes of req.log's line, without making req.log
    const line = {
      reqId: req.id,
      method: req.method,
      url: req.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(ms * 100) / 100,
    };
    if (quietRead) app.log.debug(line, 'request');
    else app.log.info(line, 'request');
  }
}

/**
 * The test suite's answer checker (daemon/http/answer-check.ts): SVC_CHECK_ANSWERS=1, with the tally
 * written under SVC_ANSWER_CHECK_DIR. Only the tests set them (vitest.config.ts); no command or doc does.
 */
function answerCheckFromEnv(): false | { countDir?: string } {
  if (process.env.SVC_CHECK_ANSWERS !== '1') return false;
  return { countDir: process.env.SVC_ANSWER_CHECK_DIR || undefined };
}

const app = buildApp(deps, {
  sandboxId,
  logger: {
    level: logLevel,
    file: join(home, 'daemon.log'),
    redact: [
      'req.headers.authorization',
      'req.headers["x-admin-key"]',
      'req.headers["x-console-key"]',
      'req.headers["x-svc-signature"]',
    ],
  },
  onAnswered: accessLog,
  checkAnswers: answerCheckFromEnv(),
});
deps.log = app.log;
if (auditProblem) app.log.error({ audit: auditProblem }, 'the audit chain does not reach its checkpoint');

if (journalToReplay) await rebuildAndExit(journalToReplay);

/** --replay: every entry in-process (app.inject), never listening; then the app closes and the process exits. */
async function rebuildAndExit(j: Extract<ParsedJournal, { ok: true }>): Promise<never> {
  const { rebuildFromJournal } = await import('./sandbox/replay-offline.js');
  await app.ready();
  const pending: Array<Promise<void>> = [];
  const code = await rebuildFromJournal(
    deps,
    (o) => app.inject(o),
    j.header,
    j.entries,
    (l) => pending.push(replayLine(l)),
  );
  await Promise.all(pending);
  await app.close();
  deps.db.close();
  // refused before any entry ran: the home is left as it was found, like a first start that fails
  if (code === 2 && firstStart) for (const name of FIRST_START_FILES) rmSync(join(home, name), { force: true });
  if (code === 2 && !hadSandboxId) rmSync(join(home, SANDBOX_ID_FILE), { force: true });
  process.exit(code);
}

const locatorFile = join(home, LOCATOR_FILE);
try {
  await app.listen({ port, host: args.host });
} catch (err) {
  await failedStart(err as NodeJS.ErrnoException);
}
const address = app.server.address();
const boundPort = typeof address === 'object' && address ? address.port : port;
const baseUrl = `http://${args.host}:${boundPort}`;
// The console's passkeys need a secure context and a relying-party name: localhost, not an IP address.
const consoleOrigin =
  args.host === '127.0.0.1' || args.host === 'localhost' ? `http://localhost:${boundPort}` : baseUrl;
const locator = {
  pid: process.pid,
  port: boundPort,
  base_url: baseUrl,
  console_url: `${consoleOrigin}/console`,
  version: VERSION,
  home,
  sandbox_id: sandboxId,
  started_at: new Date().toISOString(),
};
writeFileSync(locatorFile, `${JSON.stringify(locator, null, 2)}\n`, { mode: 0o600 });
chmodSync(locatorFile, 0o600);
registerHome(home, sandboxId, new Date().toISOString());
tellReady(args['ready-fd'], locator);
app.log.info({ baseUrl, seed, ...(firstStart ? { from_template: fromTemplate } : {}) }, 'svc daemon listening');

/** Hands the locator to the CLI's ready pipe (`--ready-fd`), one JSON line, and closes it. */
function tellReady(fd: string | undefined, loc: object): void {
  if (fd === undefined || !/^\d+$/.test(fd)) return;
  try {
    writeSync(Number(fd), `${JSON.stringify(loc)}\n`);
    closeSync(Number(fd));
  } catch {
    // the CLI is gone or gave no pipe: the locator file says the same
  }
}

/**
 * The daemon could not listen: one line on stderr (no stack), no locator, and a first start removes
 * the files it created (docs/cli.md, "Starting"). A taken port exits EXIT_PORT_IN_USE, so that
 * `svc sandbox start` can say who holds it.
 */
async function failedStart(err: NodeJS.ErrnoException): Promise<never> {
  const inUse = err.code === 'EADDRINUSE';
  const why = inUse
    ? `port ${port} on ${args.host} is already in use`
    : `cannot listen on ${args.host}:${port}: ${err.message}`;
  process.stderr.write(`svc daemon: ${why}\n`);
  deps.db.close();
  if (firstStart) for (const name of FIRST_START_FILES) rmSync(join(home, name), { force: true });
  if (!hadSandboxId) rmSync(join(home, SANDBOX_ID_FILE), { force: true });
  // Exit once nothing is pending: the log file may still be opening, and exiting before would throw.
  await new Promise((done) => process.once('beforeExit', done));
  process.exit(inUse ? EXIT_PORT_IN_USE : 1);
}

// In running mode the world moves on its own: catch up on due events once a second.
const ticker = setInterval(() => {
  try {
    deps.scheduler.catchUp();
  } catch (err) {
    app.log.error({ err }, 'scheduler catch-up failed');
  }
}, 1000);
ticker.unref();

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  clearInterval(ticker);
  app.log.info({ signal }, 'svc daemon closing');
  try {
    await app.close();
  } finally {
    deps.db.close();
    rmSync(locatorFile, { force: true });
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
