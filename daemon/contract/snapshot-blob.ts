// The daemon's V8 startup snapshot (docs/architecture.md, "The daemon's startup snapshot"): dist/daemon/
// server.blob, a heap in which server.cjs has already been loaded, and server.blob.json, what the blob was
// built for. The build writes both (scripts/build.mjs, daemon/process/snapshot-builder.ts); `svc sandbox
// start` reads the description before it spawns the daemon, and uses the blob only when it is this node's,
// this folder's and this bundle's. Node refuses a blob from another node only by exiting, and a damaged one
// crashes it, so the check comes first and the CLI starts the daemon without the blob when a start from it
// dies anyway.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const SNAPSHOT_BLOB = 'server.blob';
export const SNAPSHOT_META = 'server.blob.json';
/** Node's exit code when it cannot load a startup snapshot (a blob from another node or other V8 flags). */
export const EXIT_SNAPSHOT_FAILURE = 14;

/** What a blob was built for. The paths in its heap are the folder's, so a moved folder cannot use it. */
export interface SnapshotMeta {
  node: string;
  arch: string;
  platform: string;
  /** The folder of server.cjs and the blob (template.db and the render worker are found beside it). */
  dir: string;
  /** server.cjs as the blob loaded it: a rebuilt bundle makes the blob stale. */
  bundleSize: number;
  bundleMtimeMs: number;
}

/** The description of a blob built now by this node from `dir`/server.cjs. */
export function snapshotMetaFor(dir: string): SnapshotMeta {
  const bundle = statSync(join(dir, 'server.cjs'));
  return {
    node: process.version,
    arch: process.arch,
    platform: process.platform,
    dir,
    bundleSize: bundle.size,
    bundleMtimeMs: bundle.mtimeMs,
  };
}

/** The blob to start the daemon of `dir` from, or null: none, or built by another node, elsewhere, or stale. */
export function usableSnapshot(dir: string): string | null {
  try {
    const meta = JSON.parse(readFileSync(join(dir, SNAPSHOT_META), 'utf8')) as Record<string, unknown>;
    const now = snapshotMetaFor(dir);
    for (const [key, value] of Object.entries(now)) if (meta[key] !== value) return null;
    const blob = join(dir, SNAPSHOT_BLOB);
    return statSync(blob).size > 0 ? blob : null;
  } catch {
    return null;
  }
}
