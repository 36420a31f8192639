// GET /admin/idp-config (docs/backoffice.md, "Identity provider"): the identity-provider configuration
// recorded by the newest approved idp-config:update. Read only; the sandbox signs in with passkeys.
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { IdpConfigViewSchema } from '../contract/schemas/idp.js';
import { idpConfigInForce } from './bases/idp-config.js';

export function idpRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/admin/idp-config',
      auth: { realm: 'admin', grant: 'access-review:read' },
      tags: ['backoffice'],
      summary:
        'The identity-provider configuration recorded by the newest approved idp-config:update (kept for ' +
        'parity; the console signs in only with passkeys).',
      response: IdpConfigViewSchema,
      handler: () => ({ sign_in: 'passkeys' as const, idp_config: idpConfigInForce(deps.db) }),
    }),
  ];
}
