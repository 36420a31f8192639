// The test process's own calls to the daemon the browser uses, through the typed client library
// (client/) with the keys `svc sandbox start` printed: the tenant client (signed), each operator
// identity's back-office client (its key, and its step-up secret for money and approval routes) and
// the dealer desk. Console tests build the state their screens show this way, in process: what the svc
// binary does with the same calls is proven in test/cli/ (docs/architecture.md, "Tests").
import { BackOffice, DealerDesk, Sandbox, SvcClient } from '../../client/src/index.js';
import type { CliSandbox } from '../helpers/cli.js';
import type { CONSOLE_ENROL_ROLES } from '../../daemon/contract/schemas/console.js';
import { BALANCED, nationalId, SAMPLE_BACK, SAMPLE_FRONT } from '../helpers/onboarding.js';

/** The operator identities of the back office (the dealer's desk is `desk`). */
export type BackOfficeIdentity = 'admin' | 'security' | 'approver' | 'compliance' | 'auditor';

/** The roles a console enrolment is for. */
export type EnrolRole = (typeof CONSOLE_ENROL_ROLES)[number];

export interface Calls {
  tenant: SvcClient;
  /** The sandbox controls, as admin. */
  sandbox: Sandbox;
  /** The back office as one identity. */
  as(identity: BackOfficeIdentity): BackOffice;
  desk: DealerDesk;
}

export function callsOf(sbx: CliSandbox): Calls {
  const info = sbx.info as Record<string, string>;
  const baseUrl = info.base_url;
  const operator = (id: string) => ({ baseUrl, key: info[`${id}_key`], stepUpSecret: info[`${id}_step_up`] });
  const offices = new Map<BackOfficeIdentity, BackOffice>();
  return {
    tenant: new SvcClient({ baseUrl, apiKey: info.api_key, signingSecret: info.signing_secret }),
    sandbox: new Sandbox(operator('admin')),
    as(identity) {
      let office = offices.get(identity);
      if (!office) offices.set(identity, (office = new BackOffice(operator(identity))));
      return office;
    },
    desk: new DealerDesk(operator('dealer')),
  };
}

/** A KYC application with both sample ID images, submitted (as `svc kyc apply --sample-documents` makes one).
 * `suffix` 9999 makes the screening refer it to the desk. */
export async function applyKyc(
  c: Calls,
  o: { fullName: string; email: string; suffix?: string },
): Promise<{ application_id: string; state: string; investor_id?: string | null }> {
  const { nationalId: id, dateOfBirth } = nationalId(o.suffix);
  const app = await c.tenant.kyc.create({
    full_name: o.fullName,
    national_id: id,
    date_of_birth: dateOfBirth,
    email: o.email,
    phone: '01012345678',
    address: '12 Tahrir Street, Cairo',
  });
  const png = { contentType: 'image/png' };
  await c.tenant.kyc.uploadDocument(app.application_id, 'national_id_front', SAMPLE_FRONT, png);
  await c.tenant.kyc.uploadDocument(app.application_id, 'national_id_back', SAMPLE_BACK, png);
  await c.tenant.kyc.submit(app.application_id);
  return c.tenant.kyc.get(app.application_id);
}

/** An approved investor (as test/helpers/cli.ts's onboardViaCli makes one): KYC with the sample images,
 * suitability when asked, and a deposit completed by advancing the clock three minutes. */
export async function onboardOverHttp(
  c: Calls,
  o: { fullName: string; suitability?: boolean; depositEgp?: number },
): Promise<string> {
  const email = `${o.fullName.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;
  const app = await applyKyc(c, { fullName: o.fullName, email });
  if (app.state !== 'approved' || !app.investor_id) throw new Error(`KYC of ${o.fullName}: ${app.state}`);
  const inv = app.investor_id;
  if (o.suitability) {
    await c.tenant.investors.setSuitability(inv, {
      questionnaire: BALANCED,
      risk_acknowledged: true,
    });
  }
  if (o.depositEgp) {
    await deposit(c, inv, o.depositEgp);
    await c.sandbox.clock.advance({ minutes: 3 });
  }
  return inv;
}

/** A deposit of whole EGP (integer micros on the wire). */
export const deposit = (c: Calls, inv: string, egp: number) =>
  c.tenant.transfers.create({ investor_id: inv, direction: 'deposit', amount_micros: egp * 1_000_000 });

/** A market day order of whole shares. */
export const marketOrder = (c: Calls, inv: string, side: 'buy' | 'sell', symbol: string, qty: number) =>
  c.tenant.orders.create({ investor_id: inv, symbol, side, type: 'market', qty });

/** The investor's settled EGP, in micros. */
export async function settledCash(c: Calls, inv: string): Promise<number> {
  const b = await c.tenant.request('get', '/v1/investors/{id}/balances', { path: { id: inv } });
  return b.cash.find((x: { asset: string }) => x.asset === 'cash:EGP')?.settled ?? 0;
}

/** The one-time enrolment link of the first identity of a role, asked of the daemon with the admin key and
 * spelled as `svc console enroll` spells it (on localhost; browser.ts's enrolLink runs the command itself). */
export async function enrolLinkOverHttp(sbx: CliSandbox, c: Calls, role: EnrolRole): Promise<string> {
  const e = await c.sandbox.request('post', '/admin/console/enrolments', { body: { role } });
  const origin = new URL(sbx.info.console_url as string).origin;
  return `${origin}/console/enroll?code=${encodeURIComponent(e.enrolment_token)}`;
}
