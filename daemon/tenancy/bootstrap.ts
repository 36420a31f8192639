// First start: the sandbox state row, the broker of record from fixtures, one tenant and the operator
// identities (admin, dealer, security, approver, compliance, auditor). Keys are random and shown once; the CLI keeps
// them in the credentials file of $SVC_HOME. daemon/deps.ts calls it while it builds the container, so it takes only
// what it uses (never Deps: that would be an import circle).
import { readFixture } from '../fixtures.js';
import type { Db } from '../store/db.js';
import type { Audit } from '../store/audit.js';
import type { ClockMode } from '../sim/clock.js';
import type { KeyStore, TenantCredentials } from './keys.js';
import type { BrokersRow } from '../store/rows.js';

/** How a new sandbox starts (daemon flags, or a test's options). */
export interface SandboxOptions {
  seed: number;
  startMs: number;
  clockMode: ClockMode;
  speedMilli: number;
}

/**
 * The first tenant's name: a name a person can read, because it is also what the tenant's branding
 * and statements show until the tenant sets a display name (docs/branding.md, "Fields and defaults").
 */
export const BOOTSTRAP_TENANT_NAME = 'Sandbox Fintech';

/** What provisioning the first tenant and the operators needs, once the container exists. */
export interface ProvisionDeps {
  keys: Pick<KeyStore, 'createTenant' | 'createOperator'>;
  audit: Pick<Audit, 'append'>;
}

/** The broker of the fixture: a row of brokers as it is inserted. */
export type BrokerFixture = BrokersRow;

export interface BootstrapResult {
  tenant: TenantCredentials;
  broker_id: string;
  operators: {
    admin_key: string;
    dealer_key: string;
    security_key: string;
    approver_key: string;
    compliance_key: string;
    auditor_key: string;
  };
  /** Each identity's step-up secret (base32 TOTP), shown once like its key. */
  step_up: { admin: string; dealer: string; security: string; approver: string; compliance: string; auditor: string };
}

export function bootstrapIfEmpty(
  db: Db,
  opts: SandboxOptions,
  wallNow: () => number,
): { provision(deps: ProvisionDeps): BootstrapResult } | null {
  const exists = db.prepare('SELECT 1 FROM sandbox_state WHERE id = 1').get();
  if (exists) return null;
  db.prepare(
    'INSERT INTO sandbox_state (id, seed, start_ms, clock_mode, sim_ms, wall_anchor_ms, speed_milli, ' +
      'processed_ms) VALUES (1, ?, ?, ?, ?, ?, ?, ?)',
  ).run(opts.seed, opts.startMs, opts.clockMode, opts.startMs, wallNow(), opts.speedMilli, opts.startMs);
  return {
    provision(deps) {
      return db.transaction(() => {
        const brokers = readFixture<BrokerFixture[]>('brokers.json');
        const ins = db.prepare(
          'INSERT INTO brokers (id, name, name_ar, fra_license_no, contact_email, contact_phone) VALUES (?,?,?,?,?,?)',
        );
        for (const b of brokers) ins.run(b.id, b.name, b.name_ar, b.fra_license_no, b.contact_email, b.contact_phone);
        const brokerId = brokers[0].id;
        const tenant = deps.keys.createTenant(BOOTSTRAP_TENANT_NAME);
        const admin = deps.keys.createOperator('admin', 'admin', null);
        const dealer = deps.keys.createOperator('dealer', 'dealer', brokerId);
        const security = deps.keys.createOperator('security', 'security', null);
        const approver = deps.keys.createOperator('approver', 'approver', null);
        const compliance = deps.keys.createOperator('compliance', 'compliance', null);
        // Last, so the identities above keep the ids they had before the auditor was minted.
        const auditor = deps.keys.createOperator('auditor', 'auditor', null);
        deps.audit.append({
          actor: 'system',
          action: 'sandbox.bootstrap',
          subject: tenant.tenant_id,
          tenantId: tenant.tenant_id,
          detail: { seed: opts.seed },
        });
        return {
          tenant,
          broker_id: brokerId,
          operators: {
            admin_key: admin.key,
            dealer_key: dealer.key,
            security_key: security.key,
            approver_key: approver.key,
            compliance_key: compliance.key,
            auditor_key: auditor.key,
          },
          step_up: {
            admin: admin.stepUpSecret,
            dealer: dealer.stepUpSecret,
            security: security.stepUpSecret,
            approver: approver.stepUpSecret,
            compliance: compliance.stepUpSecret,
            auditor: auditor.stepUpSecret,
          },
        };
      })();
    },
  };
}
