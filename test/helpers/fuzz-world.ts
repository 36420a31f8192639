// The world the fuzzer runs in: a real app on a real SQLite file with a frozen sandbox clock and a fixed
// wall clock (nothing moves between requests, so a seed replays a run), two tenants each with an
// onboarded and funded investor, KYC applications in several states, a transfer and an order. Known
// values (ids that resolve, valid request fields) are harvested from the real responses, including a
// GET of every list route of /openapi.json, so routes added later are fed real ids without edits.
import { advance, makeApp, type TestApp } from './app.js';
import { BALANCED, SAMPLE_BACK, SAMPLE_FRONT, applicant, onboardInvestor } from './onboarding.js';
import { Pools, credentialHeaders, fuzzAll, loadOperations, type Creds, type FuzzEnv, type FuzzStats, type Operation } from './fuzz.js';

export const FUZZ_WALL = Date.parse('2030-06-01T12:00:00Z');

export interface FuzzWorld {
  t: TestApp;
  env: FuzzEnv;
  pools: Pools;
  ops: Operation[];
  other: Creds & { tenant_id: string };
}

function expectOk(res: { status: number; text: string }, what: string): void {
  if (res.status >= 300) throw new Error(`fuzz world: ${what}: ${res.status} ${res.text}`);
}

export async function buildFuzzWorld(): Promise<FuzzWorld> {
  const t = await makeApp({ wallNow: () => FUZZ_WALL });
  const pools = new Pools();
  const keep = (res: { status: number; body: any; text: string }, what: string) => {
    expectOk(res, what);
    pools.harvest(res.body);
    return res;
  };

  const other = keep(await t.req('POST', '/admin/tenants', { body: { name: 'fuzz-other' } }), 'tenant').body as Creds & { tenant_id: string };
  pools.example({ name: 'fuzz-other' });

  const symbols = keep(await t.req('GET', '/v1/instruments?security_type=equity'), 'instruments').body.instruments as Array<{ symbol: string }>;
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
    const referred = keep(await t.req('POST', '/v1/kyc/applications', { body: applicant({}, '9999'), tenant }), 'referred application').body.application_id as string;
    for (const [side, raw] of [['national_id_front', SAMPLE_FRONT], ['national_id_back', SAMPLE_BACK]] as const) {
      expectOk(await t.req('PUT', `/v1/kyc/applications/${referred}/documents/${side}`, { raw, contentType: 'image/png', tenant }), 'upload');
    }
    expectOk(await t.req('POST', `/v1/kyc/applications/${referred}/submit`, { tenant }), 'submit');
  }
  await advance(t, { minutes: 5 });

  // An order (queued: the clock is before the open) for each tenant.
  const invs = pools.strings('investor_id');
  for (const [i, tenant] of [t.creds.tenant, other].entries()) {
    const order = { investor_id: invs[i], symbol, side: 'buy', type: 'limit', qty: 10, time_in_force: 'gtc', client_order_id: `fuzz-${i}` };
    const quote = keep(await t.req('GET', `/v1/instruments/${symbol}/quote`, { tenant }), 'quote').body;
    const limit = quote.band.lower_micros;
    const res = await t.req('POST', '/v1/orders', { body: { ...order, limit_price_micros: limit }, tenant });
    if (res.status < 300) {
      pools.harvest(res.body);
      pools.example({ ...order, limit_price_micros: limit });
    }
  }
  pools.example({ reason_code: 'OTHER', status: 'restricted', reason: 'fuzz', halted: true, enabled: false, mode: 'frozen', minutes: 1 });

  // Every list route (a GET without path parameters), for the ids it shows.
  const ops = await loadOperations(t);
  for (const op of ops) {
    if (op.method !== 'GET' || op.pathParams.length) continue;
    const res = await t.app.inject({ method: 'GET', url: op.path, headers: credentialHeaders(t, op.auth) });
    if (res.statusCode === 200 && String(res.headers['content-type']).includes('json')) pools.harvest(JSON.parse(res.body));
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
  return fuzzAll(world.env, world.ops, world.pools, { totalRuns, seed });
}

export function formatStats(s: FuzzStats, seed: number, ops: number): string {
  const top = (o: Record<string, number>, n = 12) => Object.entries(o).sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${k}=${v}`).join(' ');
  return [
    `fuzz: ${s.requests} requests over ${ops} operations in ${(s.ms / 1000).toFixed(1)} s (${Math.round(s.requests / (s.ms / 1000))}/s), seed ${seed}`,
    `  statuses: ${top(s.byStatus, 20)}`,
    `  codes: ${top(s.byCode, 16)}`,
    `  mutations: ${top(s.byMutation, 30)}`,
    `  accepted ${s.accepted}, business refusals stored as idempotency records ${s.storedRefusals} (replayed ${s.replays})`,
    ...(process.env.SVC_FUZZ_VERBOSE ? Object.entries(s.byOp).map(([op, o]) => `  ${op}: ${top(o, 40)}`) : []),
  ].join('\n');
}
