// The dependency container: everything a service may use, built once per daemon (or per test).
// Services receive exactly what they use (Pick<Deps, ...>); nothing is a module-level singleton.
import { openDb, type Db } from './store/db.js';
import { createAudit, type Audit } from './store/audit.js';
import { createClock, type Clock } from './sim/clock.js';
import { createIdGen, type IdGen } from './sim/ids.js';
import { createScheduler, type EventFailure, type Scheduler } from './sim/scheduler.js';
import { createKeyStore, type KeyStore } from './tenancy/keys.js';
import { createMarket, type Market } from './market/service.js';
import { createInvestorRepo, type InvestorRepo } from './investors/repo.js';
import { createLedger, type Ledger } from './ledger/ledger.js';
import { bootstrapIfEmpty, type BootstrapResult, type SandboxOptions } from './tenancy/bootstrap.js';
import { createJournal, type Journal } from './record/journal.js';
import { createFaultEngine, type FaultEngine } from './record/faults.js';
import type { RateLimitSpec } from './contract/rate-limit.js';
import { createInspector, DEFAULT_INSPECTOR_CAPACITY, type Inspector } from './record/inspector.js';
import { createEventFeed, type EventFeed } from './record/events-feed.js';
import type { AiProvider } from './contract/schemas/assistant.js';
import { auditSealKeyOf } from './store/kek-file.js';
import { AUDIT_CHECKPOINT_FILE, checkpointStore } from './store/audit-checkpoint.js';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pairKey } from './store/crypto.js';

export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export type { SandboxOptions };

export interface DepsOptions {
  dbFile: string;
  kek: Buffer;
  /** The next KEK while a keys:rotate-kek re-seals in slices (kek.next.key; daemon/store/kek-file.ts). */
  kekNext?: Buffer | null;
  sandbox: SandboxOptions;
  wallNow?: () => number;
  log?: Logger;
  ai?: AiProvider;
  /** Bound on one call to an openai: provider (default 5,000 ms; docs/assistant.md). */
  aiTimeoutMs?: number;
  /** The model name sent to an openai: provider (default $SVC_AI_MODEL, else "default"). */
  aiModel?: string;
  version?: string;
  /** $SVC_HOME of a daemon (its credentials file goes into snapshots); absent in tests. */
  home?: string;
  /** Requests the inspector keeps (default $SVC_INSPECTOR_SIZE, else 1,000). */
  inspectorCapacity?: number;
  /** --rate-limit: each API key's limit (docs/faults.md); off when absent. */
  rateLimit?: RateLimitSpec | null;
  /** The audit checkpoint beside the key (default: audit.checkpoint beside the database, i.e. in the home;
   * docs/reliability.md). */
  auditCheckpointFile?: string;
  /** Sign the audit chain's end as it is, if every row recomputes (`--adopt-audit-head`, a snapshot import). */
  adoptAuditHead?: boolean;
}

export interface Deps {
  db: Db;
  clock: Clock;
  ids: IdGen;
  scheduler: Scheduler;
  audit: Audit;
  keys: KeyStore;
  market: Market;
  investors: InvestorRepo;
  /** The double-entry ledger: postings, holds, balances, activity feed (daemon/ledger). */
  ledger: Ledger;
  log: Logger;
  wallNow: () => number;
  /** One buffer shared by every sealer; a KEK rotation overwrites its bytes (daemon/backoffice/bases/rotate-kek.ts). */
  kek: Buffer;
  /**
   * The KEK a keys:rotate-kek is re-sealing toward, until its switch-over (paired with `kek`, so values
   * under either open: daemon/store/crypto.ts pairKey); null when no KEK rotation runs.
   */
  kekNext: Buffer | null;
  /** The assistant's provider (--ai); a reset may change it (docs/assistant.md). */
  ai: AiProvider;
  aiTimeoutMs: number;
  aiModel: string;
  /** The audit seal's key, derived from the KEK (daemon/store/kek-file.ts); rotated with it. */
  auditSealKey: Buffer;
  version: string;
  /** RFC 3339 in Africa/Cairo of the simulated now. */
  nowIso(): string;
  /** Credentials minted by this start's bootstrap (first start only), for the locator file. */
  bootstrap: BootstrapResult | null;
  /** Hooks capabilities register to drop in-memory caches after reset or import. */
  onReset: Array<() => void>;
  /**
   * Work an event hands off the event loop and stores later (a statement's render, docs/reports.md):
   * the clock controls await every hook before answering, so a frozen clock's advance answers with it done.
   */
  settle: Array<() => Promise<void>>;
  /** Hooks run when the app closes (the render worker ends). */
  onClose: Array<() => Promise<void>>;
  /**
   * Rebuilds every in-memory view of the database from it: the clock, the seed, quotes and halts, the
   * scheduler's next instant, and each capability's caches (onReset). For a rollback the code did not
   * plan: an unexpected error inside a request's savepoint, or a batch whose COMMIT failed.
   */
  reload(): void;
  /** The request journal (every committed state-changing request) and replay tickets. */
  journal: Journal;
  home: string | null;
  /** The last N answered requests, in memory, shown redacted (docs/inspector.md). */
  inspector: Inspector;
  /** Push events of state changes for GET /admin/sandbox/events (docs/inspector.md). */
  events: EventFeed;
  /** Fault rules, the rate limit and the fault report, in memory (docs/faults.md). */
  faults: FaultEngine;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

function inspectorCapacity(opts: DepsOptions): number {
  const fromEnv = Number(process.env.SVC_INSPECTOR_SIZE);
  const n = opts.inspectorCapacity ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_INSPECTOR_CAPACITY);
  return Math.min(Math.max(1, n), 100_000);
}

