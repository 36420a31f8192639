// Where the CLI finds its sandbox: the home (--home, else $SVC_HOME, else ~/.svc) holds the daemon's
// locator (daemon.json), its sandbox id, the credentials minted at first start, and the CLI's profiles
// (a lowdb JSON file). Which home and which keys win is docs/cli.md, "Which sandbox a command talks
// to": an explicit --home ignores every SVC_* connection variable; without it the environment names
// one home, and the daemon that answers must be that home's sandbox (checked before anything is sent,
// cli/client/http.ts).
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { LOCATOR_FILE, privateHome, readSandboxId } from '../daemon/contract/home-files.js';

export { privateHome };

export const DEFAULT_PORT = 4710;
const DEFAULT_BASE_URL = `http://127.0.0.1:${DEFAULT_PORT}`;

/** The environment variables that name a connection; all ignored when --home is given. */
export const CONNECTION_VARS = [
  'SVC_PROFILE',
  'SVC_BASE_URL',
  'SVC_CONSOLE_URL',
  'SVC_SANDBOX_ID',
  'SVC_TENANT_ID',
  'SVC_API_KEY',
  'SVC_SIGNING_SECRET',
  'SVC_ADMIN_KEY',
  'SVC_DEALER_KEY',
  'SVC_SECURITY_KEY',
  'SVC_APPROVER_KEY',
  'SVC_COMPLIANCE_KEY',
  'SVC_AUDITOR_KEY',
] as const;
type ConnectionVar = (typeof CONNECTION_VARS)[number];

/**
 * What the daemon answering must be before the CLI sends it anything: the sandbox of `home`. The
 * check itself (GET /healthz, before the first request) is cli/client/http.ts's `verifySandbox`.
 */
export interface Expected {
  home: string;
  /** The home's sandbox id (`sandbox-id`); null when no daemon has started there yet. */
  sandbox_id: string | null;
  /** SVC_SANDBOX_ID, when the environment names one (it must agree with the home's). */
  env_sandbox_id?: string;
  /** The home's locator when this was resolved; null when its daemon is not running. */
  locator: Locator | null;
  /** Where the base URL came from: the home (locator or profile) or SVC_BASE_URL. */
  url_from: 'home' | 'env';
}

export interface Profile {
  base_url: string;
  console_url?: string;
  tenant_id?: string;
  api_key?: string;
  signing_secret?: string;
  admin_key?: string;
  dealer_key?: string;
  security_key?: string;
  approver_key?: string;
  compliance_key?: string;
  auditor_key?: string;
  /** Each operator identity's step-up secret (base32 TOTP): svc computes X-Step-Up-Code from it. */
  admin_step_up?: string;
  dealer_step_up?: string;
  security_step_up?: string;
  approver_step_up?: string;
  compliance_step_up?: string;
  auditor_step_up?: string;
  broker_id?: string;
  /** Checked before the first request (not saved in profiles.json). */
  expect?: Expected;
}

export interface Locator {
  pid: number;
  port: number;
  base_url: string;
  console_url: string;
  version: string;
  home: string;
  /** The home's sandbox id, also echoed by GET /healthz (absent in a locator of an older svc). */
  sandbox_id?: string;
  started_at: string;
}

export interface GlobalOptions {
  home?: string;
  json?: boolean;
  profile?: string;
  baseUrl?: string;
}

export function resolveHome(opts: GlobalOptions): string {
  return resolve(opts.home ?? process.env.SVC_HOME ?? join(homedir(), '.svc'));
}

export function readJson<T>(file: string): T | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

export function readLocator(home: string): Locator | null {
  return readJson<Locator>(join(home, LOCATOR_FILE));
}

export function profilesFile(home: string): string {
  return join(home, 'profiles.json');
}

interface ProfilesDoc {
  current: string;
  profiles: Record<string, Profile>;
}

/** Starts loading what saveProfile needs (lowdb), without waiting: `svc sandbox start` does while the daemon starts. */
export function preloadProfileStore(): Promise<unknown> {
  return Promise.all([import('lowdb'), import('lowdb/node')]).catch(() => undefined);
}

