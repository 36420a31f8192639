// The parts of a signed market order, for `profile.ts orders` and `profile.ts floor`: each profile
// sample counts for the first of these that matches a frame on its stack (cpuprofile.ts), so the
// daemon's CPU per order splits into what the floor also does and what only the daemon does
// (docs/bench.md, "What each remaining microsecond buys"). Frames are matched by function name and
// source file; a function that moves or is renamed simply falls to the component of its caller.
import type { Component } from './cpuprofile.js';

const fn = (name: string, file: string) => (f: { name: string; where: string }) =>
  f.name === name && f.where.startsWith(`${file}:`);
const under =
  (...prefixes: string[]) =>
  (f: { where: string }) =>
    prefixes.some((p) => f.where.startsWith(p));
const FASTIFY = under(
  'node_modules/fastify/',
  'node_modules/find-my-way/',
  'node_modules/toad-cache/',
  'node_modules/avvio/',
  'node_modules/fast-querystring/',
);
const PINO = under(
  'node_modules/pino/',
  'node_modules/sonic-boom/',
  'node_modules/fast-redact/',
  'node_modules/quick-format-unescaped/',
  'node_modules/safe-stable-stringify/',
);
// the access log is main.ts's onResponse hook (an arrow function) and what it calls
const LOGGER = (f: { name: string; where: string }) =>
  (f.name === '(anonymous)' && f.where.startsWith('daemon/main.ts:')) || PINO(f);

/** fastify's reply.send and what it calls: headers, the body, the socket write. */
const REPLY: Component = {
  name: 'reply: headers, body, socket write',
  match: fn('Reply.send', 'node_modules/fastify/lib/reply.js'),
};

/** The daemon (dist/daemon/main.js, frames mapped back to daemon/*.ts): parts before what contains them. */
export const DAEMON_ORDER_COMPONENTS: Component[] = [
  { name: 'access log line (pino)', match: LOGGER },
  { name: 'auth: bearer key, v1 signature, body hash', match: fn('authenticate', 'daemon/http/auth.ts') },
  { name: 'zod and the request context', match: fn('buildCtx', 'daemon/http/pipeline.ts') },
  { name: 'idempotency lookup', match: fn('storedAnswer', 'daemon/http/mutation.ts') },
  {
    name: 'order checks: investor, instrument, band, tick, session, cash',
    match: fn('validateOrder', 'daemon/trading/validate.ts'),
  },
  {
    name: 'postings: 4 rows, balances moved by the ledger triggers',
    match: fn('postFill', 'daemon/trading/booking.ts'),
  },
  { name: 'activities: 3 rows', match: fn('recordActivities', 'daemon/trading/booking.ts') },
  { name: 'fill row', match: fn('insertFill', 'daemon/trading/repository.ts') },
  { name: 'settlement row and its scheduler event', match: fn('scheduleSettlement', 'daemon/trading/settlement.ts') },
  { name: 'order row', match: fn('insert', 'daemon/trading/repository.ts') },
  {
    name: 'rest of the order: tape price, fill plan, ids, reply body',
    match: under('daemon/trading/', 'daemon/market/'),
  },
  { name: 'id counters (one statement)', match: fn('unit', 'daemon/sim/ids.ts') },
  { name: 'audit entry and hash chain', match: fn('append', 'daemon/store/audit.ts') },
  { name: 'journal entry, body sealed', match: fn('record', 'daemon/record/journal.ts') },
  { name: 'idempotency record (and the reply JSON)', match: fn('recordAnswer', 'daemon/http/mutation.ts') },
  { name: 'savepoint and release', match: fn('runMutation', 'daemon/http/mutation.ts') },
  { name: 'COMMIT (shared by the batch)', match: fn('commit', 'daemon/store/group-commit.ts') },
  REPLY,
  { name: 'the pipeline (daemon/http)', match: under('daemon/http/') },
  { name: 'fastify: routing, content parser, hooks', match: FASTIFY },
];

/** servers/floor.mjs. */
export const FLOOR_ORDER_COMPONENTS: Component[] = [
  { name: 'auth: bearer key, v1 signature, body hash', match: fn('authenticate', 'test/bench/servers/floor.mjs') },
  { name: 'body check', match: fn('validate', 'test/bench/servers/floor.mjs') },
  {
    name: "the order's rows (order, 4 postings, 6 balances, fill, 3 activities, settlement, event, counters)",
    match: fn('place', 'test/bench/servers/floor.mjs'),
  },
  { name: 'idempotency record, audit row and head, journal row', match: fn('record', 'test/bench/servers/floor.mjs') },
  { name: 'COMMIT (shared by the batch)', match: fn('commit', 'test/bench/servers/floor.mjs') },
  REPLY,
  { name: 'idempotency lookup and the rest of the route', match: under('test/bench/servers/floor.mjs') },
  { name: 'fastify: routing, content parser, hooks', match: FASTIFY },
];
