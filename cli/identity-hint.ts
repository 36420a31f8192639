// The hint for an operator refusal that is about who is asking, not about the keys: `svc admin ... --as
// dealer` reaches a back-office route with the desk's console key (the daemon answers 401: that route
// takes no console key), and any identity may lack the route's grant (403 FORBIDDEN names it). The
// registry's remedy for those ("the keys in use do not match this sandbox") would send people to check
// keys that are fine; this says what is true instead: this identity does not hold the grant, and which
// identities of the sandbox's credentials do (by their bootstrap roles, daemon/contract/grants.ts).
// Hints name svc commands, never HTTP routes.
import { ROLES } from '../daemon/contract/grants.js';
import { api, refusalOf, type ApiResponse } from './client/http.js';
import type { Profile } from './context.js';
import { svc } from './hints.js';

/** The identities of the credentials whose bootstrap role gives `grant`, in the order given. */
export function holdersOf(grant: string, identities: readonly string[]): string[] {
  return identities.filter((name) => {
    const role = (ROLES as Record<string, { grants: readonly string[] } | undefined>)[name];
    return role?.grants.includes(grant) ?? false;
  });
}

/** The grant a 403 FORBIDDEN message names ("The identity auditor lacks the grant X ..."). */
export function grantInMessage(message: string | undefined): string | undefined {
  return /lacks the grant ([\w:-]+)/.exec(message ?? '')?.[1];
}

/** A word as a shell reads it back: single-quoted unless it is plainly safe. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * This run's command line acting as `who` instead: `--as X` and `--home DIR` taken out of argv (svc()
 * puts --home back), `--as who` put right after `admin`.
 */
export function commandAs(who: string, argv: readonly string[] = process.argv.slice(2)): string {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--as' || argv[i] === '--home') i++;
    else if (!argv[i].startsWith('--as=') && !argv[i].startsWith('--home=')) rest.push(argv[i]);
  }
  const at = rest.indexOf('admin');
  if (at >= 0) rest.splice(at + 1, 0, '--as', who);
  return svc(rest.map(shellWord).join(' '));
}

/**
 * "auditor does not hold the grant broker:create:propose; security holds it (by its role): svc admin
 * --as security propose ...", or, when no identity of the credentials holds it, what gives it.
 * `prefer` (the command's own identity) is suggested when it holds the grant, else the first holder.
 */
export function grantHint(
  identity: string,
  grant: string,
  identities: readonly string[],
  o: { prefer?: string; why?: string } = {},
): string {
  const others = holdersOf(grant, identities).filter((n) => n !== identity);
  const head = `${identity}${o.why ?? ''} does not hold the grant ${grant}`;
  if (others.length === 0) {
    return (
      `${head}, and no identity of this sandbox's credentials holds it by its role; a break-glass action gives ` +
      `it for a time: ` +
      `${svc('admin propose break-glass --param identity_id=ID --param minutes:=30 --reason TEXT')}`
    );
  }
  const who =
    others.length === 1
      ? `${others[0]} holds it (by its role)`
      : `${others.slice(0, -1).join(', ')} and ${others.at(-1)} hold it (by their roles)`;
  const pick = o.prefer && others.includes(o.prefer) ? o.prefer : others[0];
  return `${head}; ${who}: ${commandAs(pick)}`;
}

/** What /openapi.json says of one operation: the grant it checks and whether it takes a console key. */
interface RouteInfo {
  grant: string;
  consoleKey: boolean;
}

/** The grant and key kind of METHOD PATH, read from the daemon's /openapi.json (undefined: not found). */
export async function routeInfo(profile: Profile, method: string, path: string): Promise<RouteInfo | undefined> {
  const res = await api<{
    paths?: Record<string, Record<string, { 'x-grant'?: string; security?: Array<Record<string, unknown>> }>>;
  }>(profile, 'GET', '/openapi.json', { identity: 'none', timeoutMs: 5_000 }).catch(() => undefined);
  const bare = path.split('?')[0];
  for (const [template, ops] of Object.entries(res?.body?.paths ?? {})) {
    const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`);
    const op = ops[method.toLowerCase()];
    if (!re.test(bare) || !op?.['x-grant']) continue;
    return { grant: op['x-grant'], consoleKey: (op.security ?? []).some((s) => 'consoleKey' in s) };
  }
  return undefined;
}

/**
 * The hint for a refusal of METHOD PATH sent as `identity`, when it is about the identity's grants:
 * 403 FORBIDDEN naming a grant, or 401 UNAUTHENTICATED for the dealer (a console key) on a route of
 * back-office keys. undefined otherwise: the registry's hint stands.
 */
export async function identityHint(
  profile: Profile,
  who: { identity: string; prefer?: string; identities: readonly string[] },
  req: { method: string; path: string },
  res: ApiResponse,
): Promise<string | undefined> {
  const { identity, identities, prefer } = who;
  const err = refusalOf(res.body)?.error;
  if (res.status === 403 && err?.code === 'FORBIDDEN') {
    const grant = grantInMessage(err.message);
    return grant ? grantHint(identity, grant, identities, { prefer }) : undefined;
  }
  if (res.status === 401 && err?.code === 'UNAUTHENTICATED' && identity === 'dealer') {
    const route = await routeInfo(profile, req.method, req.path);
    if (!route || route.consoleKey) return undefined;
    return grantHint(identity, route.grant, identities, { prefer, why: " (the dealer desk's console identity)" });
  }
  return undefined;
}
