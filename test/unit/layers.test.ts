// The import graph of daemon/, cli/ and client/, read with the TypeScript compiler API (every import counts:
// values, types, re-exports, dynamic import() and import('...') types). Two rules, docs/architecture.md
// "Layers": no import circle, and no import from a lower layer to a higher one.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The layer order, bottom first (the one copy of it in code; docs/architecture.md states the same).
 * A file may import its own layer and the layers below it. cli/ is outside the order: it may import
 * only cli/, daemon/contract/ and the client library (client/src/, whose first user it is).
 */
const LAYERS: Array<{ name: string; paths: string[] }> = [
  { name: 'contract', paths: ['daemon/contract/'] },
  // fixtures.ts reads the fixture files and imports nothing of the daemon.
  { name: 'store, sim', paths: ['daemon/store/', 'daemon/sim/', 'daemon/fixtures.ts'] },
  {
    name: 'market, ledger, tenancy, investors, record',
    paths: ['daemon/market/', 'daemon/ledger/', 'daemon/tenancy/', 'daemon/investors/', 'daemon/record/'],
  },
  {
    name: 'domains',
    paths: [
      'daemon/onboarding/',
      'daemon/funding/',
      'daemon/trading/',
      'daemon/funds/',
      'daemon/dividends/',
      'daemon/portfolio/',
      'daemon/news/',
      'daemon/backoffice/',
      'daemon/branding/',
      'daemon/reports/',
      'daemon/reconciliation/',
      'daemon/assistant/',
      'daemon/surveillance/',
      'daemon/complaints/',
    ],
  },
  { name: 'sandbox', paths: ['daemon/sandbox/'] },
  { name: 'http', paths: ['daemon/http/', 'daemon/console/'] },
  {
    name: 'app',
    paths: [
      'daemon/app.ts',
      'daemon/routes.ts',
      'daemon/deps.ts',
      'daemon/main.ts',
      'daemon/start.ts',
      'daemon/tick-shape.ts',
      'daemon/process/',
    ],
  },
];

/**
 * The one upward reference allowed: the dependency container's type. The domains and the layers above
 * them may name `Deps` from daemon/deps.ts with a type-only import (services take `Pick<Deps, ...>`);
 * never its construction. No file of a folder that deps.ts builds from (contract up to the record
 * layer) names it, not even a route or a view there, so deps.ts sits between those folders and the
 * domains with every arrow pointing down, folders included.
 */
const DEPS_FILE = 'daemon/deps.ts';
const DEPS_TYPE_FROM_LAYER = 3;

/** Known violations, `from -> to` as printed by the test; none today (the last test fails on a stale entry). */
const ALLOWLIST = new Set<string>([]);

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listSources(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/**
 * The repository-relative source file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx`);
 * null for packages and data files (JSON fixtures are not code).
 */
function resolveSpecifier(from: string, spec: string): string | null {
  if (!spec.startsWith('.') || spec.endsWith('.json')) return null;
  const base = join(dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, `${base}/index.ts`]) {
    if (existsSync(join(ROOT, candidate)) && /\.tsx?$/.test(candidate)) return candidate;
  }
  throw new Error(`${from}: cannot resolve ${spec}`);
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((e) => e.isTypeOnly)
  );
}

