// Sandbox controls: clock advance and mode, reset. (Quote and halt live in the market service.) The
// clock only moves forward, by at most MAX_ADVANCE_MS per call; a reset wipes the simulation and keeps
// credentials, the tenants' branding, the audit chain and the journal (docs/snapshots.md).
import { DateTime } from 'luxon';
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { ClockMode } from '../sim/clock.js';
import { parseAiProvider } from '../contract/schemas/assistant.js';
import { parseRateLimit, RATE_LIMIT_USAGE } from '../contract/rate-limit.js';
import { clockView } from '../market/calendar-view.js';

export const MAX_ADVANCE_MS = 3660 * 24 * 3600 * 1000;
/** Tables that survive a reset: credentials and the tenants' configuration (their branding: set up
 *  with the keys, not made by the simulation), brokers, the audit chain, the request journal (the
 *  reset is one of its entries), the state row itself, and the id counters (`id_seq`, which the reset
 *  empties itself below, row by row). Tenant data (investors, orders, reports...) goes. */
const KEEP_ON_RESET = new Set([
  'sandbox_state',
  'id_seq',
  'tenants',
  'api_keys',
  'signing_secrets',
  'brandings',
  'operators',
  'brokers',
  'audit_log',
  'journal',
  'journal_origin',
  'replay_session',
  'operator_grants',
  'operator_step_up',
  'operator_step_up_windows',
  'admin_actions',
  'audit_seal',
  'console_sessions',
  'access_reviews',
  'access_review_items',
  'fee_schedules',
  'key_state',
  'console_passkeys',
  'key_rotations',
]);
/** The counters of the ids kept tables hold (tenants, operators): they keep counting through a reset,
 *  so an id made after it never repeats one that survived it. Every other counter restarts, so a reset
 *  sandbox numbers its new simulation exactly as a fresh sandbox with the same seed would. */
const KEEP_SEQUENCES = ['tnt', 'opr', 'act', 'ses', 'arv', 'ari'];

export type AdvanceBody = { minutes?: number; hours?: number; days?: number; until?: string };

/** The instant an advance names: an RFC 3339 instant with offset, next_open, next_close, or a duration. */
function advanceTarget(deps: Pick<Deps, 'market'>, now: number, body: AdvanceBody): Outcome<number> {
  if (body.until === undefined) {
    const ms = (body.minutes ?? 0) * 60_000 + (body.hours ?? 0) * 3_600_000 + (body.days ?? 0) * 86_400_000;
    return ok(now + Math.round(ms));
  }
  if (body.until === 'next_open') return ok(deps.market.calendar.nextOpen(now));
  if (body.until === 'next_close') return ok(deps.market.calendar.nextClose(now));
  const dt = DateTime.fromISO(body.until, { setZone: true });
  if (!dt.isValid || !/[zZ]|[+-]\d\d:\d\d$/.test(body.until))
    return refuse(
      'INVALID_TIMESTAMP',
      `until: "${body.until}" is not an RFC 3339 timestamp with offset, next_open or next_close.`,
    );
  return ok(dt.toMillis());
}

export function resolveAdvanceTarget(deps: Pick<Deps, 'clock' | 'market'>, body: AdvanceBody): Outcome<number> {
  const now = deps.clock.now();
  const target = advanceTarget(deps, now, body);
  if (!target.ok) return target;
  if (target.value < now)
    return refuse(
      'CLOCK_NOT_ADVANCEABLE',
      `The clock is at ${deps.market.calendar.toIso(now)}; it only moves forward.`,
    );
  if (target.value - now > MAX_ADVANCE_MS) return refuse('CLOCK_ADVANCE_TOO_LARGE');
  return target;
}

export function advanceClock(deps: Pick<Deps, 'clock' | 'market' | 'scheduler'>, body: AdvanceBody) {
  const target = resolveAdvanceTarget(deps, body);
  if (!target.ok) return target;
  const instants = deps.scheduler.advanceTo(target.value);
  return ok({ ...clockView(deps), mode: deps.clock.mode(), instants_processed: instants });
}

export function setClockMode(deps: Pick<Deps, 'clock' | 'market' | 'scheduler'>, mode: ClockMode, speed?: number) {
  deps.clock.setMode(mode, speed === undefined ? undefined : Math.round(speed * 1000));
  deps.scheduler.changed();
  return { ...clockView(deps), mode: deps.clock.mode(), speed: deps.clock.speedMilli() / 1000 };
}

