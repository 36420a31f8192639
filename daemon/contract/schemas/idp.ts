// Response shape of GET /admin/idp-config (docs/backoffice.md, "Identity provider").
import { z } from 'zod';

export const IdpConfigSchema = z
  .object({
    version: z.number().int(),
    issuer: z.string(),
    client_id: z.string(),
    allowed_domains: z.array(z.string()),
    action_id: z.string().describe('The approved idp-config:update action that recorded it.'),
    recorded_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'IdpConfig' });

export const IdpConfigViewSchema = z.object({
  sign_in: z
    .literal('passkeys')
    .describe('How the console signs in here: passkeys only; the sandbox has no identity provider.'),
  idp_config: IdpConfigSchema.nullable().describe(
    'The newest approved configuration, recorded for parity; null before any.',
  ),
});