function importsOf(file: string): Edge[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const edges: Edge[] = [];
  const add = (spec: ts.Node | undefined, typeOnly: boolean) => {
    if (!spec || !ts.isStringLiteralLike(spec)) return;
    const to = resolveSpecifier(file, spec.text);
    if (to) edges.push({ from: file, to, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyExport(node));
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The bare (package) specifiers a file imports, types included. */
function packagesOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const spec =
      ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : undefined;
    if (spec && ts.isStringLiteralLike(spec) && !spec.text.startsWith('.')) found.push(spec.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function layerOf(file: string): number {
  const i = LAYERS.findIndex((l) => l.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
  if (i < 0) throw new Error(`${file} is in no layer: add its folder to LAYERS (and to docs/architecture.md)`);
  return i;
}

const key = (e: Edge) => `${e.from} -> ${e.to}`;

/** Why an edge breaks the layer order, or null when it is fine. */
function layerViolation(e: Edge): string | null {
  if (e.from.startsWith('client/')) return e.to.startsWith('client/') ? null : 'client/ imports only client/';
  if (e.from.startsWith('cli/')) {
    if (e.to.startsWith('cli/') || e.to.startsWith('daemon/contract/') || e.to.startsWith('client/')) return null;
    return 'cli/ may import only cli/, daemon/contract/ and client/';
  }
  if (e.to.startsWith('cli/')) return 'the daemon never imports cli/';
  const from = layerOf(e.from);
  const to = layerOf(e.to);
  if (to <= from) return null;
  if (e.to === DEPS_FILE && e.typeOnly && from >= DEPS_TYPE_FROM_LAYER) return null;
  return `${LAYERS[from].name} imports ${LAYERS[to].name}${e.typeOnly ? ' (type-only)' : ''}`;
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan. */
function circles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || next.get(v)!.includes(v)) found.push(component.sort());
  };
  for (const f of files) if (!index.has(f)) connect(f);
  return found;
}

const files = [...listSources('daemon'), ...listSources('cli'), ...listSources('client/src')].sort();
const allEdges = files.flatMap(importsOf);
const edges = allEdges.filter((e) => !ALLOWLIST.has(key(e)));

describe('layers: imports under daemon/, cli/ and client/ point down, without circles', () => {
  it('has no import circle (types included)', () => {
    const found = circles(files, edges);
    for (const c of found) {
      const inside = new Set(c);
      const lines = edges
        .filter((e) => inside.has(e.from) && inside.has(e.to))
        .map((e) => `  ${key(e)}${e.typeOnly ? ' (type-only)' : ''}`);
      console.error(`import circle of ${c.length} files:\n${lines.join('\n')}`);
    }
    expect(found).toEqual([]);
  });

  it('imports only its own layer or lower ones (cli/: only cli/, daemon/contract/ and client/)', () => {
    const violations = edges.flatMap((e) => {
      const why = layerViolation(e);
      return why ? [`${key(e)}  (${why})`] : [];
    });
    if (violations.length > 0) console.error(`layer violations:\n${violations.map((v) => `  ${v}`).join('\n')}`);
    expect(violations).toEqual([]);
  });

  it('has no circle between folders either: no two folders of daemon/ import each other, even through others', () => {
    const folderOf = (f: string) =>
      /^daemon\/[^/]+\//.test(f) ? `${f.split('/').slice(0, 2).join('/')}/` : f.startsWith('cli/') ? 'cli/' : f;
    const folders = [...new Set(files.map(folderOf))].sort();
    const between = edges
      .map((e) => ({ ...e, from: folderOf(e.from), to: folderOf(e.to) }))
      .filter((e) => e.from !== e.to);
    const found = circles(folders, between);
    for (const c of found) {
      const inside = new Set(c);
      const lines = edges
        .filter(
          (e) => inside.has(folderOf(e.from)) && inside.has(folderOf(e.to)) && folderOf(e.from) !== folderOf(e.to),
        )
        .map((e) => `  ${key(e)}`);
      console.error(`folder circle ${c.join(' ')}:\n${lines.join('\n')}`);
    }
    expect(found).toEqual([]);
  });

  it('the client library (client/) imports only its own files and node: built-ins, so it installs alone', () => {
    const foreign = files
      .filter((f) => f.startsWith('client/'))
      .flatMap((f) =>
        packagesOf(f)
          .filter((p) => !p.startsWith('node:'))
          .map((p) => `${f} -> ${p}`),
      );
    expect(foreign).toEqual([]);
  });

  it('allowlists only violations that still exist', () => {
    const present = new Set(allEdges.map(key));
    expect([...ALLOWLIST].filter((k) => !present.has(k))).toEqual([]);
  });
});
