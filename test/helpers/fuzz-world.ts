// The world the fuzzer runs in: a real app on a real SQLite file with a frozen sandbox clock and a fixed
// wall clock (nothing moves between requests, so a seed replays a run), two tenants each with an
// onboarded and funded investor, KYC applications in several states, a transfer and an order. Known
// values (ids that resolve, valid request fields) are harvested from the real responses, including a
// GET of every list route of /openapi.json, so routes added later are fed real ids without edits.
//
// The operator keys the run authenticates with are never offered to the key routes: a generated
// `POST /admin/keys/revoke` or `/rotate` naming a bootstrap identity would take its key away, and every
// later operation of that identity would stop at 401 (KEY_REVOKED) instead of reaching its handler.
// Those two routes get a throwaway identity of their own each (so a valid request still succeeds) and
// a made-up id; the bootstrap identities' ids never reach them (WorldPools). Access reviews are the same
// danger by another road: revoking a review item removes that grant, so an item about a bootstrap identity
// is protected like the identity itself, and a spare identity with one grant gives the decisions route an
// item it may revoke.
import { addOperator, advance, makeApp, type TestApp } from './app.js';
import { BALANCED, SAMPLE_BACK, SAMPLE_FRONT, applicant, onboardInvestor } from './onboarding.js';
import {
  Pools,
  credentialHeaders,
  fuzzAll,
  loadOperations,
  type Creds,
  type FuzzEnv,
  type FuzzRunOptions,
  type FuzzStats,
  type Operation,
} from './fuzz.js';
import { injectSettled } from './inject-settled.js';

export const FUZZ_WALL = Date.parse('2030-06-01T12:00:00Z');

/** The routes that change an identity's key, each with the throwaway identity it may act on. */
export const KEY_ROUTES: Readonly<Record<string, string>> = {
  'POST /admin/keys/revoke': 'fuzz-spare-revoke',
  'POST /admin/keys/rotate': 'fuzz-spare-rotate',
};
/** The route whose `revoke` decision removes the grant a review item names. */
export const REVIEW_DECISIONS = 'POST /admin/access-reviews/{id}/decisions';
/** The spare identity whose one grant review items may revoke. */
export const REVIEW_SPARE = 'fuzz-spare-review';
/** An identity id no identity has, for the key routes' NOT_FOUND path. */
export const MADE_UP_IDENTITY = 'opr_fuzz_nobody';

/**
 * Pools that keep the run's own operator identities away from the key routes. While a key route is
 * fuzzed (`current`, set by fuzzOperations), `identity_id` is its throwaway identity or a made-up id,
 * and the ids offered for any other id field leave the protected ones out. With no current operation
 * (fuzzAll called directly) the protected ids are left out everywhere.
 */
export class WorldPools extends Pools {
  current: string | undefined;
  readonly protectedIds = new Set<string>();
  readonly spares = new Map<string, string>();

  private guarding(): boolean {
    return this.current === undefined || this.current in KEY_ROUTES || this.current === REVIEW_DECISIONS;
  }

  /** Also protects every access review item about a protected identity (its revocation takes a grant). */
  override harvest(value: unknown, key?: string): void {
    super.harvest(value, key);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    const { item_id, identity_id } = value as { item_id?: unknown; identity_id?: unknown };
    if (typeof item_id === 'string' && typeof identity_id === 'string' && this.protectedIds.has(identity_id))
      this.protectedIds.add(item_id);
  }

  override for(name: string): unknown[] {
    if (name === 'identity_id' && this.current !== undefined && this.current in KEY_ROUTES)
      return [this.spares.get(this.current)!, MADE_UP_IDENTITY];
    const all = super.for(name);
    return this.guarding() ? all.filter((v) => !this.protectedIds.has(v as string)) : all;
  }

  override ids(): string[] {
    const all = super.ids();
    return this.guarding() ? all.filter((v) => !this.protectedIds.has(v)) : all;
  }
}

export interface FuzzWorld {
  t: TestApp;
  env: FuzzEnv;
  pools: WorldPools;
  ops: Operation[];
  other: Creds & { tenant_id: string };
}

function expectOk(res: { status: number; text: string }, what: string): void {
  if (res.status >= 300) throw new Error(`fuzz world: ${what}: ${res.status} ${res.text}`);
}

