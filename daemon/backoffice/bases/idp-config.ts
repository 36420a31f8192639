// idp-config:update (docs/backoffice.md, "Identity provider"): the sandbox has no identity provider
// and signs in to the console only with passkeys; an approved configuration (an https issuer, a
// client id, the e-mail domains allowed to sign in) is recorded for parity with production, append
// only, the newest in force, readable at GET /admin/idp-config. Nothing signs in through it.
import { z } from 'zod';
import type { Db } from '../../store/db.js';
import { ok, type Outcome } from '../../contract/outcome.js';
import type { ExecCtx } from './exec.js';
import type { IdpConfigsRow } from '../../store/rows.js';

const domain = z
  .string()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a domain name such as broker.example');

export const idpParams = z.strictObject({
  issuer: z.url({ protocol: /^https$/, hostname: z.regexes.domain }).max(300),
  client_id: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces'),
  allowed_domains: z
    .array(domain)
    .min(1)
    .max(20)
    .refine((d) => new Set(d).size === d.length, 'no domain twice'),
});

/** The configuration in force: its row, with the allowed domains parsed from their JSON. */
export type IdpConfig = Omit<IdpConfigsRow, 'allowed_domains'> & { allowed_domains: string[] };

export function idpConfigInForce(db: Db): IdpConfig | null {
  const r = db.prepare<[], IdpConfigsRow>('SELECT * FROM idp_configs ORDER BY version DESC LIMIT 1').get();
  return r ? { ...r, allowed_domains: JSON.parse(r.allowed_domains) as string[] } : null;
}

export function updateIdpConfig(
  { deps, actionId }: ExecCtx,
  params: Record<string, unknown>,
): Outcome<Record<string, unknown>> {
  const p = params as z.infer<typeof idpParams>;
  deps.db
    .prepare('INSERT INTO idp_configs (issuer, client_id, allowed_domains, action_id, recorded_at) VALUES (?,?,?,?,?)')
    .run(p.issuer, p.client_id, JSON.stringify(p.allowed_domains), actionId, deps.nowIso());
  const cfg = idpConfigInForce(deps.db)!;
  deps.audit.append({
    actor: `action:${actionId}`,
    action: 'idp_config.recorded',
    subject: String(cfg.version),
    detail: { issuer: cfg.issuer, client_id: cfg.client_id, allowed_domains: cfg.allowed_domains },
  });
  return ok({
    ...cfg,
    sign_in: 'passkeys only (the sandbox has no identity provider; this configuration is recorded for parity)',
  });
}