export async function saveProfile(home: string, name: string, profile: Profile): Promise<void> {
  // The profiles hold every key: lowdb writes a temporary file and renames it, so the umask decides.
  privateHome(home);
  // LowSync over a JSONFileSync, not JSONFilePreset: the preset keeps the data in memory when NODE_ENV is
  // test, so the tests (which run svc under vitest) would never see the file a user gets. Synchronous: a
  // command writes its profile once, and the asynchronous file gave every start a few ms of thread-pool round
  // trips before it could exit (docs/bench.md, "Start-up").
  const [{ LowSync }, { JSONFileSync }] = await Promise.all([import('lowdb'), import('lowdb/node')]);
  const db = new LowSync<ProfilesDoc>(new JSONFileSync(profilesFile(home)), { current: name, profiles: {} });
  db.read();
  const { expect: _expect, ...saved } = profile;
  db.data.profiles[name] = saved;
  db.data.current = name;
  db.write();
  chmodSync(profilesFile(home), 0o600);
}

/** The SVC_* connection variables in effect: none when --home is given; an empty value counts as unset. */
export function connectionEnv(opts: GlobalOptions): Partial<Record<ConnectionVar, string>> {
  if (opts.home !== undefined) return {};
  const out: Partial<Record<ConnectionVar, string>> = {};
  for (const name of CONNECTION_VARS) if (process.env[name]) out[name] = process.env[name];
  return out;
}

/**
 * The effective connection. The home: --home, else $SVC_HOME, else ~/.svc. Then, each value from the
 * first that has it: the flag (--profile, --base-url), the SVC_* variable (only without --home), the
 * named profile (profiles.json), the home's locator and credentials. `expect` says which sandbox must
 * answer (none with --base-url, which names the daemon by its address).
 */
export function resolveProfile(opts: GlobalOptions): Profile & { home: string; source: string } {
  const home = resolveHome(opts);
  const env = connectionEnv(opts);
  const doc = readJson<ProfilesDoc>(profilesFile(home));
  const name = opts.profile ?? env.SVC_PROFILE ?? doc?.current ?? 'default';
  const fromFile = doc?.profiles[name];
  const locator = readLocator(home);
  const creds = readJson<Omit<Profile, 'base_url'>>(join(home, 'credentials.json'));
  const base: Profile = fromFile ? { ...fromFile } : { ...creds, base_url: locator?.base_url ?? DEFAULT_BASE_URL };
  if (locator && !opts.profile && !env.SVC_PROFILE) {
    base.base_url = locator.base_url;
    base.console_url = locator.console_url;
  }
  const homeId = readSandboxId(home);
  const named = homeId !== null || env.SVC_SANDBOX_ID !== undefined || locator !== null;
  // SVC_BASE_URL with no sandbox named anywhere is taken as it is, like --base-url.
  const expect: Expected | undefined =
    opts.baseUrl || (env.SVC_BASE_URL && !named)
      ? undefined
      : {
          home,
          sandbox_id: homeId,
          env_sandbox_id: env.SVC_SANDBOX_ID,
          locator,
          url_from: env.SVC_BASE_URL ? 'env' : 'home',
        };
  return {
    ...base,
    base_url: opts.baseUrl ?? env.SVC_BASE_URL ?? base.base_url,
    console_url: env.SVC_CONSOLE_URL ?? base.console_url,
    api_key: env.SVC_API_KEY ?? base.api_key,
    signing_secret: env.SVC_SIGNING_SECRET ?? base.signing_secret,
    admin_key: env.SVC_ADMIN_KEY ?? base.admin_key,
    dealer_key: env.SVC_DEALER_KEY ?? base.dealer_key,
    security_key: env.SVC_SECURITY_KEY ?? base.security_key,
    approver_key: env.SVC_APPROVER_KEY ?? base.approver_key,
    compliance_key: env.SVC_COMPLIANCE_KEY ?? base.compliance_key,
    auditor_key: env.SVC_AUDITOR_KEY ?? base.auditor_key,
    tenant_id: env.SVC_TENANT_ID ?? base.tenant_id,
    expect,
    home,
    source: fromFile ? `profile ${name}` : 'locator',
  };
}

/**
 * After a connection failure: when the home's locator now names its sandbox at another address (the
 * daemon came back on a new port), points `profile` there and returns true. The live screens use it.
 */
export function followLocator(profile: Profile): boolean {
  const e = profile.expect;
  if (!e) return false;
  const loc = readLocator(e.home);
  if (!loc || loc.base_url === profile.base_url) return false;
  const id = e.sandbox_id ?? readSandboxId(e.home);
  if (id !== null && loc.sandbox_id !== undefined && loc.sandbox_id !== id) return false;
  profile.base_url = loc.base_url;
  profile.console_url = loc.console_url;
  profile.expect = { ...e, sandbox_id: id, locator: loc, url_from: 'home' };
  return true;
}
