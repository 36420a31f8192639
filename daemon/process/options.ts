// The daemon's command line (what `svc sandbox start`, the build and the tests pass to dist/daemon/main.js):
// the flags, and the options they make once checked. A wrong flag is a usage refusal: exit 2, nothing started.
import { parseArgs } from 'node:util';
import { DateTime } from 'luxon';
import { parseRateLimit, RATE_LIMIT_USAGE, type RateLimitSpec } from '../contract/rate-limit.js';
import { parseAiProvider, type AiProvider } from '../contract/schemas/assistant.js';
import type { ClockMode } from '../sim/clock.js';

export const VERSION = '0.1.0';
const DEFAULT_START = '2026-11-22T09:00:00+02:00'; // a Sunday morning in Cairo, before the open
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'];

export interface DaemonOptions {
  port: number;
  seed: number;
  startMs: number;
  clockMode: ClockMode;
  speed: number;
  ai: AiProvider;
  logLevel: string;
  rateLimit: RateLimitSpec | null;
}

/** The flags as given (strings and booleans), unknown flags refused by parseArgs. */
export function readFlags(argv: string[] = process.argv.slice(2)) {
  return parseArgs({
    args: argv,
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
      // The build starts a daemon once with this, which writes the V8 code cache of its own code here once
      // it listens, and exits (daemon/process/code-cache.ts).
      'write-code-cache': { type: 'string' },
      // Where to tell the CLI "listening": a pipe the CLI opened (`svc sandbox start`), which receives the
      // locator as one JSON line once the daemon listens, and is closed; the CLI then has nothing to poll.
      'ready-fd': { type: 'string' },
      // each API key's rate limit, "200/min" (docs/faults.md); off when absent
      'rate-limit': { type: 'string' },
    },
  }).values;
}

export type DaemonFlags = ReturnType<typeof readFlags>;

/** The flags as options, or the first one that is wrong. */
export function parseOptions(a: DaemonFlags): { ok: true; value: DaemonOptions } | { ok: false; message: string } {
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
