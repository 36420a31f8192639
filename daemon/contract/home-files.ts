// The files of a sandbox home that both the daemon and the CLI read or write, and the per-user registry
// of homes (docs/cli.md, "Which sandbox a command talks to"). File system only: no daemon code.
//
// A home's sandbox id (`sandbox-id`, e.g. `sbx_3f9c0a1b2c3d4e5f`) is made once, when the first daemon
// starts in the home, from crypto randomness. It names the home's sandbox, not anything in the
// simulated world: no API answer but GET /healthz carries it, so seeded runs stay byte-for-byte
// reproducible. It survives stop, reset and snapshot import (a snapshot never carries it), and the
// daemon copies it into its locator (daemon.json) and echoes it on /healthz, so a client can tell
// whether the daemon answering at a port is the one of the home it means.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const LOCATOR_FILE = 'daemon.json';
export const SANDBOX_ID_FILE = 'sandbox-id';
export const SANDBOX_ID = /^sbx_[0-9a-f]{16}$/;
/** The daemon's exit code when its port is taken (EADDRINUSE is errno 98 on Linux): nothing was kept. */
export const EXIT_PORT_IN_USE = 98;
/** The daemon refused a home whose schema or guards differ from its migrations (docs/reliability.md). */
export const EXIT_HOME_ALTERED = 2;
/** Files a first start creates besides the sandbox id; a first start that fails removes them again. */
export const FIRST_START_FILES = [
  'svc.db',
  'svc.db-wal',
  'svc.db-shm',
  'kek.key',
  'audit.checkpoint',
  'credentials.json',
];

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

/** The sandbox id of `home`, or null when no daemon has started there yet (or the file is not one). */
export function readSandboxId(home: string): string | null {
  try {
    const id = readFileSync(join(home, SANDBOX_ID_FILE), 'utf8').trim();
    return SANDBOX_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** Writes `id` as the sandbox id of `home` (0600), unless the home already has one; returns the home's id. */
export function keepSandboxId(home: string, id: string): string {
  const existing = readSandboxId(home);
  if (existing) return existing;
  writeFileSync(join(home, SANDBOX_ID_FILE), `${id}\n`, { mode: 0o600 });
  return id;
}

/** One home in the registry: where it is and the sandbox id it had when it was registered. */
export interface RegistryEntry {
  sandbox_id: string;
  home: string;
  registered_at: string;
}

/**
 * The per-user registry of homes: `$SVC_REGISTRY_DIR`, else `$XDG_STATE_HOME/svc/sandboxes`, else
 * `~/.local/state/svc/sandboxes`. One small file per sandbox (`<sandbox_id>.json`, 0600, in a 0700
 * directory), so that two daemons starting at once never overwrite each other's entry.
 */
export function registryDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_REGISTRY_DIR) return resolve(env.SVC_REGISTRY_DIR);
  const state = env.XDG_STATE_HOME ? resolve(env.XDG_STATE_HOME) : join(homedir(), '.local', 'state');
  return join(state, 'svc', 'sandboxes');
}

/** Records `home` (with its sandbox id) in the registry; best effort: a registry that cannot be written is skipped. */
export function registerHome(home: string, sandboxId: string, now: string): void {
  try {
    const dir = registryDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${sandboxId}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ sandbox_id: sandboxId, home: resolve(home), registered_at: now })}\n`, {
      mode: 0o600,
    });
    renameSync(tmp, file);
  } catch {
    // The registry only feeds `svc sandbox list` and names the holder of a busy port.
  }
}

/**
 * The registered homes that still hold the sandbox they were registered with, oldest first. An entry
 * whose home is gone (a removed temporary home) or holds another sandbox now is dropped from the registry.
 */
export function registeredHomes(): RegistryEntry[] {
  const dir = registryDir();
  if (!existsSync(dir)) return [];
  const out: RegistryEntry[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    const file = join(dir, name);
    let entry: RegistryEntry | null = null;
    try {
      entry = JSON.parse(readFileSync(file, 'utf8')) as RegistryEntry;
    } catch {
      entry = null;
    }
    if (entry && typeof entry.home === 'string' && readSandboxId(entry.home) === entry.sandbox_id) out.push(entry);
    else rmSync(file, { force: true });
  }
  return out.sort((a, b) => a.registered_at.localeCompare(b.registered_at) || a.home.localeCompare(b.home));
}
