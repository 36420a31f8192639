// For test/unit/file-isolation*.test.ts: two files that each prove they start as in a fresh process. A
// worker runs many files in turn (vitest.config.ts, isolate: false); when both land in one worker, the
// second fails if test/helpers/file-setup.ts did not load this module again or put process.env back.
import { expect } from 'vitest';

const filesSeen: string[] = [];
const MARK = 'SVC_TEST_FILE_MARK';

export function expectFreshStart(file: string): void {
  expect(filesSeen, 'a module of the repo still holds state from an earlier file').toEqual([]);
  expect(process.env[MARK], 'process.env still holds a variable an earlier file set').toBeUndefined();
  filesSeen.push(file);
  process.env[MARK] = file;
}
