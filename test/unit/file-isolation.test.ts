// See test/helpers/file-isolation.ts: this file and its twin each start as in a fresh process.
import { expect, it } from 'vitest';
import { expectFreshStart } from '../helpers/file-isolation.js';

it('a test file starts with the environment and module state of a fresh process, whatever its worker ran before', () => {
  expectFreshStart(import.meta.url);
  expect(process.env.SVC_TEST_FILE_MARK).toBe(import.meta.url);
});
