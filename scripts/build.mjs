// Builds dist/ with esbuild. The daemon is one bundle with its pure-JS dependencies inlined (module
// resolution is a large part of start-up); better-sqlite3 stays external as a native addon. The CLI is
// code-split so commands that need Ink or inquirer load them lazily, with node_modules external.
// The browser console (console/) is built by Vite into dist/console/, which the daemon serves at
// /console (docs/console.md). Type checking is `npm run typecheck` (and `tsc -p console` for the page).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { build as viteBuild } from 'vite';
import react from '@vitejs/plugin-react';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const BUNDLED_IN_CLI = ['commander', 'chalk', 'lowdb'];

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  jsx: 'automatic',
};

// The daemon is one CommonJS bundle, server.cjs, with its pure-JS dependencies inlined (module resolution is
// a large part of start-up), better-sqlite3's JavaScript too: only its native addon is loaded from
// node_modules, by path (daemon/store/sqlite.ts; `bindings`, its search for the addon, is never called and
// stays out). CommonJS because V8's code
// cache, which spares a start most of the compiling, is open to a script and not to an ES module in Node 20
// (daemon/process/code-cache.ts). import.meta.url, which the sources use to find files beside the bundle,
// is the bundle's own file URL.
await build({
  ...common,
  format: 'cjs',
  entryPoints: { 'daemon/server': 'daemon/main.ts' },
  outExtension: { '.js': '.cjs' },
  // without its whitespace the bundle is 3.5 MB instead of 4.8: less to read at a start, and a smaller heap in
  // the startup snapshot (names are kept; server.cjs.map maps a stack back to the sources)
  minifyWhitespace: true,
  outdir: 'dist',
  // undici is loaded only by the assistant's first https request (daemon/assistant/outbound.ts)
  external: ['bindings', 'undici'],
  define: { 'import.meta.url': '__svcImportMetaUrl' },
  banner: { js: "var __svcImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
rmSync('dist/daemon/server.blob', { force: true });
rmSync('dist/daemon/server.blob.json', { force: true });
// Every character outside ASCII escaped (esbuild leaves them in regular expressions and in comments), so that
// the entry can read the bundle as one-byte text, several times faster than decoding UTF-8; inside a regular
// expression, a string or a comment, \uXXXX stands for the same character.
const serverFile = 'dist/daemon/server.cjs';
writeFileSync(
  serverFile,
  readFileSync(serverFile, 'utf8').replace(
    /[^\x00-\x7f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  ),
);
// main.js is the daemon's small entry (daemon/start.ts), which runs server.cjs only after it has done what
// must come first. The statement render worker is its own file next to them (daemon/reports/render-queue.ts
// starts it).
await build({
  ...common,
  entryPoints: { 'daemon/main': 'daemon/start.ts', 'daemon/render-worker': 'daemon/reports/render-worker.ts' },
  outdir: 'dist',
  external: ['better-sqlite3'],
  // CommonJS dependencies inside an ESM bundle still call require().
  banner: {
    js:
      "import { createRequire as __svcCreateRequire } from 'node:module'; const require = " +
      '__svcCreateRequire(import.meta.url);',
  },
});
rmSync('dist/daemon/server.js', { force: true });
rmSync('dist/daemon/server.js.map', { force: true });
// The migrated template database a first start copies instead of running every migration
// (daemon/store/template.ts): written by the bundle just built, so it always matches its migrations.
execFileSync(process.execPath, ['dist/daemon/main.js', '--write-template', 'dist/daemon/template.db'], {
  stdio: 'inherit',
});
// The code cache of server.cjs: a daemon started once on a scratch home (its own registry of homes, so the
// user's keeps no trace of it) writes what it compiled up to listening, and exits
// (daemon/process/code-cache.ts). Stale caches are rejected by V8, never run. Without one (a machine where
// the build may not listen on the loopback) every start compiles from source: slower, nothing else.
rmSync('dist/daemon/server.cjs.cache', { force: true });
const scratch = mkdtempSync(join(tmpdir(), 'svc-build-'));
try {
  execFileSync(
    process.execPath,
    [
      'dist/daemon/main.js',
      '--home',
      join(scratch, 'home'),
      '--port',
      '0',
      '--log-level',
      'warn',
      '--write-code-cache',
      'dist/daemon/server.cjs.cache',
    ],
    { stdio: 'inherit', env: { ...process.env, SVC_REGISTRY_DIR: join(scratch, 'registry') } },
  );
} catch (err) {
  process.stderr.write(
    `svc build: no code cache written (${err.message.split('\n')[0]}); the daemon compiles from source\n`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
// The daemon's V8 startup snapshot (daemon/process/snapshot-builder.ts): a heap with server.cjs already loaded,
// which `svc sandbox start` starts the daemon from when server.blob.json says it is this node's, this folder's
// and this bundle's (daemon/contract/snapshot-blob.ts). Like the cache, without one the daemon starts as
// before. Not written for `npm pack`: the heap holds this folder's paths, so a packed blob is never usable.
await buildSnapshot();
// The CLI's chunks are content-hashed: clear the old ones, or dist/ (and the packed tarball) keeps them all.
rmSync('dist/cli', { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { 'cli/main': 'cli/main.ts' },
  outdir: 'dist',
  // node_modules stay external, but for what every command loads before it acts (commander and chalk) and what
  // `sandbox start` loads after (lowdb, the profile store): inside the bundle they are no separate modules for
  // Node's ESM loader to resolve, read and link at each run
  external: Object.keys(pkg.dependencies).filter((name) => !BUNDLED_IN_CLI.includes(name)),
  // commander is CommonJS: inside an ESM bundle it still calls require() for Node's modules
  banner: {
    js:
      "import { createRequire as __svcCreateRequire } from 'node:module'; const require = " +
      '__svcCreateRequire(import.meta.url);',
  },
  splitting: true,
  chunkNames: 'cli/chunks/[name]-[hash]',
});
// What bin/svc loads before the rest for `svc sandbox start` (cli/warm-daemon.ts): one CommonJS file, which the
// CommonJS bin/svc requires at once, without the ESM loader's resolving and linking of chunks.
await build({
  ...common,
  format: 'cjs',
  entryPoints: { 'cli/warm-daemon': 'cli/warm-daemon.ts' },
  outExtension: { '.js': '.cjs' },
  outdir: 'dist',
  define: { 'import.meta.url': '__svcImportMetaUrl' },
  banner: { js: "var __svcImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// React's production build and JSX runtime even when a test runner set NODE_ENV=test (Vite and the React
// plugin read it).
process.env.NODE_ENV = 'production';
await viteBuild({
  root: 'console',
  base: '/console/',
  configFile: false,
  logLevel: 'warn',
  mode: 'production',
  plugins: [react()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 400,
  },
});

/** The plain data of node:http, https and http2 that the bundle reads while it loads (the builder cannot load them). */
function builtinData() {
  const require = createRequire(import.meta.url);
  const data = {};
  for (const id of ['http', 'https', 'http2']) {
    data[id] = {};
    for (const [key, value] of Object.entries(require(id))) {
      const plain = Array.isArray(value) || (value !== null && Object.getPrototypeOf(value) === Object.prototype);
      if (typeof value !== 'function' && (typeof value !== 'object' || plain)) data[id][key] = value;
    }
  }
  return JSON.stringify(data);
}

async function buildSnapshot() {
  if (process.env.npm_lifecycle_event === 'prepack') return;
  const scratch = mkdtempSync(join(tmpdir(), 'svc-snapshot-'));
  try {
    const builder = join(scratch, 'snapshot-builder.cjs');
    await build({
      ...common,
      format: 'cjs',
      sourcemap: false,
      entryPoints: ['daemon/process/snapshot-builder.ts'],
      outfile: builder,
    });
    const dir = resolve('dist/daemon');
    execFileSync(process.execPath, ['--snapshot-blob', join(dir, 'server.blob'), '--build-snapshot', builder], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, SVC_SNAPSHOT_BUNDLE: join(dir, 'server.cjs'), SVC_SNAPSHOT_BUILTIN_DATA: builtinData() },
    });
    // what the blob was built for, as the CLI checks it (the same module, bundled for this script)
    const meta = join(scratch, 'snapshot-blob.mjs');
    await build({ ...common, sourcemap: false, entryPoints: ['daemon/contract/snapshot-blob.ts'], outfile: meta });
    const { snapshotMetaFor } = await import(pathToFileURL(meta).href);
    writeFileSync(join(dir, 'server.blob.json'), `${JSON.stringify(snapshotMetaFor(dir), null, 2)}\n`);
  } catch (err) {
    rmSync('dist/daemon/server.blob', { force: true });
    const why =
      String(err.stderr ?? err.message)
        .split('\n')
        .find((l) => /Error|snapshot:/.test(l)) ?? err.message;
    process.stderr.write(`svc build: no startup snapshot written (${why.trim()}); the daemon starts without one\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