export function sandboxState(deps: Pick<Deps, 'db' | 'clock' | 'market' | 'ai' | 'version'>) {
  const s = deps.db
    .prepare<[], { seed: number; start_ms: number; generation: number; auto_fill: number; manual_funding: number }>(
      'SELECT seed, start_ms, generation, auto_fill, manual_funding FROM sandbox_state WHERE id = 1',
    )
    .get()!;
  return {
    seed: s.seed,
    start: deps.market.calendar.toIso(s.start_ms),
    generation: s.generation,
    clock: { ...clockView(deps), mode: deps.clock.mode(), speed: deps.clock.speedMilli() / 1000 },
    auto_fill: s.auto_fill === 1,
    manual_funding: s.manual_funding === 1,
    ai: deps.ai,
    version: deps.version,
  };
}

export interface ResetRequest {
  seed?: number;
  /** RFC 3339; the current start when absent. */
  start?: string;
  clock?: ClockMode;
  /** The assistant's provider from now on (checked by the route's schema). */
  ai?: string;
  /** Each API key's rate limit from now on ("200/min"), "off", or the current one when absent (docs/faults.md). */
  rate_limit?: string;
}

function sandboxSeed(deps: Deps): number {
  return deps.db.prepare<[], { seed: number }>('SELECT seed FROM sandbox_state WHERE id = 1').get()!.seed;
}

/** Wipes all simulation state (keeping credentials, branding and the audit chain) and restarts the clock. */
export function resetSandbox(deps: Deps, req: ResetRequest) {
  let startMs: number | undefined;
  if (req.start !== undefined) {
    const dt = DateTime.fromISO(req.start, { setZone: true });
    if (!dt.isValid) return refuse('INVALID_TIMESTAMP', `start: "${req.start}" is not an RFC 3339 timestamp.`);
    startMs = dt.toMillis();
  }
  const limit = req.rate_limit === undefined || req.rate_limit === 'off' ? null : parseRateLimit(req.rate_limit);
  if (req.rate_limit !== undefined && req.rate_limit !== 'off' && limit === null)
    return refuse('VALIDATION_FAILED', `body.rate_limit: send ${RATE_LIMIT_USAGE}, or off.`);
  wipe(deps, { seed: req.seed, startMs, clockMode: req.clock });
  if (req.ai !== undefined) deps.ai = parseAiProvider(req.ai) ?? deps.ai;
  // no rules, an empty report; the rate limit as sent, else as it was
  deps.faults.reset(req.seed ?? sandboxSeed(deps), req.rate_limit === undefined ? undefined : limit);
  return ok(sandboxState(deps));
}

function wipe(deps: Deps, opts: { seed?: number; startMs?: number; clockMode?: ClockMode }): void {
  const db = deps.db;
  const cur = db
    .prepare<[], { seed: number; start_ms: number; generation: number }>(
      'SELECT seed, start_ms, generation FROM sandbox_state WHERE id = 1',
    )
    .get()!;
  const seed = opts.seed ?? cur.seed;
  const startMs = opts.startMs ?? cur.start_ms;
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all();
  db.transaction(() => {
    // Foreign keys are checked at commit, when every table is empty, whatever order they are listed
    // in; the raised wiping flag is the one way past the append-only triggers (ledger, transfers).
    db.pragma('defer_foreign_keys = ON');
    db.prepare('UPDATE sandbox_state SET wiping = 1 WHERE id = 1').run();
    for (const { name } of tables) if (!KEEP_ON_RESET.has(name)) db.prepare(`DELETE FROM "${name}"`).run();
    db.prepare(`DELETE FROM id_seq WHERE prefix NOT IN (${KEEP_SEQUENCES.map(() => '?').join(',')})`).run(
      ...KEEP_SEQUENCES,
    );
    db.prepare(
      'UPDATE sandbox_state SET seed = ?, start_ms = ?, sim_ms = ?, processed_ms = ?, wall_anchor_ms = ?, ' +
        'generation = generation + 1, auto_fill = 1, manual_funding = 0, wiping = 0, clock_mode = COALESCE(?, ' +
        'clock_mode) WHERE id = 1',
    ).run(seed, startMs, startMs, startMs, deps.wallNow(), opts.clockMode ?? null);
  })();
  deps.clock.reload();
  deps.ids.setSeed(seed, cur.generation + 1);
  deps.market.reset(seed);
  deps.scheduler.changed();
  for (const hook of deps.onReset) hook();
}
