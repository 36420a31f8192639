// The long variant of test/crash/crash.test.ts for `npm run soak` (SVC_SOAK=1): one daemon home, at
// least 20 SIGKILL/restart cycles under load (SVC_SOAK_CRASH_CYCLES, default 25), each killed at a
// random moment within 0.25-3 s of load. SVC_CRASH_SEED=<seed> replays the run's choices.
import { describe, expect, it } from 'vitest';
import { crashSeed, runCrashCycles } from '../helpers/crash-workload.js';

const CYCLES = Number(process.env.SVC_SOAK_CRASH_CYCLES ?? 25);

describe.runIf(process.env.SVC_SOAK === '1')('crash soak', () => {
  it(`${CYCLES} SIGKILL/restart cycles under load: nothing acknowledged lost, nothing half-applied, retries replay or apply once`, async () => {
    const seed = crashSeed();
    console.log(`crash soak: seed ${seed} (SVC_CRASH_SEED=${seed} replays the choices)`);
    const r = await runCrashCycles({ cycles: CYCLES, seed, killWindowMs: [250, 3000], log: (m) => console.log(m) });
    const kills = r.cycles.map((c) => c.killAfterMs);
    console.log(
      `crash soak: ${r.cycles.length} cycles (kills after ${Math.min(...kills)}-${Math.max(...kills)} ms), ` +
        `${r.totalSent} requests: ${r.totalAcked} acknowledged, ` +
        `${r.totalCommittedUnacked} unacknowledged but committed, ${r.totalAbsentUnacked} unacknowledged and ` +
        `absent (${r.totalLostReplies} replies dropped by the client; of those cut by the kill ` +
        `${r.totalKillCutCommitted} committed); ${r.finalReplays} final replays (${r.finalExpired} older than ` +
        `the idempotency window left out); ` +
        `restarts ${Math.min(...r.cycles.map((c) => c.restartMs))}-` +
        `${Math.max(...r.cycles.map((c) => c.restartMs))} ms; fund orders ${r.fundOrders ? 'on' : 'off'}; ` +
        `${(r.ms / 1000).toFixed(1)} s`,
    );
    expect(r.cycles.length).toBeGreaterThanOrEqual(20);
  }, 1_800_000);
});
