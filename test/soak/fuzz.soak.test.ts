// The long variant of test/security/fuzz.test.ts for `npm run soak` (SVC_SOAK=1): several rounds, each
// in a fresh world with its own seed, so sandbox resets and accumulated state never starve a round.
// SVC_SOAK_FUZZ_ROUNDS (default 10) x SVC_SOAK_FUZZ_REQUESTS per round (default 10,200).
import { describe, expect, it } from 'vitest';
import { buildFuzzWorld, formatStats, fuzzSeed, runFuzz } from '../helpers/fuzz-world.js';

const ROUNDS = Number(process.env.SVC_SOAK_FUZZ_ROUNDS ?? 10);
const PER_ROUND = Number(process.env.SVC_SOAK_FUZZ_REQUESTS ?? 10_200);

describe.runIf(process.env.SVC_SOAK === '1')('fuzz soak', () => {
  it(`${ROUNDS} rounds of ${PER_ROUND} malformed requests: no 5xx, spec-shaped errors, no state change on refusal`, async () => {
    const first = fuzzSeed();
    let total = 0;
    let ms = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const world = await buildFuzzWorld();
      try {
        const seed = first + round * 1_000;
        const stats = await runFuzz(world, PER_ROUND, seed);
        console.log(`round ${round + 1}/${ROUNDS}: ${formatStats(stats, seed, world.ops.length)}`);
        total += stats.requests;
        ms += stats.ms;
      } finally {
        await world.t.close();
      }
    }
    console.log(
      `fuzz soak: ${total} requests in ${(ms / 1000).toFixed(1)} s (${Math.round(total / (ms / 1000))}/s), ` +
        `first seed ${first} (round r uses seed + 1000 r)`,
    );
    expect(total).toBeGreaterThanOrEqual(ROUNDS * PER_ROUND);
  }, 3_600_000);
});
