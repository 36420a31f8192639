import { delimiter, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // `npm run soak` (SVC_SOAK=1 vitest run test/soak) runs the long variants; `npm test` never does.
    exclude: process.env.SVC_SOAK === '1' ? ['node_modules/**'] : ['test/soak/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time: most of the suite waits on child processes (daemons, svc, tmux,
    // chromium), so on a 2-core machine one file at a time left a core idle and took 25-28 minutes.
    // Every test uses its own home, port 0 and its own tmux socket, so files do not share state.
    maxWorkers: 2,
    globalSetup: ['./test/helpers/global-setup.ts'],
    // The tests run svc as someone who put it on the PATH (`npm link`): hints name the program as it
    // was invoked (cli/hints.ts), so they say `svc ...` here; test/cli/program-name.test.ts runs ./bin/svc.
    env: { PATH: `${resolve('bin')}${delimiter}${process.env.PATH ?? ''}` },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
