// Where the daemon is and how node starts it: its entry file, the startup snapshot to restore (when the build left a
// usable one) and its environment. Shared by a cold spawn (cli/daemon-process.ts) and a warm one
// (cli/warm-daemon.ts), which bin/svc loads before the rest of the CLI: this module stays small.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXTRA_CA_ENV } from '../daemon/contract/ai-provider.js';
import { usableSnapshot } from '../daemon/contract/snapshot-blob.js';

export function daemonEntry(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'dist', 'daemon', 'main.js');
    if (existsSync(candidate)) return candidate;
    const sibling = join(dir, 'daemon', 'main.js');
    if (existsSync(sibling) && dir.endsWith('dist')) return sibling;
    dir = dirname(dir);
  }
  throw new Error('dist/daemon/main.js not found; run npm run build');
}

/** The startup snapshot to start the daemon of `entry` from, or null (none usable; SVC_DAEMON_SNAPSHOT=off). */
export function daemonSnapshot(entry: string): string | null {
  return process.env.SVC_DAEMON_SNAPSHOT === 'off' ? null : usableSnapshot(dirname(entry));
}

/**
 * The daemon's environment: this one, except that NODE_EXTRA_CA_CERTS travels as SVC_EXTRA_CA_CERTS. Node reads
 * that file at every process start; the daemon reads it only for its first https request, the assistant's
 * (daemon/assistant/outbound.ts).
 */
export function daemonEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: extra, ...rest } = env;
  return extra ? { ...rest, [EXTRA_CA_ENV]: extra } : rest;
}
