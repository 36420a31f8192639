// Builds dist/ once before any test file runs: CLI tests spawn the real `svc` binary. Then, at the end,
// adds up what the answer checker checked (daemon/http/answer-check.ts): every app and daemon under test
// writes its tally into SVC_ANSWER_CHECK_DIR (vitest.config.ts makes it), and one line reports the sum.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

interface Tally {
  checked: number;
  mismatches: number;
  examples: string[];
}

function sumTallies(dir: string): Tally {
  const sum: Tally = { checked: 0, mismatches: 0, examples: [] };
  // daemons write theirs at the top, each test file's in-process apps into a directory of its own
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.json')) continue;
    let t: Tally;
    try {
      t = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Tally;
    } catch {
      continue; // a daemon killed while it wrote: its last tally is lost, not the run
    }
    sum.checked += t.checked;
    sum.mismatches += t.mismatches;
    sum.examples.push(...t.examples);
  }
  return sum;
}

// vitest runs the global setup once for each project (vitest.config.ts has two) in the same process: the
// first call builds and owns the tally directory; the others share it. The last teardown adds up.
const shared = globalThis as { svcGlobalSetups?: number };

export default function setup(): () => void {
  shared.svcGlobalSetups = (shared.svcGlobalSetups ?? 0) + 1;
  if (shared.svcGlobalSetups > 1) return lastOneReports;
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const dir = process.env.SVC_ANSWER_CHECK_DIR;
  if (dir) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  return lastOneReports;
}

function lastOneReports(): void {
  shared.svcGlobalSetups = (shared.svcGlobalSetups ?? 1) - 1;
  if (shared.svcGlobalSetups > 0) return;
  const dir = process.env.SVC_ANSWER_CHECK_DIR;
  if (!dir) return;
  const sum = sumTallies(dir);
  for (const example of sum.examples.slice(0, 20)) console.log(`answer checker mismatch: ${example}`);
  console.log(`answer checker: ${sum.checked} answers checked, ${sum.mismatches} mismatches`);
  rmSync(dir, { recursive: true, force: true });
}
