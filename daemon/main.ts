// The daemon (bundled as dist/daemon/server.cjs, run by daemon/start.ts): open the store under $SVC_HOME, build the
// app, listen on 127.0.0.1, write the locator file, and close gracefully on SIGINT/SIGTERM (in-flight requests finish,
// the database is closed cleanly; WAL + synchronous=NORMAL already make every acknowledged write survive a crash).
// The flags are daemon/process/options.ts; the modes that read stdin daemon/process/stdin-modes.ts.
import { chmodSync, closeSync, existsSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createDeps, type Deps } from './deps.js';
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
import { type DaemonFlags, type DaemonOptions, parseOptions, readFlags, VERSION } from './process/options.js';
import {
  type JournalToReplay,
  replayJournalOnStdin,
  replayLine,
  verifySnapshotOnStdin,
} from './process/stdin-modes.js';
import { writeCredentialsFile } from './process/credentials-file.js';
import { accessLogger, answerCheckFromEnv } from './process/access-log.js';
import { codeCacheHandle } from './process/code-cache.js';
import { runOrDefer } from './process/startup-snapshot.js';
import { readyBanner } from './process/ready-banner.js';
import { closeServer, requestGate, type RequestGate } from './process/request-gate.js';
import { awaitOrders, redirectOutput } from './process/warm-start.js';
import { EXIT_WARM_FAILED, WARM_FD_FLAG } from './contract/warm-start.js';

/** What a start found in its home, and what it must undo if it fails before listening. */
interface HomeStart {
  home: string;
  firstStart: boolean;
  hadSandboxId: boolean;
  sandboxId: string;
  fromTemplate: boolean;
}

/** A start that fails before it listens leaves the home as it found it: removes what a first start created. */
function undoFirstStart(h: HomeStart): void {
  if (h.firstStart) for (const name of FIRST_START_FILES) rmSync(join(h.home, name), { force: true });
  if (!h.hadSandboxId) rmSync(join(h.home, SANDBOX_ID_FILE), { force: true });
}

/** The options, or exit 2 with the first wrong flag; a replay takes the journal's origin whatever the flags say. */
function optionsOrExit(flags: DaemonFlags, journal: JournalToReplay | null): DaemonOptions {
  if (journal) {
    const o = journal.header.origin;
    Object.assign(flags, { seed: String(o.seed), start: o.start, clock: o.clock, speed: String(o.speed) });
  }
  const parsed = parseOptions(flags);
  if (parsed.ok) return parsed.value;
  process.stderr.write(`svc daemon: ${parsed.message}\n`);
  process.exit(2);
}

/**
 * A home whose schema or guard triggers differ from what the migrations make at its version, or whose
 * guarded tables hold rows their CHECKs refuse, is not started: nothing of it runs, nothing is written
 * (docs/reliability.md, "A home whose guards were altered does not start").
 */
function refuseAlteredHome(home: string): void {
  const altered = homeSchemaProblem(join(home, 'svc.db'), LATEST_SCHEMA_VERSION);
  if (!altered) return;
  process.stderr.write(
    `svc daemon: refusing to start: ${altered}. The database's guards were altered; restore svc.db from a ` +
      `backup or import a snapshot.\n`,
  );
  process.exit(EXIT_HOME_ALTERED);
}

/**
 * The home's sandbox id and, on a first start (no database yet), the database: a copy of the migrated
 * template the build made beside this bundle (when it is exactly this svc's schema); without one, openDb
 * migrates as before.
 */
function openHome(home: string): HomeStart {
  const firstStart = !existsSync(join(home, 'svc.db'));
  const hadSandboxId = readSandboxId(home) !== null;
  const sandboxId = keepSandboxId(home, `sbx_${randomBytes(8).toString('hex')}`);
  const template = fileURLToPath(new URL('./template.db', import.meta.url));
  const fromTemplate = firstStart && seedFromTemplate(template, join(home, 'svc.db'));
  return { home, firstStart, hadSandboxId, sandboxId, fromTemplate };
}

