// The scenario header's `ai:` line (docs/scenarios.md, docs/assistant.md): the isolated daemon of a
// file runs with that assistant provider; a value that is not one is an error with its line, before
// anything runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-scenario-ai-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, ai: string): string {
  const f = join(dir, name);
  writeFileSync(
    f,
    `${[
      'name: assistant provider',
      'seed: 42',
      'start: 2026-11-22T09:00:00+02:00',
      `ai: ${ai}`,
      'steps:',
      '  - name: state',
      '    request: { method: GET, path: /admin/sandbox/state }',
      `    expect: { status: 200, fields: { ai: ${JSON.stringify(ai)} } }`,
      '  - name: glossary',
      '    request: { method: GET, path: /v1/ai/glossary/t-plus-2 }',
      '    expect: { status: 200, fields: { outcome: answered } }',
    ].join('\n')}\n`,
  );
  return f;
}

describe('scenario header ai:', () => {
  it('ai: registry starts the isolated daemon with the registry provider', async () => {
    const res = await runSvc(['scenario', 'run', file('registry.yaml', 'registry')], { timeoutMs: 60_000 });
    expect(res.code, res.stdout + res.stderr).toBe(0);
  });

  it('ai: gpt is refused with its line before anything runs (exit 2)', async () => {
    const res = await runSvc(['scenario', 'run', file('bad.yaml', 'gpt')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/bad\.yaml:4:1: ai: must be none, registry or openai:<base_url>/);
  });
});
