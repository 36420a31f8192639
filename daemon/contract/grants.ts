// The one catalog of operator authority (docs/backoffice.md): every grant a route can ask for, the
// scope kind it is checked at, the bootstrap roles (each a set of grants), the strict-split bases of
// maker-checker and the routes that need a step-up code. Identities hold roles with a scope; a role
// gives its grants in that scope. The server checks the grant in scope on every operator route
// (daemon/http/auth.ts); the CLI reads the step-up list from here to know when to send a code.
import { Secret, TOTP } from 'otpauth';
import type { OperatorRealm } from './route.js';

/** Bases under maker-checker: `<base>:propose` is the maker's grant, `<base>:approve` the checker's. */
export const STRICT_BASES = [
  'ledger:adjust',
  'broker:create',
  'fee-schedule:update',
  'binding:update',
  'keys:rotate-kek',
  'keys:rotate-dek',
  'console-users:manage',
  'console-users:disable',
  'console-roles:assign',
  'passkey:unlock',
  'break-glass',
  'idp-config:update',
  'corp-action:process',
  'marketdata:replay',
] as const;
export type StrictBase = (typeof STRICT_BASES)[number];

/**
 * Where a grant is used: `global` grants act on the whole sandbox and must be held globally; `broker`
 * grants act on one broker's desk (held globally = every broker); `tenant` grants read one tenant's
 * records (held globally = every tenant).
 */
export type ScopeKind = 'global' | 'broker' | 'tenant';

const DESK_GRANTS = [
  'queue:read',
  'orders:execute',
  'funding:read',
  'funding:approve',
  'blotter:read',
  'exposure:read',
  'eod:read',
  'reference:read',
  'orderbook:read',
  'kyc:read',
  'kyc:decide',
  'accounts:status',
] as const;

const GLOBAL_GRANTS = [
  'sandbox:control',
  'tenants:create',
  'actions:read',
  'access-review:read',
  'access-review:open',
  'access-review:decide',
  'sessions:read',
  'sessions:revoke',
  'operator-keys:rotate',
  'operator-keys:revoke',
  'surveillance:read',
  'surveillance:manage',
  'complaints:manage',
  'reconciliation:read',
  'reconciliation:manage',
  ...STRICT_BASES.flatMap((b) => [`${b}:propose`, `${b}:approve`]),
] as const;

const TENANT_GRANTS = ['audit:read', 'backoffice:read'] as const;

/** Every grant there is, with the scope kind it is checked at. */
export const GRANTS: ReadonlyMap<string, ScopeKind> = new Map<string, ScopeKind>([
  ...DESK_GRANTS.map((g) => [g, 'broker'] as const),
  ...GLOBAL_GRANTS.map((g) => [g, 'global'] as const),
  ...TENANT_GRANTS.map((g) => [g, 'tenant'] as const),
]);

/** A role: its realm (which header its keys go in) and the grants it gives. */
export interface RoleDef {
  realm: OperatorRealm;
  grants: readonly string[];
  /** Only the break-glass role: may hold both sides of a base. */
  superuser?: boolean;
}

const propose = STRICT_BASES.map((b) => `${b}:propose`);
const approve = STRICT_BASES.map((b) => `${b}:approve`);
/** Ending console sessions and revoking or rotating operator keys (migration 022 gives them to existing security
 * identities). */
const IAM_GRANTS = ['sessions:read', 'sessions:revoke', 'operator-keys:rotate', 'operator-keys:revoke'] as const;
/** Access reviews: two roles hold them, so each can decide the items about the other's access. */
const REVIEW_GRANTS = ['access-review:read', 'access-review:open', 'access-review:decide'] as const;

