// A sandbox with work waiting on every ops screen, made through the real `svc` binary: an investor
// who bought and sold COMI four minutes apart on Tuesday 24 Nov 2026 (a wash_trade surveillance alert,
// raised by an on-demand run), a ledger:adjust proposed by security, an injected cash reconciliation
// break, and a complaint received. With desk work too (for the dealer's screens): an order waiting in
// the queue, a deposit waiting for approval and a KYC referral.
import { expect } from 'vitest';
import { onboardViaCli, startSandbox, type CliResult, type CliSandbox } from '../helpers/cli.js';
import { nationalId } from '../helpers/onboarding.js';

export interface OpsSandbox {
  sbx: CliSandbox;
  inv: string;
  investorName: string;
  alertId: string;
  actionId: string;
  breakId: string;
  complaintId: string;
  complaintSummary: string;
  proposalReason: string;
}

async function must(sbx: CliSandbox, args: string[]): Promise<CliResult> {
  const res = await sbx.svc(args);
  if (res.code !== 0) throw new Error(`svc ${args.join(' ')}: ${res.stderr}`);
  return res;
}

const api = (sbx: CliSandbox, method: string, path: string, body?: unknown) =>
  must(sbx, ['api', method, path, ...(body === undefined ? [] : ['-d', JSON.stringify(body)])]);

/** A wash pattern and an on-demand surveillance run: one open wash_trade alert. */
async function washAlert(sbx: CliSandbox, inv: string): Promise<string> {
  await must(sbx, ['clock', 'advance', '--until', 'next_open']);
  await must(sbx, ['order', 'buy', 'COMI', '20', '--investor', inv]);
  // Tuesday: Sunday's shares have settled (T+2) and can be sold.
  await must(sbx, ['clock', 'advance', '--until', '2026-11-24T10:00:00+02:00']);
  await must(sbx, ['order', 'buy', 'COMI', '10', '--investor', inv]);
  await must(sbx, ['clock', 'advance', '--minutes', '4']);
  await must(sbx, ['order', 'sell', 'COMI', '10', '--investor', inv]);
  await must(sbx, ['admin', 'alerts', 'run']);
  const alerts = (await must(sbx, ['admin', 'alerts', '--state', 'open', '--json'])).json.alerts as Array<{
    alert_id: string;
  }>;
  expect(alerts).toHaveLength(1);
  return alerts[0].alert_id;
}

export async function startOpsSandbox(): Promise<OpsSandbox> {
  const sbx = await startSandbox(['--clock', 'frozen']);
  const investorName = 'Karim Adel';
  const inv = await onboardViaCli(sbx, { fullName: investorName, suitability: true, depositEgp: '20000' });
  const alertId = await washAlert(sbx, inv);
  const proposalReason = 'refund of a duplicated fee';
  const proposed = await must(sbx, [
    'admin',
    'propose',
    'ledger:adjust',
    '--param',
    `tenant_id=${sbx.info.tenant_id}`,
    '--param',
    `investor_id=${inv}`,
    '--param',
    'amount_micros=12500000',
    '--reason',
    proposalReason,
    '--json',
  ]);
  await api(sbx, 'POST', '/admin/sandbox/inject-break', { investor_id: inv, kind: 'cash', amount: 125_000_000 });
  await must(sbx, ['admin', 'recon', 'run', '--json']);
  const breaks = (await api(sbx, 'GET', '/admin/reconciliation/breaks')).json.breaks as Array<{
    break_id: string;
    state: string;
  }>;
  const complaintSummary = 'Charged twice for one order';
  const complaint = await api(sbx, 'POST', '/admin/complaints', {
    investor_id: inv,
    category: 'fees',
    channel: 'email',
    summary: complaintSummary,
  });
  return {
    sbx,
    inv,
    investorName,
    alertId,
    proposalReason,
    complaintSummary,
    actionId: proposed.json.action_id as string,
    breakId: breaks.find((b) => b.state === 'open')!.break_id,
    complaintId: complaint.json.complaint_id as string,
  };
}

/** Desk work for the dealer: a queued order (auto-fill off), a deposit waiting for approval, a KYC referral. Returns
 * the referred applicant's name. */
export async function deskWork(o: OpsSandbox): Promise<string> {
  const { sbx, inv } = o;
  await api(sbx, 'POST', '/admin/sandbox/auto-fill', { enabled: false });
  await must(sbx, ['order', 'buy', 'COMI', '3', '--investor', inv]);
  await api(sbx, 'POST', '/admin/sandbox/manual-funding', { enabled: true });
  await must(sbx, ['transfer', 'deposit', '1234', '--investor', inv]);
  const { nationalId: id, dateOfBirth } = nationalId('9999');
  const name = 'Mona Referred';
  await must(sbx, [
    'kyc',
    'apply',
    '--full-name',
    name,
    '--national-id',
    id,
    '--dob',
    dateOfBirth,
    '--email',
    'mona@example.com',
    '--phone',
    '01012345678',
    '--address',
    '12 Tahrir Street, Cairo',
    '--sample-documents',
  ]);
  return name;
}
