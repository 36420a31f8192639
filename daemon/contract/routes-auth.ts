// Which routes need signing (S) or an Idempotency-Key (I), exactly the spec's list: the CLI's `svc api`
// and scenario runner use this to sign and key requests automatically. The daemon's route definitions
// must agree (a test checks). Every other tenant write (B) accepts and honours a key when one is sent.
export type TenantAuth = 'B' | 'I' | 'S';

const RULES: Array<{ method: string; pattern: RegExp; auth: TenantAuth }> = [
  { method: 'POST', pattern: /^\/v1\/orders$/, auth: 'S' },
  { method: 'DELETE', pattern: /^\/v1\/orders\/[^/]+$/, auth: 'S' },
  { method: 'POST', pattern: /^\/v1\/fund-orders$/, auth: 'S' },
  { method: 'POST', pattern: /^\/v1\/transfers$/, auth: 'S' },
  { method: 'POST', pattern: /^\/v1\/kyc\/applications$/, auth: 'I' },
  { method: 'PUT', pattern: /^\/v1\/kyc\/applications\/[^/]+\/documents\/[^/]+$/, auth: 'I' },
  { method: 'POST', pattern: /^\/v1\/kyc\/applications\/[^/]+\/submit$/, auth: 'I' },
  { method: 'PUT', pattern: /^\/v1\/investors\/[^/]+\/suitability$/, auth: 'I' },
];

export function tenantAuthFor(method: string, path: string): TenantAuth {
  const m = method.toUpperCase();
  return RULES.find((r) => r.method === m && r.pattern.test(path))?.auth ?? 'B';
}

export type Realm = 'tenant' | 'admin' | 'console' | 'none';

export function realmFor(path: string): Realm {
  if (path.startsWith('/admin')) return 'admin';
  if (path.startsWith('/broker/')) return 'console';
  if (path.startsWith('/v1/')) return 'tenant';
  return 'none';
}
