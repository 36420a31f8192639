// The daemon's code is one CommonJS bundle, dist/daemon/server.cjs, compiled here with V8's code cache
// (server.cjs.cache beside it) instead of from source on every start: the cache holds the bytecode of the
// functions the last recorded start ran, so V8 neither parses nor compiles them again. The build writes
// the cache by starting a daemon once with `--write-code-cache` (scripts/build.mjs). V8 checks a cache
// against the source, its own version and its flags, and rejects one that does not match (another Node,
// a rebuilt bundle, a damaged file): the start then compiles from source, only slower. The cache is
// code and is trusted like the bundle beside it (same folder, same owner); docs/architecture.md,
// "Start-up".
import { isAscii } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants, Script } from 'node:vm';

/** What the daemon's start says about the cache (daemon.log), and how the build asks for a new one. */
export interface CodeCacheHandle {
  /**
   * accepted: compiled from the cache; rejected: V8 refused it, compiled from source; absent: none found;
   * snapshot: started from the startup snapshot, its code already loaded (daemon/process/snapshot-builder.ts).
   */
  status: 'accepted' | 'rejected' | 'absent' | 'snapshot';
  /** Writes the cache of everything compiled so far. */
  write(file: string): void;
}

/** Where the loader leaves the handle for the bundle it runs (they are two bundles: no shared module state). */
export const CODE_CACHE_KEY = Symbol.for('svc.daemon.codeCache');

type Holder = Record<symbol, CodeCacheHandle | undefined>;

/** The handle the loader left, if the daemon was started through it. */
export function codeCacheHandle(): CodeCacheHandle | undefined {
  return (globalThis as unknown as Holder)[CODE_CACHE_KEY];
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** The bundle's text: the build escapes every character outside ASCII, so it reads as one-byte text, undecoded. */
function readSource(file: string): string {
  const bytes = readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Compiles and runs the CommonJS bundle `file` as Node would, with `${file}.cache` as its code cache. */
export function runBundle(file: string): void {
  const cached = readCache(`${file}.cache`);
  // The wrapper is on the bundle's first line, so every line number stays as the source map says.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readSource(file)}\n})`;
  const script = new Script(wrapped, {
    filename: pathToFileURL(file).href,
    cachedData: cached,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const status = cached === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'accepted';
  (globalThis as unknown as Holder)[CODE_CACHE_KEY] = {
    status,
    write: (to) => writeFileSync(to, script.createCachedData()),
  };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} };
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
}
