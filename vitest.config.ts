import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/helpers/sequencer.js';

// The answer checker (daemon/http/answer-check.ts) is on in every app and daemon the tests start: test
// apps turn it on themselves (test/helpers/app.ts), daemons by SVC_CHECK_ANSWERS, which svc passes down.
// Each writes its tally under this directory; the global setup adds them up at the end of the run.
process.env.SVC_ANSWER_CHECK_DIR ??= join(tmpdir(), `svc-answer-check-${process.pid}`);

// `npm run soak` (SVC_SOAK=1 vitest run test/soak) runs the long variants; `npm test` never does.
const TESTS = ['test/**/*.test.ts', 'test/**/*.test.tsx'];
const EXCLUDE = process.env.SVC_SOAK === '1' ? ['node_modules/**'] : ['test/soak/**', 'node_modules/**'];

// Files that need a process no other file ran in: the shape of process.nextTick's objects changes for
// the whole process once any file has used an AsyncLocalStorage.
const FRESH_PROCESS = ['test/unit/tick-shape.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time: most of the suite waits on child processes (daemons, svc, tmux,
    // chromium), so on a 2-core machine one file at a time left a core idle and took 25-28 minutes.
    // Every test uses its own home, port 0 and its own tmux socket, so files do not share state.
    maxWorkers: 2,
    // A worker runs many files in turn instead of a fresh process for each: starting node and loading
    // the packages again was most of vitest's "import" time. test/helpers/file-setup.ts, run before each
    // file, loads the repo's own modules again and puts the environment back (docs/architecture.md).
    // A file about the process itself, which another file could have changed, gets a process of its own.
    setupFiles: ['./test/helpers/file-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: TESTS, exclude: [...FRESH_PROCESS, ...EXCLUDE], isolate: false },
      },
      { extends: true, test: { name: 'fresh', include: FRESH_PROCESS, exclude: EXCLUDE, isolate: true } },
    ],
    globalSetup: ['./test/helpers/global-setup.ts'],
    // The slowest files first, by test/durations.json, in every clone (test/helpers/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    // The tests run svc as someone who put it on the PATH (`npm link`): hints name the program as it
    // was invoked (cli/hints.ts), so they say `svc ...` here; test/cli/program-name.test.ts runs ./bin/svc.
    // The machine's NODE_EXTRA_CA_CERTS is not handed to the thousands of node processes the tests start (svc,
    // daemons): Node parses that file at every start, and no test speaks TLS to the outside.
    // test/cli/extra-ca.test.ts, which does, names its own file.
    env: {
      NODE_EXTRA_CA_CERTS: '',
      PATH: `${resolve('bin')}${delimiter}${process.env.PATH ?? ''}`,
      SVC_CHECK_ANSWERS: '1',
      SVC_ANSWER_CHECK_DIR: process.env.SVC_ANSWER_CHECK_DIR,
    },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
