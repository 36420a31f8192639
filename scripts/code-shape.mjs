// The code's shape, measured with the project's own TypeScript compiler: every function over 80 lines
// and every explicit `any` in daemon/, cli/, console/, client/ and examples/ (docs/architecture.md, "Code shape").
// `node scripts/code-shape.mjs` prints each offender and a summary; exit 1 when there is any.
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const MAX_FUNCTION_LINES = 80;
const ROOTS = ['daemon', 'cli', 'console', 'client', 'examples'];

function sourceFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function isFunction(n) {
  return (
    ts.isFunctionDeclaration(n) ||
    ts.isFunctionExpression(n) ||
    ts.isArrowFunction(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessor(n) ||
    ts.isSetAccessor(n)
  );
}

/** Offenders of one file: { file, line, kind: 'long' | 'any', lines?, name? }. */
export function inspectFile(file, text = readFileSync(file, 'utf8')) {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (pos) => src.getLineAndCharacterOfPosition(pos).line + 1;
  const found = [];
  const visit = (n) => {
    if (isFunction(n)) {
      const lines = lineOf(n.getEnd()) - lineOf(n.getStart()) + 1;
      if (lines > MAX_FUNCTION_LINES)
        found.push({ file, line: lineOf(n.getStart()), kind: 'long', lines, name: n.name?.getText?.() ?? '' });
    }
    if (n.kind === ts.SyntaxKind.AnyKeyword) found.push({ file, line: lineOf(n.getStart()), kind: 'any' });
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

export function inspectTree(root = process.cwd()) {
  const files = [];
  for (const d of ROOTS) {
    try {
      sourceFiles(join(root, d), files);
    } catch {
      /* a root that does not exist yet */
    }
  }
  return {
    files: files.length,
    offenders: files.flatMap((f) => inspectFile(f)).map((o) => ({ ...o, file: o.file.slice(root.length + 1) })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, offenders } = inspectTree();
  for (const o of offenders)
    console.log(
      o.kind === 'long' ? `long  ${o.file}:${o.line} ${o.lines} lines ${o.name}` : `any   ${o.file}:${o.line}`,
    );
  const long = offenders.filter((o) => o.kind === 'long').length;
  console.log(
    `shape: ${files} files, ${long} functions over ${MAX_FUNCTION_LINES} lines, ${offenders.length - long} explicit any`,
  );
  process.exit(offenders.length === 0 ? 0 : 1);
}