function openDeps(flags: DaemonFlags, o: DaemonOptions, h: HomeStart): Deps {
  // kek.key, or kek.next.key when the database says a rotation committed under it; and kek.next.key
  // beside it while a KEK rotation is still re-sealing in slices (daemon/store/kek-file.ts)
  const { kek, next: kekNext } = loadKekRing(h.home);
  const deps = createDeps({
    dbFile: join(h.home, 'svc.db'),
    kek,
    kekNext,
    sandbox: { seed: o.seed, startMs: o.startMs, clockMode: o.clockMode, speedMilli: Math.round(o.speed * 1000) },
    ai: o.ai,
    version: VERSION,
    home: h.home,
    adoptAuditHead: flags['adopt-audit-head'],
    rateLimit: o.rateLimit,
  });
  // The audit chain does not reach the checkpoint kept beside the key: the daemon serves, signs nothing,
  // and GET /admin/audit/verify (svc admin audit --verify) reports it.
  const problem = deps.audit.anchorProblem();
  if (problem)
    process.stderr.write(
      `svc daemon: AUDIT CHAIN NOT VOUCHED FOR (${problem.kind}): ${problem.reason}; nothing more is ` +
        `signed until it is resolved (docs/reliability.md)\n`,
    );
  if (deps.bootstrap) writeCredentialsFile(h.home, deps.bootstrap);
  return deps;
}

function openApp(deps: Deps, o: DaemonOptions, h: HomeStart, gate?: RequestGate): FastifyInstance {
  let log: FastifyInstance['log'] | undefined;
  const app = buildApp(deps, {
    serverFactory: gate ? (handler) => gate.factory(handler) : undefined,
    sandboxId: h.sandboxId,
    logger: {
      level: o.logLevel,
      file: join(h.home, 'daemon.log'),
      redact: [
        'req.headers.authorization',
        'req.headers["x-admin-key"]',
        'req.headers["x-console-key"]',
        'req.headers["x-svc-signature"]',
      ],
    },
    onAnswered: accessLogger(o.logLevel, () => log!),
    checkAnswers: answerCheckFromEnv(),
  });
  log = app.log;
  deps.log = app.log;
  const problem = deps.audit.anchorProblem();
  if (problem) app.log.error({ audit: problem }, 'the audit chain does not reach its checkpoint');
  return app;
}

/** --replay: every entry in-process (app.inject), never listening; then the app closes and the process exits. */
async function rebuildAndExit(app: FastifyInstance, deps: Deps, h: HomeStart, j: JournalToReplay): Promise<never> {
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
  if (code === 2) undoFirstStart(h);
  process.exit(code);
}

/**
 * The daemon could not listen: one line on stderr (no stack), no locator, and a first start removes
 * the files it created (docs/cli.md, "Starting"). A taken port exits EXIT_PORT_IN_USE, so that
 * `svc sandbox start` can say who holds it.
 */
async function failedStart(err: NodeJS.ErrnoException, at: Listen, deps: Deps, h: HomeStart): Promise<never> {
  const inUse = err.code === 'EADDRINUSE';
  const why = inUse
    ? `port ${at.port} on ${at.host} is already in use`
    : `cannot listen on ${at.host}:${at.port}: ${err.message}`;
  process.stderr.write(`svc daemon: ${why}\n`);
  deps.db.close();
  undoFirstStart(h);
  // Exit once nothing is pending: the log file may still be opening, and exiting before would throw.
  await new Promise((done) => process.once('beforeExit', done));
  process.exit(inUse ? EXIT_PORT_IN_USE : 1);
}

interface Listen {
  host: string;
  port: number;
}

/** Listens, writes the locator file (0600) and registers the home; the locator, or exits when it cannot listen. */
async function listen(server: Server, deps: Deps, h: HomeStart, at: Listen): Promise<Record<string, unknown>> {
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(at.port, at.host, () => {
        server.off('error', fail);
        done();
      });
    });
  } catch (err) {
    await failedStart(err as NodeJS.ErrnoException, at, deps, h);
  }
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : at.port;
  const baseUrl = `http://${at.host}:${boundPort}`;
  // The console's passkeys need a secure context and a relying-party name: localhost, not an IP address.
  const consoleOrigin = at.host === '127.0.0.1' || at.host === 'localhost' ? `http://localhost:${boundPort}` : baseUrl;
  const locator = {
    pid: process.pid,
    port: boundPort,
    base_url: baseUrl,
    console_url: `${consoleOrigin}/console`,
    version: VERSION,
    home: h.home,
    sandbox_id: h.sandboxId,
    started_at: new Date().toISOString(),
  };
  const locatorFile = join(h.home, LOCATOR_FILE);
  writeFileSync(locatorFile, `${JSON.stringify(locator, null, 2)}\n`, { mode: 0o600 });
  chmodSync(locatorFile, 0o600);
  registerHome(h.home, h.sandboxId, new Date().toISOString());
  return locator;
}

