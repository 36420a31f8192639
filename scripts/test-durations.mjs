// Writes test/durations.json: how long each test file took in the last `npm test` on this machine (vitest's own
// record of it, under node_modules/.vite/vitest), in whole milliseconds. vitest.config.ts runs the files slowest
// first by this list (test/helpers/sequencer.ts), so that a clean clone, which has no record, runs them in the
// order a second run would. Refresh it after adding a slow file or making one much faster:
//   npm test && node scripts/test-durations.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = 'node_modules/.vite/vitest';
const durations = {};
for (const hash of readdirSync(dir)) {
  let results;
  try {
    results = JSON.parse(readFileSync(join(dir, hash, 'results.json'), 'utf8')).results;
  } catch {
    continue;
  }
  for (const [key, r] of results) {
    // the key is `<project>:<file>`
    const file = key.slice(key.indexOf(':') + 1);
    if (file.startsWith('test/') && r.duration > 0) durations[file] = Math.round(r.duration);
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync('test/durations.json', `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(`test/durations.json: ${Object.keys(sorted).length} files\n`);
