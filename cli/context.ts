// Where the CLI finds its sandbox: $SVC_HOME (or --home) holds the daemon's locator (daemon.json),
// the credentials minted at first start, and the CLI's profiles (a lowdb JSON file). Environment
// variables (SVC_BASE_URL, SVC_API_KEY, ...) override the profile.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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
  broker_id?: string;
}

export interface Locator {
  pid: number;
  port: number;
  base_url: string;
  console_url: string;
  version: string;
  home: string;
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

/**
 * Makes `home` private to the user before this process writes in it: it holds every key and the
 * sandbox's personal data. Files created from here on are 0600 (the umask), the home is 0700, and
 * files a previous svc (or a hand) left looser are tightened (docs/reliability.md, "Threat model").
 */
export function privateHome(home: string): void {
  process.umask(0o077);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chmodSync(home, 0o700);
  for (const name of readdirSync(home)) {
    const st = lstatSync(join(home, name));
    if (st.isFile()) chmodSync(join(home, name), 0o600);
    else if (st.isDirectory()) chmodSync(join(home, name), 0o700);
  }
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
  return readJson<Locator>(join(home, 'daemon.json'));
}

export function profilesFile(home: string): string {
  return join(home, 'profiles.json');
}

interface ProfilesDoc {
  current: string;
  profiles: Record<string, Profile>;
}

export async function saveProfile(home: string, name: string, profile: Profile): Promise<void> {
  // The profiles hold every key: lowdb writes a temporary file and renames it, so the umask decides.
  privateHome(home);
  const { JSONFilePreset } = await import('lowdb/node');
  const db = await JSONFilePreset<ProfilesDoc>(profilesFile(home), { current: name, profiles: {} });
  db.data.profiles[name] = profile;
  db.data.current = name;
  await db.write();
  // (lowdb keeps the file in memory only when NODE_ENV is test.)
  if (existsSync(profilesFile(home))) chmodSync(profilesFile(home), 0o600);
}

/** The effective connection: env > profile file > the locator and credentials of $SVC_HOME. */
export function resolveProfile(opts: GlobalOptions): Profile & { home: string; source: string } {
  const home = resolveHome(opts);
  const doc = readJson<ProfilesDoc>(profilesFile(home));
  const name = opts.profile ?? process.env.SVC_PROFILE ?? doc?.current ?? 'default';
  const fromFile = doc?.profiles[name];
  const locator = readLocator(home);
  const creds = readJson<Omit<Profile, 'base_url'>>(join(home, 'credentials.json'));
  const base: Profile = fromFile ?? { ...creds, base_url: locator?.base_url ?? 'http://127.0.0.1:4710' };
  if (locator && !opts.profile && !process.env.SVC_PROFILE) base.base_url = locator.base_url;
  const env = process.env;
  return {
    ...base,
    base_url: opts.baseUrl ?? env.SVC_BASE_URL ?? base.base_url,
    api_key: env.SVC_API_KEY ?? base.api_key,
    signing_secret: env.SVC_SIGNING_SECRET ?? base.signing_secret,
    admin_key: env.SVC_ADMIN_KEY ?? base.admin_key,
    dealer_key: env.SVC_DEALER_KEY ?? base.dealer_key,
    tenant_id: env.SVC_TENANT_ID ?? base.tenant_id,
    home,
    source: fromFile ? `profile ${name}` : 'locator',
  };
}
