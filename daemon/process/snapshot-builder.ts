// The entry of `node --build-snapshot` (scripts/build.mjs bundles this file on its own and runs it): it loads
// the daemon's bundle, server.cjs, so that Node writes a heap in which the bundle's module initialisation (the
// zod schemas, fastify, the route tables) is already done: dist/daemon/server.blob. A daemon started with
// `node --snapshot-blob server.blob` then starts from that heap and runs only its main function
// (daemon/process/startup-snapshot.ts). docs/architecture.md, "The daemon's startup snapshot".
//
// What a heap cannot hold, and how this file keeps it out:
// - better-sqlite3's native addon: the bundle holds the package's JavaScript, which loads the addon only when a
//   database is opened, by path (daemon/store/sqlite.ts), after the heap is restored.
// - node:http, https and http2: loading them creates bindings the heap cannot hold. The bundle gets stand-ins
//   that answer the plain data the bundle reads while it loads (http.STATUS_CODES, METHODS: the build passes
//   them in SVC_SNAPSHOT_BUILTIN_DATA, read from this node) and load the real module on the first other use,
//   at run time. node:worker_threads too: loaded here, it made workers that fail at once in a restored heap
//   (the statement render worker; test/scenario/runner.test.ts, 18-statements.yaml, caught it).
// - Anything else the bundle asks for while it loads and this file cannot serve makes the build fail: the
//   build then writes no blob and the daemon starts as before (daemon/process/code-cache.ts).
// Checked by hand with every read of process.env, Math.random, Date, crypto's random functions, the cwd and
// the hostname instrumented during a build: the bundle's loading reads none of them but NODE_DEBUG (semver's
// debug switch, so NODE_DEBUG=semver does nothing in a daemon started from the blob). Paths: the bundle finds
// template.db, the fixtures and the render worker from its own file name, which the heap holds, so a blob is
// only used from the folder it was built in (daemon/contract/snapshot-blob.ts).
import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname } from 'node:path';
import { startupSnapshot } from 'node:v8';
import { Script } from 'node:vm';
import { CODE_CACHE_KEY, type CodeCacheHandle } from './code-cache.js';
import { DEFER_MAIN_KEY } from './startup-snapshot.js';

type Loader = (id: string) => unknown;
type Module = Record<string | symbol, unknown>;

const bundle = process.env.SVC_SNAPSHOT_BUNDLE;
if (!bundle) throw new Error('SVC_SNAPSHOT_BUNDLE: the path of server.cjs is required');
const builtinData = JSON.parse(process.env.SVC_SNAPSHOT_BUILTIN_DATA ?? '{}') as Record<string, Module>;
/** Until the heap is restored, nothing may be loaded at run time; after, everything loads as Node would. */
let runtimeRequire: Loader | null = null;

function atRunTime(id: string, what: string): Loader {
  if (runtimeRequire) return runtimeRequire;
  throw new Error(`snapshot: the bundle uses ${id} (${what}) while it loads; it cannot be in the heap`);
}

/** A module loaded on its first use after the heap is restored; before, only `data`'s keys are answered. */
function lateModule(id: string, data: Module): Module {
  let real: Module | undefined;
  const load = (key: string | symbol): Module => (real ??= atRunTime(id, String(key))(id) as Module);
  return new Proxy({} as Module, {
    get: (_t, key) => (runtimeRequire === null && Object.hasOwn(data, key) ? data[key] : load(key)[key]),
    has: (_t, key) => key in load(key),
    ownKeys: () => Reflect.ownKeys(load('ownKeys')),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Object.getOwnPropertyDescriptor(load(key), key);
      return d && { ...d, configurable: true };
    },
  });
}

const LATE_BUILTINS = new Set(['http', 'https', 'http2', 'worker_threads']);
const late = new Map<string, Module>();

/** The `require` the bundle gets: node's built-in modules now, the rest through the stand-ins above. */
function bundleRequire(id: string): unknown {
  if (runtimeRequire) return runtimeRequire(id);
  const bare = id.replace(/^node:/, '');
  if (LATE_BUILTINS.has(bare)) {
    if (!late.has(bare)) late.set(bare, lateModule(id, builtinData[bare] ?? {}));
    return late.get(bare);
  }
  if (isBuiltin(id)) return require(id.startsWith('node:') ? id : `node:${id}`);
  return atRunTime(id, 'require')(id);
}

let daemonMain: (() => void) | undefined;
const holder = globalThis as unknown as Record<symbol, unknown>;
holder[DEFER_MAIN_KEY] = (run: () => void) => {
  daemonMain = run;
};
/** The build's code cache of the bundle (daemon/process/code-cache.ts), if there is one. */
function codeCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

const source = readFileSync(bundle, 'latin1');
const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
// compiled with the code cache the build wrote just before: the bytecode of what a start runs is then in the heap,
// and the main function's first calls (createDeps, buildApp, the routes) need not compile from source
const script = new Script(wrapped, { filename: bundle, cachedData: codeCache(`${bundle}.cache`) });
const run = script.runInThisContext() as (...args: unknown[]) => void;
const module = { exports: {} };
run.call(module.exports, module.exports, bundleRequire, module, bundle, dirname(bundle));
delete holder[DEFER_MAIN_KEY];
if (!daemonMain) throw new Error('snapshot: the bundle did not hand over its main function');
const main = daemonMain;

startupSnapshot.setDeserializeMainFunction(() => {
  runtimeRequire = createRequire(bundle);
  const handle: CodeCacheHandle = {
    status: 'snapshot',
    write: () => {
      throw new Error('--write-code-cache: the daemon started from its snapshot compiled nothing to cache');
    },
  };
  holder[CODE_CACHE_KEY] = handle;
  main();
});
