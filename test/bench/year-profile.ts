// Where the simulated year's advance spends its time: builds the world of year-world.ts, then profiles
// only the advance (node:inspector) and prints the top functions by self and by inclusive time.
// npx tsx test/bench/year-profile.ts [days]   (writes /tmp/year-advance.cpuprofile too)
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { makeApp } from '../helpers/app.js';
import { buildYearWorld, FULL_WORLD, WORLD_START, worldCounts } from '../helpers/year-world.js';

const ROOT = `file://${fileURLToPath(new URL('../..', import.meta.url))}`;

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

function summarise(p: { nodes: Node[]; samples: number[]; timeDeltas: number[] }): void {
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: Node) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(ROOT, '')}:${n.callFrame.lineNumber + 1}`;
  const selfBy = new Map<string, number>();
  const inclBy = new Map<string, number>();
  for (const [id, ms] of self) {
    selfBy.set(label(byId.get(id)!), (selfBy.get(label(byId.get(id)!)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclBy.set(l, (inclBy.get(l) ?? 0) + ms);
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([l, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${l}`);
  console.log(`--- self\n${top(selfBy, 25).join('\n')}`);
  console.log(`--- inclusive\n${top(inclBy, 110).join('\n')}`);
}

const days = Number(process.argv[2] ?? 365);
const t = await makeApp({ start: WORLD_START });
try {
  await buildYearWorld(t, FULL_WORLD);
  const before = worldCounts(t);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const s = performance.now();
  const res = await t.req('POST', '/admin/sandbox/clock-advance', { body: { days } });
  const ms = performance.now() - s;
  const { profile } = await session.post('Profiler.stop');
  writeFileSync('/tmp/year-advance.cpuprofile', JSON.stringify(profile));
  const after = worldCounts(t);
  console.log(
    `advance ${days} days: ${res.status} in ${ms.toFixed(0)} ms, ${res.body.instants_processed} instants,`,
    `${after.eventsDone - before.eventsDone} events, ${after.fills - before.fills} fills`,
  );
  summarise(profile as never);
} finally {
  await t.close();
}
