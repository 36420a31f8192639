// A sandbox with work waiting on every ops screen: an investor who bought and sold COMI four minutes
// apart on Tuesday 24 Nov 2026 (a wash_trade surveillance alert, raised by an on-demand run), a
// ledger:adjust proposed by security, an injected cash reconciliation break, and a complaint received.
// With desk work too (for the dealer's screens): an order waiting in the queue, a deposit waiting for
// approval and a KYC referral. The daemon is started by the real `svc sandbox start` (the console_url the
// browser opens); the state is made over HTTP from the test process (sandbox-http.ts): the svc binary's
// own commands are proven in test/cli/.
import { expect } from 'vitest';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { applyKyc, type Calls, callsOf, deposit, marketOrder, onboardOverHttp } from './sandbox-http.js';

export interface OpsSandbox {
  sbx: CliSandbox;
  /** The test process's clients of the same daemon. */
  calls: Calls;
  inv: string;
  investorName: string;
  alertId: string;
  actionId: string;
  breakId: string;
  complaintId: string;
  complaintSummary: string;
  proposalReason: string;
}

/** A wash pattern and an on-demand surveillance run: one open wash_trade alert. */
async function washAlert(c: Calls, inv: string): Promise<string> {
  await c.sandbox.clock.advanceUntil('next_open');
  await marketOrder(c, inv, 'buy', 'COMI', 20);
  // Tuesday: Sunday's shares have settled (T+2) and can be sold.
  await c.sandbox.clock.advanceUntil('2026-11-24T10:00:00+02:00');
  await marketOrder(c, inv, 'buy', 'COMI', 10);
  await c.sandbox.clock.advance({ minutes: 4 });
  await marketOrder(c, inv, 'sell', 'COMI', 10);
  await c.as('admin').request('post', '/admin/surveillance/runs', { body: {} });
  const { alerts } = await c.as('admin').request('get', '/admin/surveillance/alerts', { query: { state: 'open' } });
  expect(alerts).toHaveLength(1);
  return alerts[0].alert_id;
}

export async function startOpsSandbox(): Promise<OpsSandbox> {
  const sbx = await startSandbox(['--clock', 'frozen']);
  const c = callsOf(sbx);
  const investorName = 'Karim Adel';
  const inv = await onboardOverHttp(c, { fullName: investorName, suitability: true, depositEgp: 20_000 });
  const alertId = await washAlert(c, inv);
  const proposalReason = 'refund of a duplicated fee';
  const proposed = await c.as('security').request('post', '/admin/actions', {
    body: {
      action: 'ledger:adjust',
      params: { tenant_id: sbx.info.tenant_id, investor_id: inv, amount_micros: 12_500_000 },
      reason: proposalReason,
    },
  });
  await c.sandbox.injectBreak({ investor_id: inv, kind: 'cash', amount: 125_000_000 });
  // the business day the clock is on (Tuesday 24 Nov), as `svc admin recon run` picks it
  const today = (await c.tenant.request('get', '/v1/clock')).timestamp.slice(0, 10);
  await c.as('admin').request('post', '/admin/reconciliation/runs', { body: { date: today } });
  const { breaks } = await c.as('admin').request('get', '/admin/reconciliation/breaks');
  const complaintSummary = 'Charged twice for one order';
  const complaint = await c.as('admin').request('post', '/admin/complaints', {
    body: { investor_id: inv, category: 'fees', channel: 'email', summary: complaintSummary },
  });
  return {
    sbx,
    calls: c,
    inv,
    investorName,
    alertId,
    proposalReason,
    complaintSummary,
    actionId: proposed.action_id,
    breakId: breaks.find((b) => b.state === 'open')!.break_id,
    complaintId: complaint.complaint_id,
  };
}

/** Desk work for the dealer: a queued order (auto-fill off), a deposit waiting for approval, a KYC referral. Returns
 * the referred applicant's name. */
export async function deskWork(o: OpsSandbox): Promise<string> {
  const { calls: c, inv } = o;
  await c.sandbox.autoFill({ enabled: false });
  await marketOrder(c, inv, 'buy', 'COMI', 3);
  await c.sandbox.request('post', '/admin/sandbox/manual-funding', { body: { enabled: true } });
  await deposit(c, inv, 1234);
  const name = 'Mona Referred';
  await applyKyc(c, { fullName: name, email: 'mona@example.com', suffix: '9999' });
  return name;
}
