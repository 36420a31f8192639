// svc console enroll --as ROLE: a one-time link that enrols the first passkey of that identity in the
// browser console (docs/console.md). The admin key asks the daemon for the code (POST
// /admin/console/enrolments); the link opens the console on localhost, where passkeys work over http.
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { chalk, ok, printJson, usage } from '../output.js';
import type { Enrolment } from '../../daemon/contract/schemas/console.js';
import { CONSOLE_ENROL_ROLES } from '../../daemon/contract/schemas/console.js';

export interface EnrollOptions {
  as?: string;
}

/** The console's origin: console_url's, with 127.0.0.1 spelled localhost (a passkey's relying party is a name). */
export function consoleOrigin(consoleUrl: string | undefined, baseUrl: string): string {
  const u = new URL(consoleUrl ?? baseUrl);
  if (u.hostname === '127.0.0.1') u.hostname = 'localhost';
  return u.origin;
}

export async function enroll(opts: EnrollOptions, g: GlobalOptions): Promise<void> {
  const role = opts.as ?? 'dealer';
  if (!(CONSOLE_ENROL_ROLES as readonly string[]).includes(role))
    usage(`--as must be one of ${CONSOLE_ENROL_ROLES.join(', ')}`);
  const profile = resolveProfile(g);
  const json = Boolean(g.json);
  const res = ok(
    await api<Enrolment>(profile, 'POST', '/admin/console/enrolments', { body: { role }, adminKey: profile.admin_key }),
    json,
  );
  const link =
    `${consoleOrigin(profile.console_url, profile.base_url)}/console/enroll?code=` +
    `${encodeURIComponent(res.enrolment_token)}`;
  if (json) {
    printJson({ ...res, link });
    return;
  }
  process.stdout.write(
    `Open this link in a browser to register a passkey for ${chalk.bold(res.name)} (${res.role}); it works ` +
      `once, until ${res.expires_at}:\n\n  ${link}\n\n` +
      'Then sign in at the console with that passkey.\n',
  );
}
