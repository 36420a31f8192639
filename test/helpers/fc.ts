// fast-check parameters of the property tests: every run prints its seed, so a failure seen once (in
// CI, on another machine) can be replayed exactly with FC_SEED=<seed>.
import { relative } from 'node:path';
import { expect } from 'vitest';

export interface FcParams {
  seed: number;
  numRuns: number;
  /** With the seed, replays the failing case this shrink path names (fast-check prints it). */
  path?: string;
}

function envInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, not ${JSON.stringify(raw)}`);
  return n;
}

/**
 * The seed from FC_SEED, else a fresh one; FC_NUM_RUNS overrides `numRuns`; FC_PATH replays one path.
 * Call it inside the test, once per fc.assert: it prints the seed and how to replay the file.
 */
export function fcParams(opts: { numRuns: number }): FcParams {
  const seed = envInt('FC_SEED') ?? Math.floor(Math.random() * 2 ** 31);
  const numRuns = envInt('FC_NUM_RUNS') ?? opts.numRuns;
  const path = process.env.FC_PATH || undefined;
  const testPath = expect.getState().testPath;
  const file = testPath ? relative(process.cwd(), testPath) : '<file>';
  console.log(`fast-check seed ${seed} (replay: FC_SEED=${seed} npx vitest run ${file})`);
  return path === undefined ? { seed, numRuns } : { seed, numRuns, path };
}
