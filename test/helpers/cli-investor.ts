// An approved investor with suitability on file and cash deposited, made through the real `svc` (for
// CLI and screen tests that run against a real daemon).
import { expect } from 'vitest';
import type { CliSandbox } from './cli.js';
import { nationalId } from './onboarding.js';

export async function cliInvestor(sbx: CliSandbox, opts: { name?: string; depositEgp?: string } = {}): Promise<string> {
  const { nationalId: id, dateOfBirth } = nationalId();
  const kyc = await sbx.svc([
    'kyc',
    'apply',
    '--full-name',
    opts.name ?? 'Omar Farouk',
    '--national-id',
    id,
    '--dob',
    dateOfBirth,
    '--email',
    'omar@example.com',
    '--phone',
    '01012345678',
    '--address',
    '12 Tahrir Street, Cairo',
    '--sample-documents',
    '--json',
  ]);
  expect(kyc.code, kyc.stderr).toBe(0);
  const inv: string = kyc.json.investor_id;
  const suit = await sbx.svc([
    'investor',
    'suitability',
    inv,
    '--experience',
    'moderate',
    '--horizon',
    '3_5y',
    '--risk',
    'medium',
    '--income',
    '300k_1m',
    '--net-worth',
    '1m_5m',
    '--objectives',
    'growth',
    '--ack-risk',
    '--json',
  ]);
  expect(suit.code, suit.stderr).toBe(0);
  if (opts.depositEgp) {
    const dep = await sbx.svc(['transfer', 'deposit', opts.depositEgp, '--investor', inv, '--json']);
    expect(dep.code, dep.stderr).toBe(0);
  }
  return inv;
}
