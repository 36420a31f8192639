// A real daemon listening on a port (the app of test/helpers/app.ts on a real SQLite file) and the
// library's clients for it: the tenant client, the sandbox controls, the dealer desk and the back office.
import { BackOffice, DealerDesk, Sandbox, SvcClient, type ClientOptions } from '../../client/src/index.js';
import { makeApp, type TestApp, type TestAppOptions } from './app.js';
import { BALANCED, nationalId, SAMPLE_BACK, SAMPLE_FRONT } from './onboarding.js';

export interface ClientSandbox {
  t: TestApp;
  baseUrl: string;
  /** A tenant client of the bootstrap tenant (more options: `tenant({ ... })`). */
  client: SvcClient;
  tenant(options?: Partial<ClientOptions>): SvcClient;
  sandbox: Sandbox;
  desk: DealerDesk;
  backOffice: BackOffice;
  close(): Promise<void>;
}

export async function clientSandbox(opts: TestAppOptions = {}): Promise<ClientSandbox> {
  const t = await makeApp(opts);
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { creds } = t;
  const tenant = (o: Partial<ClientOptions> = {}) =>
    new SvcClient({ baseUrl, apiKey: creds.tenant.api_key, signingSecret: creds.tenant.signing_secret, ...o });
  return {
    t,
    baseUrl,
    client: tenant(),
    tenant,
    sandbox: new Sandbox({ baseUrl, key: creds.operators.admin_key, stepUpSecret: creds.step_up.admin }),
    desk: new DealerDesk({ baseUrl, key: creds.operators.dealer_key, stepUpSecret: creds.step_up.dealer }),
    backOffice: new BackOffice({ baseUrl, key: creds.operators.admin_key, stepUpSecret: creds.step_up.admin }),
    close: () => t.close(),
  };
}

/** An approved investor with suitability on file, onboarded through the client: KYC with both ID images. */
export async function onboard(client: SvcClient): Promise<string> {
  const { nationalId: id, dateOfBirth } = nationalId();
  const app = await client.kyc.create({
    full_name: 'Mona Hassan',
    national_id: id,
    date_of_birth: dateOfBirth,
    email: 'mona.hassan@example.com',
    phone: '01012345678',
    address: '12 Tahrir Street, Downtown, Cairo',
  });
  await client.kyc.uploadDocument(app.application_id, 'national_id_front', SAMPLE_FRONT);
  await client.kyc.uploadDocument(app.application_id, 'national_id_back', SAMPLE_BACK);
  await client.kyc.submit(app.application_id);
  const decided = await client.waitFor.kyc(app.application_id, { until: 'approved' });
  const investorId = decided.investor_id ?? '';
  await client.investors.setSuitability(investorId, {
    questionnaire: BALANCED,
    risk_acknowledged: true,
  });
  return investorId;
}
