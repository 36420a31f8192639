// svc api METHOD PATH [--data JSON]: any request; signed and keyed when the route needs it.
import { api as send } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { CliExit, EXIT, describeApiError, printJson, usage } from '../output.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

export interface ApiOptions {
  data?: string;
  idempotencyKey?: string;
  as?: string;
}

export async function api(opts: ApiOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const [methodArg, path] = args;
  const method = methodArg.toUpperCase();
  if (!METHODS.has(method)) usage(`unknown method ${methodArg}; use GET, POST, PUT, DELETE or PATCH`);
  if (!path.startsWith('/')) usage(`the path must start with / (got ${path})`);
  let body: unknown;
  if (opts.data !== undefined) {
    try {
      body = JSON.parse(opts.data);
    } catch {
      usage('--data is not valid JSON');
    }
  }
  const profile = resolveProfile(g);
  const keyFor: Record<string, string | undefined> = {
    admin: profile.admin_key,
    security: profile.security_key,
    approver: profile.approver_key,
  };
  if (opts.as && !(opts.as in keyFor)) usage('--as must be admin, security or approver');
  const res = await send(profile, method, path, {
    body,
    idempotencyKey: opts.idempotencyKey,
    adminKey: opts.as ? keyFor[opts.as] : undefined,
    // One attempt: `svc api` shows the answer that came, a 503 or a 429 included.
    retry: false,
  });
  if (res.status >= 400) {
    // The body is the output either way; people also get the code, request id and hint on stderr.
    printJson(res.body);
    if (!g.json) describeApiError(res);
    throw new CliExit(EXIT.apiError);
  }
  if (typeof res.body === 'string') process.stdout.write(res.body + (res.body.endsWith('\n') ? '' : '\n'));
  else printJson(res.body);
}