/**
 * A due event (or a source's run) threw and was rolled back alone (daemon/sim/scheduler.ts): log it,
 * audit it in the instant's transaction, and drop the in-memory caches it may have touched (they
 * rebuild from the database; not the full reload, which would unpin the clock and forget the ids a
 * request's unit has counted so far).
 */
function eventFailed(deps: Deps, f: EventFailure): void {
  const message = f.error instanceof Error ? f.error.message : String(f.error);
  deps.log.error(
    { err: f.error, kind: f.kind, event_id: f.eventId, at: deps.market.calendar.toIso(f.atMs) },
    'scheduler: a due event failed and was rolled back alone',
  );
  deps.audit.append({
    actor: 'system',
    action: 'scheduler.event_failed',
    subject: f.eventId === null ? f.kind : `${f.kind}#${f.eventId}`,
    detail: { kind: f.kind, event_id: f.eventId, error: message.slice(0, 500) },
  });
  for (const hook of deps.onReset) hook();
}

/** The sandbox's seed and generation, as stored. */
function seedOf(db: Db): { seed: number; generation: number } {
  return db
    .prepare<[], { seed: number; generation: number }>('SELECT seed, generation FROM sandbox_state WHERE id = 1')
    .get()!;
}

/** Re-reads the sandbox after its database changed under the daemon (a reset or a snapshot import). */
function reload(deps: Deps): void {
  const st = seedOf(deps.db);
  deps.clock.reload();
  deps.ids.invalidate();
  deps.ids.setSeed(st.seed, st.generation);
  deps.market.reset(st.seed);
  deps.scheduler.changed();
  for (const hook of deps.onReset) hook();
}

export function createDeps(opts: DepsOptions): Deps {
  const wallNow = opts.wallNow ?? Date.now;
  // A database file this start creates: a checkpoint left beside the key belongs to one that is gone.
  const fresh = opts.dbFile !== ':memory:' && !existsSync(opts.dbFile);
  const db = openDb(opts.dbFile);
  const bootstrapState = bootstrapIfEmpty(db, opts.sandbox, wallNow);
  const state = seedOf(db);
  db.prepare('UPDATE sandbox_state SET boot_count = boot_count + 1 WHERE id = 1').run();
  const clock = createClock(db, wallNow);
  const ids = createIdGen(db, state.seed, state.generation);
  const scheduler = createScheduler(db, clock);
  const market = createMarket({ db, clock, seed: state.seed });
  const nowIso = () => market.calendar.toIso(clock.now());
  const auditSealKey = auditSealKeyOf(opts.kek);
  const checkpointFile =
    opts.auditCheckpointFile ?? (opts.dbFile === ':memory:' ? null : join(dirname(opts.dbFile), AUDIT_CHECKPOINT_FILE));
  const checkpoints = checkpointFile ? checkpointStore(checkpointFile, auditSealKey) : undefined;
  const audit = createAudit(db, nowIso, { sealKey: auditSealKey, checkpoints });
  audit.anchorAtStart({ fresh, adopt: opts.adoptAuditHead ?? false });
  const keys = createKeyStore(db, ids, opts.kek, nowIso);
  if (opts.kekNext) pairKey(opts.kek, opts.kekNext);
  const deps: Deps = {
    db,
    clock,
    ids,
    scheduler,
    audit,
    keys,
    market,
    investors: createInvestorRepo(db),
    ledger: createLedger({ db, ids, clock, nowIso }),
    log: opts.log ?? silent,
    wallNow,
    kek: opts.kek,
    kekNext: opts.kekNext ?? null,
    auditSealKey,
    ai: opts.ai ?? 'none',
    aiTimeoutMs: opts.aiTimeoutMs ?? 5_000,
    aiModel: opts.aiModel ?? process.env.SVC_AI_MODEL ?? 'default',
    version: opts.version ?? '0.1.0',
    nowIso,
    bootstrap: null,
    onReset: [],
    settle: [],
    onClose: [],
    journal: createJournal({
      db,
      kek: opts.kek,
      tenantDek: (id) => keys.tenantDek(id),
      toIso: (ms) => market.calendar.toIso(ms),
      version: opts.version ?? '0.1.0',
    }),
    home: opts.home ?? null,
    inspector: createInspector({
      capacity: inspectorCapacity(opts),
      simNow: () => clock.now(),
      toIso: (ms) => market.calendar.toIso(ms),
    }),
    events: createEventFeed({ db }),
    faults: createFaultEngine(state.seed, opts.rateLimit ?? null),
    reload: () => {},
  };
  deps.onClose.push(async () => checkpoints?.close());
  deps.onReset.push(() => deps.ledger.invalidate());
  deps.onReset.push(() => deps.investors.forget());
  scheduler.onFailure((f) => eventFailed(deps, f));
  deps.reload = () => reload(deps);
  if (bootstrapState) deps.bootstrap = bootstrapState.provision(deps);
  return deps;
}
