// The back office (X-Admin-Key): tenant provisioning. A tenant's name is unique; its api_key and
// signing_secret are answered once, at creation, and kept only hashed and sealed (docs/api.md,
// "Authentication"). The audit log's routes read daemon/store/audit.ts directly.
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { TenantCredentials } from '../tenancy/keys.js';

export function provisionTenant(deps: Pick<Deps, 'keys'>, name: string): Outcome<TenantCredentials> {
  if (deps.keys.tenantExists(name)) return refuse('TENANT_NAME_TAKEN');
  return ok(deps.keys.createTenant(name));
}
