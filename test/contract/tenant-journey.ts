// A third-party client of the tenant journey, written only against the types openapi-typescript
// generates from GET /openapi.json (client/src/generated/api.ts) and run with openapi-fetch: KYC with both ID
// images, suitability, a signed deposit, the clock moved to the open by the sandbox admin, a signed
// market order, the balances and the contract note. It imports nothing of the daemon: signing is
// written from docs/api.md, as an integrator would. It must compile under strict TypeScript without a
// cast; test/contract/generated-client.test.ts type-checks it against freshly generated types and runs it.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { components, paths } from '../../client/src/generated/api.js';

type Order = components['schemas']['Order'];
type ContractNote = components['schemas']['ContractNote'];
type Balances = components['schemas']['Balances'];
type DocumentSide = paths['/v1/kyc/applications/{id}/documents/{side}']['put']['parameters']['path']['side'];

export interface JourneyConfig {
  baseUrl: string;
  apiKey: string;
  signingSecret: string;
  adminKey: string;
  /** The two sides of the national id, as PNG bytes. */
  idFront: Buffer;
  idBack: Buffer;
  nationalId: string;
  dateOfBirth: string;
}

export interface JourneyResult {
  investorId: string;
  order: Order;
  balances: Balances;
  contractNote: ContractNote;
}

/** The headers of a signed request (docs/api.md, "Signing"): the body is the exact bytes sent. */
export function signedHeaders(secret: string, method: string, path: string, body: string) {
  const key = randomUUID();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const bodyHash = createHash('sha256').update(body).digest('hex');
  const text = ['v1', timestamp, method, path, '', key, bodyHash].join('\n');
  const signature = `v1=${createHmac('sha256', secret).update(text).digest('hex')}`;
  return { 'Idempotency-Key': key, 'X-Svc-Timestamp': timestamp, 'X-Svc-Signature': signature };
}

function must<T>(what: string, r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data === undefined) throw new Error(`${what}: ${r.response.status} ${JSON.stringify(r.error)}`);
  return r.data;
}

function idem() {
  return { 'Idempotency-Key': randomUUID() };
}

/** KYC: create, upload both sides (raw PNG bytes), submit, read the decision; then suitability. */
async function onboard(tenant: ReturnType<typeof createClient<paths>>, cfg: JourneyConfig): Promise<string> {
  const created = must(
    'create application',
    await tenant.POST('/v1/kyc/applications', {
      params: { header: idem() },
      body: {
        full_name: 'Mona Hassan',
        national_id: cfg.nationalId,
        date_of_birth: cfg.dateOfBirth,
        email: 'mona.hassan@example.com',
        phone: '01012345678',
        address: '12 Tahrir Street, Downtown, Cairo',
      },
    }),
  );
  const id = created.application_id;
  const sides: Array<[DocumentSide, Buffer]> = [
    ['national_id_front', cfg.idFront],
    ['national_id_back', cfg.idBack],
  ];
  for (const [side, bytes] of sides) {
    must(
      `upload ${side}`,
      await tenant.PUT('/v1/kyc/applications/{id}/documents/{side}', {
        params: { path: { id, side }, header: idem() },
        // The generated type of a binary body is string: the bytes travel as a latin1 string, one char a byte.
        body: bytes.toString('latin1'),
        bodySerializer: (b: string) => Buffer.from(b, 'latin1'),
        headers: { 'Content-Type': 'image/png' },
      }),
    );
  }
  must('submit', await tenant.POST('/v1/kyc/applications/{id}/submit', { params: { path: { id }, header: idem() } }));
  const application = must(
    'read application',
    await tenant.GET('/v1/kyc/applications/{id}', { params: { path: { id } } }),
  );
  if (application.state !== 'approved' || application.investor_id === null)
    throw new Error(`application ${id} is ${application.state}`);
  const investorId = application.investor_id;
  must(
    'suitability',
    await tenant.PUT('/v1/investors/{id}/suitability', {
      params: { path: { id: investorId }, header: idem() },
      body: {
        questionnaire: {
          investment_experience: 'moderate',
          horizon: '3_5y',
          risk_tolerance: 'medium',
          annual_income_band: '300k_1m',
          net_worth_band: '1m_5m',
          objectives: ['growth'],
          shariah_only: false,
        },
        risk_acknowledged: true,
      },
    }),
  );
  return investorId;
}

export async function runTenantJourney(cfg: JourneyConfig): Promise<JourneyResult> {
  const tenant = createClient<paths>({ baseUrl: cfg.baseUrl, headers: { Authorization: `Bearer ${cfg.apiKey}` } });
  const admin = createClient<paths>({ baseUrl: cfg.baseUrl, headers: { 'X-Admin-Key': cfg.adminKey } });
  const investorId = await onboard(tenant, cfg);

  const deposit: components['schemas']['TransferRequest'] = {
    investor_id: investorId,
    direction: 'deposit',
    amount_micros: 50_000_000_000,
  };
  must(
    'deposit',
    await tenant.POST('/v1/transfers', {
      params: { header: signedHeaders(cfg.signingSecret, 'POST', '/v1/transfers', JSON.stringify(deposit)) },
      body: deposit,
    }),
  );
  const clock = must(
    'advance to the open',
    await admin.POST('/admin/sandbox/clock-advance', { body: { until: 'next_open' } }),
  );
  if (!clock.is_open) throw new Error(`the market is not open at ${clock.timestamp}`);

  const request: components['schemas']['OrderRequest'] = {
    investor_id: investorId,
    symbol: 'COMI',
    side: 'buy',
    type: 'market',
    qty: 10,
  };
  const order = must(
    'order',
    await tenant.POST('/v1/orders', {
      params: { header: signedHeaders(cfg.signingSecret, 'POST', '/v1/orders', JSON.stringify(request)) },
      body: request,
    }),
  );
  const balances = must(
    'balances',
    await tenant.GET('/v1/investors/{id}/balances', { params: { path: { id: investorId } } }),
  );
  const contractNote = must(
    'contract note',
    await tenant.GET('/v1/orders/{id}/contract-note', { params: { path: { id: order.order_id } } }),
  );
  return { investorId, order, balances, contractNote };
}
