// The order vitest runs the test files in (vitest.config.ts, sequence.sequencer): the slowest first, by
// test/durations.json (scripts/test-durations.mjs writes it from a run), and a file the list does not know before
// them all. vitest's own order is the same, slowest first, but by its record of the last run on this machine, and
// a clean clone (CI) has none: vitest then starts the largest files first, and a run took 404-409 s where the same
// clone's second run, slowest first, took 332 s (docs/bench.md). Two files run at a time; with the long ones first,
// the end of the run does not wait on one of them, and what runs side by side is the same in every clone.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

function durations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(resolve('test/durations.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = durations();
    const root = this.ctx.config.root;
    const ms = (f: TestSpecification) => known[relative(root, f.moduleId)] ?? Number.POSITIVE_INFINITY;
    // vitest's order first (projects one after the other, each in its own order), then slowest first within a project
    const base = await super.sort(files);
    return base.sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return ms(b) - ms(a);
    });
  }
}