/** The bootstrap roles. */
export const ROLES = {
  admin: {
    realm: 'admin',
    grants: [
      'sandbox:control',
      'tenants:create',
      'audit:read',
      'backoffice:read',
      'accounts:status',
      'actions:read',
      'access-review:read',
      'sessions:read',
      'surveillance:read',
      'surveillance:manage',
      'complaints:manage',
      'reconciliation:read',
      'reconciliation:manage',
    ],
  },
  dealer: { realm: 'console', grants: [...DESK_GRANTS] },
  security: {
    realm: 'admin',
    grants: ['audit:read', 'backoffice:read', 'actions:read', ...propose, ...IAM_GRANTS, ...REVIEW_GRANTS],
  },
  approver: { realm: 'admin', grants: ['audit:read', 'backoffice:read', 'actions:read', ...approve] },
  auditor: { realm: 'admin', grants: ['audit:read', 'backoffice:read', 'actions:read', 'access-review:read'] },
  compliance: {
    realm: 'admin',
    grants: [
      'audit:read',
      'backoffice:read',
      'surveillance:read',
      'surveillance:manage',
      'complaints:manage',
      ...REVIEW_GRANTS,
    ],
  },
  superuser: {
    realm: 'admin',
    superuser: true,
    grants: [...GRANTS.keys()].filter((g) => GRANTS.get(g) !== 'broker' || g === 'accounts:status'),
  },
} as const satisfies Record<string, RoleDef>;

export type RoleName = keyof typeof ROLES;
export const ROLE_NAMES = Object.keys(ROLES) as RoleName[];

/** `global`, `tenant:<id>` or `broker:<id>`. */
export type Scope = string;
export const SCOPE_PATTERN = /^(global|tenant:[A-Za-z0-9_]{1,64}|broker:[A-Za-z0-9_]{1,64})$/;

/**
 * Routes whose use needs a fresh second factor: the desk's money actions and the maker-checker
 * decisions. A key sends X-Step-Up-Code, which opens its 5-minute step-up window (no code needed
 * inside it); a console session uses its passkey step-up (daemon/http/auth.ts).
 */
export const STEP_UP_ROUTES: ReadonlySet<string> = new Set([
  'POST /broker/v1/queue/:id/execute',
  'POST /broker/v1/funding/:id/approve',
  'POST /admin/actions/:id/approve',
  'POST /admin/actions/:id/reject',
]);

/** Whether a request to METHOD path needs a step-up code (path with real ids, as the CLI sends it). */
export function needsStepUp(method: string, path: string): boolean {
  for (const r of STEP_UP_ROUTES) {
    const [m, pattern] = r.split(' ');
    if (m !== method.toUpperCase()) continue;
    const re = new RegExp(`^${pattern.replace(/:[a-z_]+/g, '[^/]+')}$`);
    if (re.test(path)) return true;
  }
  return false;
}

/** TOTP parameters of step-up codes (RFC 6238): SHA-1, 6 digits, 30 s steps, one step of drift. */
export const STEP_UP_TOTP = { algorithm: 'SHA1', digits: 6, period: 30, window: 1 } as const;
export const STEP_UP_HEADER = 'x-step-up-code';

/** The TOTP of a step-up secret (base32). */
export function stepUpTotp(secretBase32: string): TOTP {
  const { algorithm, digits, period } = STEP_UP_TOTP;
  return new TOTP({ secret: Secret.fromBase32(secretBase32), algorithm, digits, period });
}

/** The code of a step-up secret at a wall-clock instant, or of an explicit time step. */
export function stepUpCode(secretBase32: string, at: { wallMs: number } | { step: number }): string {
  const timestamp = 'step' in at ? at.step * STEP_UP_TOTP.period * 1000 : at.wallMs;
  return stepUpTotp(secretBase32).generate({ timestamp });
}

/** The time step of a wall-clock instant. */
export const stepOf = (wallMs: number): number => Math.floor(wallMs / 1000 / STEP_UP_TOTP.period);

/** The scopes an identity holds a grant in, or none. */
export type GrantScopes = ReadonlyMap<string, readonly Scope[]>;

/** The tenant a tenant-kind grant limits the caller to: null when held globally (every tenant). */
export function tenantScopeOf(scopes: GrantScopes | undefined, grant: string): string | null | undefined {
  const s = scopes?.get(grant) ?? [];
  if (s.includes('global')) return null;
  const t = s.find((x) => x.startsWith('tenant:'));
  return t ? t.slice('tenant:'.length) : undefined;
}
