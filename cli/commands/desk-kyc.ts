// svc desk kyc list|clear|decline: the dealer's KYC review (X-Console-Key from the profile).
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { chalk, ok, printJson, table, usage } from '../output.js';
import { KYC_DECLINE_REASONS, KYC_STATES } from '../../daemon/contract/kyc.js';
import type { DealerKycApplication } from '../../daemon/contract/schemas/onboarding.js';

export interface ListOptions {
  state?: string;
  tenant?: string;
  limit?: string;
}

export interface DeclineOptions {
  reason?: string;
  note?: string;
}

export async function list(opts: ListOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const params = new URLSearchParams();
  if (opts.state !== undefined) {
    if (opts.state !== 'all' && !(KYC_STATES as readonly string[]).includes(opts.state))
      usage(`--state must be all or one of ${KYC_STATES.join(', ')}`);
    params.set('state', opts.state);
  }
  if (opts.tenant !== undefined) params.set('tenant_id', opts.tenant);
  if (opts.limit !== undefined) params.set('limit', String(opts.limit));
  const qs = params.size ? `?${params}` : '';
  const res = ok(
    await api<{ applications: DealerKycApplication[] }>(resolveProfile(g), 'GET', `/broker/v1/kyc${qs}`),
    json,
  );
  if (json) {
    printJson(res);
    return;
  }
  if (res.applications.length === 0) {
    process.stdout.write(
      `No applications${opts.state && opts.state !== 'screening_referred' ? '' : ' waiting for review'}.\n`,
    );
    return;
  }
  process.stdout.write(
    `${table(
      ['application', 'tenant', 'state', 'path', 'name', 'national id', 'born', 'docs', 'submitted'],
      res.applications.map((a) => [
        a.application_id,
        a.tenant_id,
        a.state,
        a.path ?? '-',
        a.full_name,
        a.national_id_masked,
        a.date_of_birth,
        a.documents.length,
        a.submitted_at ?? '-',
      ]),
    )}\n`,
  );
}

function decided(app: DealerKycApplication): void {
  const tail = app.state === 'approved' ? `investor ${app.investor_id}` : `reason ${app.reason_code}`;
  process.stdout.write(
    `${app.application_id}: ${app.state === 'approved' ? chalk.green(app.state) : chalk.red(app.state)} (${tail})\n`,
  );
}

export async function clear(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const app = ok(
    await api<DealerKycApplication>(resolveProfile(g), 'POST', `/broker/v1/kyc/${encodeURIComponent(args[0])}/clear`),
    json,
  );
  if (json) printJson(app);
  else decided(app);
}

export async function decline(opts: DeclineOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  if (opts.reason === undefined) usage(`missing --reason CODE (one of ${KYC_DECLINE_REASONS.join(', ')})`);
  if (!(KYC_DECLINE_REASONS as readonly string[]).includes(opts.reason))
    usage(`--reason must be one of ${KYC_DECLINE_REASONS.join(', ')}`);
  const body = opts.note === undefined ? { reason_code: opts.reason } : { reason_code: opts.reason, note: opts.note };
  const app = ok(
    await api<DealerKycApplication>(
      resolveProfile(g),
      'POST',
      `/broker/v1/kyc/${encodeURIComponent(args[0])}/decline`,
      { body },
    ),
    json,
  );
  if (json) printJson(app);
  else decided(app);
}
