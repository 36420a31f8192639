// Runs before each test file (vitest.config.ts, setupFiles). The suite runs with `isolate: false`: a
// worker process runs many files one after another instead of a new process for each, which saves
// starting node and loading fastify, zod, undici and the rest again for every file. What a file could
// leave behind for the next one in its worker is put back here:
// - the modules of the repo (daemon/, cli/, client/, test/helpers/): evaluated again for each file, so
//   module state (caches, counters, the CLI's remembered home) starts as it would in a fresh process;
//   only packages from node_modules stay loaded;
// - process.env: a file may set a variable at its top (test/cli/sandbox-identity.test.ts names its own
//   registry of homes); the next file sees the environment the worker started with;
// - the working directory, the exit code, and the real timers.
import { afterAll, vi } from 'vitest';

vi.resetModules();

const env = { ...process.env };
const cwd = process.cwd();

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  if (process.cwd() !== cwd) process.chdir(cwd);
  process.exitCode = undefined;
  vi.useRealTimers();
});
