// The code's shape, measured with the project's own TypeScript compiler: every function over 80 lines
// and every explicit `any` in daemon/, cli/, console/, client/ and examples/ (docs/architecture.md, "Code shape").
// `node scripts/code-shape.mjs` prints each offender and a summary; exit 1 when there is any.
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const MAX_FUNCTION_LINES = 80;
export const MAX_LINE_WIDTH = 120;
const ROOTS = ['daemon', 'cli', 'console', 'client', 'examples'];
// Line width holds everywhere code is written, except where a line's text is not ours to wrap: a shipped
// migration's SQL is what existing databases hold (daemon/store/migrations/), and generated files.
const WIDTH_ROOTS = [...ROOTS, 'scripts', 'test'];
const WIDTH_EXEMPT = [
  /^daemon\/store\/migrations\//,
  /^test\/contract\/generated\//,
  /^client\/src\/generated\//,
  /(^|\/)dist\//,
];

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

/** A test's name is one sentence that a reader greps for when the reporter prints it: its line may be wide. */
function isTestTitle(n, src) {
  const p = n.parent;
  return (
    p !== undefined &&
    ts.isCallExpression(p) &&
    p.arguments[0] === n &&
    /^(it|test|describe)\b/.test(p.expression.getText(src)) &&
    (ts.isStringLiteralLike(n) || ts.isTemplateExpression(n))
  );
}

/** Lines wider than MAX_LINE_WIDTH, except those that hold a test's name: { file, line, kind: 'wide', width }. */
export function wideLines(file, text = readFileSync(file, 'utf8')) {
  const lines = text.split('\n');
  if (!lines.some((l) => l.length > MAX_LINE_WIDTH)) return [];
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const titles = new Set();
  const visit = (n) => {
    if (isTestTitle(n, src)) titles.add(src.getLineAndCharacterOfPosition(n.getStart(src)).line);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return lines.flatMap((l, i) =>
    l.length > MAX_LINE_WIDTH && !titles.has(i) ? [{ file, line: i + 1, kind: 'wide', width: l.length }] : [],
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

function filesUnder(root, dirs) {
  const files = [];
  for (const d of dirs) {
    try {
      sourceFiles(join(root, d), files);
    } catch {
      /* a root that does not exist yet */
    }
  }
  return files;
}

export function inspectTree(root = process.cwd()) {
  const files = filesUnder(root, ROOTS);
  const rel = (o) => ({ ...o, file: o.file.slice(root.length + 1) });
  const wide = filesUnder(root, WIDTH_ROOTS)
    .filter((f) => !WIDTH_EXEMPT.some((re) => re.test(f.slice(root.length + 1))))
    .flatMap((f) => wideLines(f))
    .map(rel);
  return { files: files.length, offenders: [...files.flatMap((f) => inspectFile(f)).map(rel), ...wide] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, offenders } = inspectTree();
  const say = {
    long: (o) => `long  ${o.file}:${o.line} ${o.lines} lines ${o.name}`,
    any: (o) => `any   ${o.file}:${o.line}`,
    wide: (o) => `wide  ${o.file}:${o.line} ${o.width} characters`,
  };
  for (const o of offenders) console.log(say[o.kind](o));
  const count = (kind) => offenders.filter((o) => o.kind === kind).length;
  console.log(
    `shape: ${files} files, ${count('long')} functions over ${MAX_FUNCTION_LINES} lines, ${count('any')}` +
      ` explicit any, ${count('wide')} lines over ${MAX_LINE_WIDTH} characters`,
  );
  process.exit(offenders.length === 0 ? 0 : 1);
}
