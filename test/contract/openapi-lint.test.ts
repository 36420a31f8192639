// Third-party linters on the document the daemon serves: Redocly CLI (recommended rules) and
// Spectral (spectral:oas), run from node_modules/.bin on GET /openapi.json written to a temp file.
// Both must report 0 errors; the only warnings allowed are listed here, each with its reason.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const BIN = resolve(HERE, '../../node_modules/.bin');
const QUIET = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** Warnings accepted, by rule and location: /healthz and /openapi.json answer no 4xx at all. */
const ALLOWED_WARNINGS = new Set([
  'operation-4xx-response #/paths/~1healthz/get/responses',
  'operation-4xx-response #/paths/~1openapi.json/get/responses',
]);

let t: TestApp;
let dir: string;
let file: string;

beforeAll(async () => {
  t = await makeApp();
  const res = await t.req('GET', '/openapi.json', { as: 'none' });
  expect(res.status).toBe(200);
  dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
  file = join(dir, 'openapi.json');
  writeFileSync(file, res.text);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

function redocly(args: string[]): string {
  const r = spawnSync(join(BIN, 'redocly'), args, { cwd: dir, env: QUIET, encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw r.error;
  if (!r.stdout.trim().startsWith('{')) throw new Error(`redocly ${r.status}: ${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

interface RedoclyProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

interface SpectralProblem {
  code: string;
  severity: number;
  message: string;
  path: string[];
}

describe('third-party linters on GET /openapi.json', () => {
  it('Redocly CLI (recommended): 0 errors, no warning but the listed ones', () => {
    const out = JSON.parse(redocly(['lint', file, '--config', join(HERE, 'redocly.yaml'), '--format', 'json'])) as {
      problems: RedoclyProblem[];
    };
    const where = (p: RedoclyProblem) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`;
    expect(out.problems.filter((p) => p.severity === 'error').map((p) => `${where(p)}: ${p.message}`)).toEqual([]);
    expect(out.problems.map(where).filter((w) => !ALLOWED_WARNINGS.has(w))).toEqual([]);
  });

  it('Spectral (spectral:oas): 0 errors, 0 warnings', () => {
    const report = join(dir, 'spectral.json');
    const r = spawnSync(
      join(BIN, 'spectral'),
      ['lint', file, '--ruleset', join(HERE, 'spectral.yaml'), '--format', 'json', '--output', report],
      { cwd: dir, env: QUIET, encoding: 'utf8', timeout: 120_000 },
    );
    if (r.error) throw r.error;
    const out = JSON.parse(readFileSync(report, 'utf8')) as SpectralProblem[];
    // severity: 0 error, 1 warning, 2 information, 3 hint
    expect(out.filter((p) => p.severity <= 1).map((p) => `${p.code} ${p.path.join('.')}: ${p.message}`)).toEqual([]);
  });
});
