// svc desk funding list|approve|reject: the dealer's funding approvals (X-Console-Key from the
// profile). Transfers wait for a decision only while manual funding approval is on.
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { chalk, egp, ok, printJson, table, usage } from '../output.js';
import { FUNDING_REJECT_REASONS, TRANSFER_APPROVALS, TRANSFER_STATES } from '../../daemon/contract/funding.js';
import type { FundingDeskTransfer } from '../../daemon/contract/schemas/funding.js';

export interface ListOptions {
  approval?: string;
  state?: string;
  limit?: string;
}

export interface RejectOptions {
  reason?: string;
}

export async function list(opts: ListOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const params = new URLSearchParams();
  if (opts.approval !== undefined) {
    if (opts.approval !== 'any' && !(TRANSFER_APPROVALS as readonly string[]).includes(opts.approval))
      usage(`--approval must be any or one of ${TRANSFER_APPROVALS.join(', ')}`);
    params.set('approval', opts.approval);
  }
  if (opts.state !== undefined) {
    if (!(TRANSFER_STATES as readonly string[]).includes(opts.state))
      usage(`--state must be one of ${TRANSFER_STATES.join(', ')}`);
    params.set('state', opts.state);
  }
  if (opts.limit !== undefined) params.set('limit', String(opts.limit));
  const qs = params.size ? `?${params}` : '';
  const res = ok(
    await api<{ funding: FundingDeskTransfer[] }>(resolveProfile(g), 'GET', `/broker/v1/funding${qs}`),
    json,
  );
  if (json) {
    printJson(res);
    return;
  }
  if (res.funding.length === 0) {
    process.stdout.write(
      opts.approval === undefined ? 'No transfers waiting for a funding decision.\n' : 'No transfers.\n',
    );
    return;
  }
  process.stdout.write(
    `${table(
      ['transfer', 'tenant', 'investor', 'name', 'direction', 'EGP', 'state', 'approval', 'created'],
      res.funding.map((t) => [
        t.transfer_id,
        t.tenant_id,
        t.investor_id,
        t.investor_name,
        t.direction,
        egp(t.amount_micros),
        t.state,
        t.approval,
        t.created_at,
      ]),
    )}\n`,
  );
}

function decided(t: FundingDeskTransfer): void {
  const tail = t.approval === 'approved' ? 'the rail steps start in one simulated minute' : `reason ${t.reason_code}`;
  process.stdout.write(
    `${t.transfer_id}: ${t.approval === 'approved' ? chalk.green('approved') : chalk.red('rejected')} (${tail})\n`,
  );
}

export async function approve(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const t = ok(
    await api<FundingDeskTransfer>(
      resolveProfile(g),
      'POST',
      `/broker/v1/funding/${encodeURIComponent(args[0])}/approve`,
    ),
    json,
  );
  if (json) printJson(t);
  else decided(t);
}

export async function reject(opts: RejectOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  if (opts.reason === undefined) usage(`missing --reason CODE (one of ${FUNDING_REJECT_REASONS.join(', ')})`);
  if (!(FUNDING_REJECT_REASONS as readonly string[]).includes(opts.reason))
    usage(`--reason must be one of ${FUNDING_REJECT_REASONS.join(', ')}`);
  const t = ok(
    await api<FundingDeskTransfer>(
      resolveProfile(g),
      'POST',
      `/broker/v1/funding/${encodeURIComponent(args[0])}/reject`,
      { body: { reason_code: opts.reason } },
    ),
    json,
  );
  if (json) printJson(t);
  else decided(t);
}