export async function buildFuzzWorld(): Promise<FuzzWorld> {
  const t = await makeApp({ wallNow: () => FUZZ_WALL });
  const pools = new WorldPools();
  for (const id of t.deps.db.prepare<[], string>('SELECT id FROM operators').pluck().all()) pools.protectedIds.add(id);
  for (const [route, name] of Object.entries(KEY_ROUTES)) {
    addOperator(t, name, { realm: 'admin', grants: [], scope: 'global' });
    pools.spares.set(
      route,
      t.deps.db.prepare<[string], string>('SELECT id FROM operators WHERE name = ?').pluck().get(name)!,
    );
  }
  addOperator(t, REVIEW_SPARE, { realm: 'admin', grants: ['audit:read'], scope: 'global' });
  const keep = (res: { status: number; body: any; text: string }, what: string) => {
    expectOk(res, what);
    pools.harvest(res.body);
    return res;
  };

  const other = keep(await t.req('POST', '/admin/tenants', { body: { name: 'fuzz-other' } }), 'tenant')
    .body as Creds & { tenant_id: string };
  pools.example({ name: 'fuzz-other' });

  const symbols = keep(await t.req('GET', '/v1/instruments?security_type=equity'), 'instruments').body
    .instruments as Array<{ symbol: string }>;
  const symbol = symbols[0].symbol;

  for (const tenant of [t.creds.tenant, other]) {
    const inv = await onboardInvestor(t, { tenant });
    pools.example({ investor_id: inv.investorId, application_id: inv.applicationId });
    const deposit = { investor_id: inv.investorId, direction: 'deposit', amount_micros: 50_000_000_000 };
    keep(await t.req('POST', '/v1/transfers', { body: deposit, tenant }), 'deposit');
    pools.example(deposit);
    pools.example({ questionnaire: BALANCED, risk_acknowledged: true });
    // An application still screened (documents and submit can be fuzzed on it) and one referred to the desk.
    const body = applicant();
    pools.example(body);
    keep(await t.req('POST', '/v1/kyc/applications', { body, tenant }), 'application');
    const referred = keep(
      await t.req('POST', '/v1/kyc/applications', { body: applicant({}, '9999'), tenant }),
      'referred application',
    ).body.application_id as string;
    for (const [side, raw] of [
      ['national_id_front', SAMPLE_FRONT],
      ['national_id_back', SAMPLE_BACK],
    ] as const) {
      expectOk(
        await t.req('PUT', `/v1/kyc/applications/${referred}/documents/${side}`, {
          raw,
          contentType: 'image/png',
          tenant,
        }),
        'upload',
      );
    }
    expectOk(await t.req('POST', `/v1/kyc/applications/${referred}/submit`, { tenant }), 'submit');
  }
  await advance(t, { minutes: 5 });

  // An order (queued: the clock is before the open) for each tenant.
  const invs = pools.strings('investor_id');
  for (const [i, tenant] of [t.creds.tenant, other].entries()) {
    const order = {
      investor_id: invs[i],
      symbol,
      side: 'buy',
      type: 'limit',
      qty: 10,
      time_in_force: 'gtc',
      client_order_id: `fuzz-${i}`,
    };
    const quote = keep(await t.req('GET', `/v1/instruments/${symbol}/quote`, { tenant }), 'quote').body;
    const limit = quote.band.lower_micros;
    const res = await t.req('POST', '/v1/orders', { body: { ...order, limit_price_micros: limit }, tenant });
    if (res.status < 300) {
      pools.harvest(res.body);
      pools.example({ ...order, limit_price_micros: limit });
    }
  }
  pools.example({
    reason_code: 'OTHER',
    status: 'restricted',
    reason: 'fuzz',
    halted: true,
    enabled: false,
    mode: 'frozen',
    minutes: 1,
  });

  // Every list route (a GET without path parameters), for the ids it shows.
  const ops = await loadOperations(t);
  for (const op of ops) {
    if (op.method !== 'GET' || op.pathParams.length) continue;
    const res = await injectSettled(t.app, { method: 'GET', url: op.path, headers: credentialHeaders(t, op.auth) });
    if (res.statusCode === 200 && String(res.headers['content-type']).includes('json'))
      pools.harvest(JSON.parse(res.body));
  }

  let n = 0;
  const env: FuzzEnv = { t, other, wallNow: () => FUZZ_WALL, nextKey: () => `fz-${++n}` };
  return { t, env, pools, ops, other };
}

/** The seed of a run: SVC_FUZZ_SEED replays one; otherwise a fresh one (printed). */
export function fuzzSeed(): number {
  const fromEnv = process.env.SVC_FUZZ_SEED;
  return fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) : Math.floor(Math.random() * 2 ** 31);
}

export async function runFuzz(world: FuzzWorld, totalRuns: number, seed: number): Promise<FuzzStats> {
  return fuzzOperations(world, world.ops, { totalRuns, seed });
}

/** Fuzzes some operations of the world, telling its pools which one is being fuzzed (see WorldPools). */
export async function fuzzOperations(world: FuzzWorld, ops: Operation[], opts: FuzzRunOptions): Promise<FuzzStats> {
  try {
    return await fuzzAll(world.env, ops, world.pools, {
      ...opts,
      onOperation: (op, runs) => {
        world.pools.current = op.key;
        opts.onOperation?.(op, runs);
      },
    });
  } finally {
    world.pools.current = undefined;
  }
}

export function formatStats(s: FuzzStats, seed: number, ops: number): string {
  const top = (o: Record<string, number>, n = 12) =>
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
  return [
    `fuzz: ${s.requests} requests over ${ops} operations in ${(s.ms / 1000).toFixed(1)} s (` +
      `${Math.round(s.requests / (s.ms / 1000))}/s, ${(s.cpuMs / 1000).toFixed(1)} s of CPU), seed ${seed}`,
    `  slowest operations (ms): ${top(s.msByOp, 6)}`,
    `  statuses: ${top(s.byStatus, 20)}`,
    `  codes: ${top(s.byCode, 16)}`,
    `  mutations: ${top(s.byMutation, 30)}`,
    `  accepted ${s.accepted}, business refusals stored as idempotency records ${s.storedRefusals} (replayed ` +
      `${s.replays})`,
    ...(process.env.SVC_FUZZ_VERBOSE ? Object.entries(s.byOp).map(([op, o]) => `  ${op}: ${top(o, 40)}`) : []),
  ].join('\n');
}

/**
 * Whether each bootstrap identity's key still authenticates (the status of one read it may make): a
 * run that took a key away would leave every later operation of that identity at 401.
 */
export async function bootstrapKeysAnswer(world: FuzzWorld): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const who of ['admin', 'security', 'approver', 'compliance', 'auditor'] as const) {
    out[who] = (await world.t.req('GET', '/admin/audit?limit=1', { as: who })).status;
  }
  out.dealer = (await world.t.req('GET', '/broker/v1/queue', { as: 'dealer' })).status;
  return out;
}
