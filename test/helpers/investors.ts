// Approved investors for ledger and funding tests, inserted straight into `investors` (the row KYC
// approval writes), so these tests do not depend on the onboarding flow.
import type { TestApp } from './app.js';

export interface SeedInvestorOptions {
  /** Defaults to the bootstrap tenant. */
  tenantId?: string;
  status?: 'active' | 'restricted' | 'closed';
  fullName?: string;
}

export function seedInvestor(t: TestApp, opts: SeedInvestorOptions = {}): string {
  const id = t.deps.ids.next('inv');
  const now = t.deps.clock.now();
  t.deps.db
    .prepare(
      `INSERT INTO investors (id, tenant_id, broker_id, application_id, account_number, full_name, status,
        created_at, created_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      opts.tenantId ?? t.creds.tenant.tenant_id,
      t.creds.broker_id,
      t.deps.ids.next('kyc'),
      `ACC-${id.slice(4).toUpperCase()}`,
      opts.fullName ?? 'Mona Hassan',
      opts.status ?? 'active',
      t.deps.nowIso(),
      now,
    );
  return id;
}
