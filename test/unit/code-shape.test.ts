// The code's shape is part of its contract with its readers (docs/architecture.md, "Code shape"): no
// function in daemon/, cli/ or console/ over 80 lines, and no explicit `any`. Measured with the
// TypeScript compiler by scripts/code-shape.mjs, which `node scripts/code-shape.mjs` also runs by hand.
import { describe, expect, it } from 'vitest';
import { inspectFile, inspectTree, MAX_FUNCTION_LINES, MAX_LINE_WIDTH, wideLines } from '../../scripts/code-shape.mjs';

describe('code shape: small functions, no explicit any', () => {
  const { offenders } = inspectTree(process.cwd());

  it(`no function in daemon/ or cli/ is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = offenders
      .filter((o) => o.kind === 'long')
      .map((o) => `${o.file}:${o.line} ${o.name ?? ''} (${o.lines} lines)`);
    expect(long).toEqual([]);
  });

  it('no explicit any in daemon/ or cli/', () => {
    const anys = offenders.filter((o) => o.kind === 'any').map((o) => `${o.file}:${o.line}`);
    expect(anys).toEqual([]);
  });

  it(`no line of code, tests or scripts is over ${MAX_LINE_WIDTH} characters (a test's name may be)`, () => {
    const wide = offenders.filter((o) => o.kind === 'wide').map((o) => `${o.file}:${o.line} (${o.width})`);
    expect(wide).toEqual([]);
  });

  it('the width check finds a wide line and lets a wide test name through (it can fail)', () => {
    const name = 'x'.repeat(MAX_LINE_WIDTH);
    const text = `it('${name}', () => {});\nconst s = '${name}';\n`;
    expect(wideLines('probe.test.ts', text)).toEqual([
      { file: 'probe.test.ts', line: 2, kind: 'wide', width: MAX_LINE_WIDTH + 13 },
    ]);
  });

  it('the check itself finds a long function and an explicit any (it can fail)', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const found = inspectFile('probe.ts', `export function big(x: any) {\n${body}\n}\nconst ok = (y: number) => y;\n`);
    expect(found.map((o) => o.kind).sort()).toEqual(['any', 'long']);
    expect(found.find((o) => o.kind === 'long')).toMatchObject({ name: 'big', lines: MAX_FUNCTION_LINES + 2 });
  });
});
