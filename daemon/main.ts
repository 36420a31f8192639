// Daemon process entry: open the store under $SVC_HOME, build the app, listen on 127.0.0.1, write the
// locator file, and close gracefully on SIGINT/SIGTERM (in-flight requests finish, the database is
// closed cleanly; WAL + synchronous=NORMAL already make every acknowledged write survive a crash).
import { parseArgs } from 'node:util';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import type { ClockMode } from './sim/clock.js';

export const VERSION = '0.1.0';
const DEFAULT_START = '2026-11-22T09:00:00+02:00'; // a Sunday morning in Cairo, before the open

function fail(msg: string): never {
  process.stderr.write(`svc daemon: ${msg}\n`);
  process.exit(2);
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
  },
});

const home = resolve(args.home ?? process.env.SVC_HOME ?? join(homedir(), '.svc'));
mkdirSync(home, { recursive: true, mode: 0o700 });
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port ${args.port} is not a port number`);
const seed = args.seed === undefined ? 42 : Number(args.seed);
if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) fail(`--seed ${args.seed} must be an integer 0..4294967295`);
const start = DateTime.fromISO(args.start ?? DEFAULT_START, { setZone: true });
if (!start.isValid) fail(`--start ${args.start} is not an RFC 3339 timestamp`);
const clockMode = (args.clock ?? 'frozen') as ClockMode;
if (clockMode !== 'frozen' && clockMode !== 'running') fail('--clock must be frozen or running');
const speed = args.speed === undefined ? 1 : Number(args.speed);
if (!(speed >= 0.001 && speed <= 10000)) fail('--speed must be a number in [0.001, 10000]');
if (args.ai !== 'none' && args.ai !== 'registry') fail('--ai must be none or registry');
const logLevel = args['log-level']!;
if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) fail('--log-level must be debug, info, warn or error');

const kekFile = join(home, 'kek.key');
if (!existsSync(kekFile)) writeFileSync(kekFile, randomBytes(32), { mode: 0o600 });
const kek = readFileSync(kekFile);

const deps = createDeps({
  dbFile: join(home, 'svc.db'),
  kek,
  sandbox: { seed, startMs: start.toMillis(), clockMode, speedMilli: Math.round(speed * 1000) },
  ai: args.ai as 'none' | 'registry',
  version: VERSION,
  home,
});

const credentialsFile = join(home, 'credentials.json');
if (deps.bootstrap) {
  const b = deps.bootstrap;
  writeFileSync(
    credentialsFile,
    JSON.stringify({
      tenant_id: b.tenant.tenant_id, api_key: b.tenant.api_key, signing_secret: b.tenant.signing_secret, broker_id: b.broker_id,
      admin_key: b.operators.admin_key, dealer_key: b.operators.dealer_key, security_key: b.operators.security_key, approver_key: b.operators.approver_key,
    }, null, 2) + '\n',
    { mode: 0o600 },
  );
  chmodSync(credentialsFile, 0o600);
}

const app = buildApp(deps, {
  logger: { level: logLevel, file: join(home, 'daemon.log'), redact: ['req.headers.authorization', 'req.headers["x-admin-key"]', 'req.headers["x-console-key"]', 'req.headers["x-svc-signature"]'] },
});
deps.log = app.log;
// One line per request, without headers (keys never reach the log). Successful quick reads are the
// bulk of traffic and the least interesting, so they log at debug (`--log-level debug` shows them);
// every write, every error and every slow read logs at info.
const SLOW_MS = 50;
const logReads = logLevel === 'debug';
app.addHook('onResponse', async (req, reply) => {
  const ms = reply.elapsedTime;
  const quietRead = req.method === 'GET' && reply.statusCode < 400 && ms < SLOW_MS;
  if (quietRead && !logReads) return;
  const line = { method: req.method, url: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(ms * 100) / 100 };
  if (quietRead) req.log.debug(line, 'request');
  else req.log.info(line, 'request');
});

const locatorFile = join(home, 'daemon.json');
await app.listen({ port, host: args.host });
const address = app.server.address();
const boundPort = typeof address === 'object' && address ? address.port : port;
const baseUrl = `http://${args.host}:${boundPort}`;
writeFileSync(
  locatorFile,
  JSON.stringify({ pid: process.pid, port: boundPort, base_url: baseUrl, console_url: `${baseUrl}/broker/v1`, version: VERSION, home, started_at: new Date().toISOString() }, null, 2) + '\n',
);
app.log.info({ baseUrl, seed }, 'svc daemon listening');

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
