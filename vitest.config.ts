import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // `npm run soak` (SVC_SOAK=1 vitest run test/soak) runs the long variants; `npm test` never does.
    exclude: process.env.SVC_SOAK === '1' ? ['node_modules/**'] : ['test/soak/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['./test/helpers/global-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