/** Hands the locator and the banner's data to the CLI's ready pipe (`--ready-fd`), one JSON line, and closes it. */
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
 * Builds the app on the gate's server and lets the waiting requests in. Said ready already, a daemon whose app
 * cannot be built (a bug, not an input) says why, removes its locator and exits 1.
 */
async function appBehindGate(deps: Deps, o: DaemonOptions, h: HomeStart, gate: RequestGate): Promise<FastifyInstance> {
  try {
    const app = openApp(deps, o, h, gate);
    await app.ready();
    gate.open();
    return app;
  } catch (err) {
    process.stderr.write(`svc daemon: the app could not be built: ${(err as Error).stack ?? String(err)}\n`);
    rmSync(join(h.home, LOCATOR_FILE), { force: true });
    process.exit(1);
  }
}

/** In running mode the world moves on its own: catch up on due events once a second; SIGINT/SIGTERM close. */
function runUntilSignalled(app: FastifyInstance, deps: Deps, home: string): void {
  const server = app.server;
  const ticker = setInterval(() => {
    try {
      deps.scheduler.catchUp();
    } catch (err) {
      app.log.error({ err }, 'scheduler catch-up failed');
    }
  }, 1000);
  ticker.unref();
  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    clearInterval(ticker);
    app.log.info({ signal }, 'svc daemon closing');
    try {
      // the app first: it ends the event streams, which would otherwise keep the server open
      await app.close();
      await closeServer(server);
    } finally {
      deps.db.close();
      rmSync(join(home, LOCATOR_FILE), { force: true });
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/** `spawned`: how the daemon was spawned, as its start log line says (warm: daemon/contract/warm-start.ts). */
async function main(flags: DaemonFlags, spawned: 'cold' | 'warm' = 'cold'): Promise<void> {
  if (flags['write-template']) {
    writeTemplate(resolve(flags['write-template']));
    process.exit(0);
  }
  if (flags['verify-snapshot']) await verifySnapshotOnStdin();
  const home = resolve(flags.home ?? process.env.SVC_HOME ?? join(homedir(), '.svc'));
  privateHome(home);
  const journal = flags.replay ? await replayJournalOnStdin(home) : null;
  const options = optionsOrExit(flags, journal);
  refuseAlteredHome(home);
  const h = openHome(home);
  const deps = openDeps(flags, options, h);
  if (journal) await rebuildAndExit(openApp(deps, options, h), deps, h, journal);
  // Listen and say so first; requests wait in the gate while the app is built (daemon/process/request-gate.ts).
  const gate = requestGate();
  const locator = await listen(gate.server, deps, h, { host: flags.host!, port: options.port });
  if (flags['ready-fd'] !== undefined) tellReady(flags['ready-fd'], { ...locator, banner: readyBanner(deps) });
  const app = await appBehindGate(deps, options, h, gate);
  const cache = codeCacheHandle();
  const started = {
    baseUrl: locator.base_url,
    seed: options.seed,
    code_cache: cache?.status ?? 'off',
    spawned,
    early_requests: gate.waited,
  };
  app.log.info({ ...started, ...(h.firstStart ? { from_template: h.fromTemplate } : {}) }, 'svc daemon listening');
  const cacheTo = flags['write-code-cache'];
  if (cacheTo === undefined) {
    runUntilSignalled(app, deps, home);
    return;
  }
  // the build's run: write the cache, close, and let the process end on its own (the log is still opening)
  if (!cache) throw new Error('--write-code-cache: the daemon was not started through dist/daemon/main.js');
  cache.write(resolve(cacheTo));
  await app.close();
  await closeServer(app.server);
  deps.db.close();
  rmSync(join(home, LOCATOR_FILE), { force: true });
}

/** Main with the command line's flags; or, spawned warm, with the flags of the orders it waits for. */
function begin(argv: string[]): void {
  if (argv[0] !== WARM_FD_FLAG) {
    void main(readFlags(argv));
    return;
  }
  const orders = /^\d+$/.test(argv[1] ?? '') ? awaitOrders(Number(argv[1])) : null;
  // no orders: the CLI did not need this daemon, and nothing was touched
  if (!orders) process.exit(0);
  if (!redirectOutput(orders.out)) process.exit(EXIT_WARM_FAILED);
  void main(readFlags(orders.argv), 'warm');
}

// now, or in a process started from the daemon's startup snapshot (daemon/process/snapshot-builder.ts)
runOrDefer(() => begin(process.argv.slice(2)));
