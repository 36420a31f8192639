// credentials.json in the home (0600): what a first start minted, which `svc` reads into its default profile.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BootstrapResult } from '../tenancy/bootstrap.js';

/** Writes the keys and step-up secrets a first start minted; readable by the owner only. */
export function writeCredentialsFile(home: string, b: BootstrapResult): void {
  const credentialsFile = join(home, 'credentials.json');
  const creds = {
    tenant_id: b.tenant.tenant_id,
    api_key: b.tenant.api_key,
    signing_secret: b.tenant.signing_secret,
    broker_id: b.broker_id,
    admin_key: b.operators.admin_key,
    dealer_key: b.operators.dealer_key,
    security_key: b.operators.security_key,
    approver_key: b.operators.approver_key,
    compliance_key: b.operators.compliance_key,
    auditor_key: b.operators.auditor_key,
    admin_step_up: b.step_up.admin,
    dealer_step_up: b.step_up.dealer,
    security_step_up: b.step_up.security,
    approver_step_up: b.step_up.approver,
    compliance_step_up: b.step_up.compliance,
    auditor_step_up: b.step_up.auditor,
  };
  writeFileSync(credentialsFile, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  chmodSync(credentialsFile, 0o600);
}
