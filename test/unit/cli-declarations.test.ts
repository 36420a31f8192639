// The CLI declares every command on each start and loads a command's code only when it runs
// (docs/architecture.md, "CLI"). Read from the sources with the TypeScript compiler API: the static
// imports of each cli/commands/*.command.ts (type-only ones are erased and do not count), file to file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const COMMANDS = join(ROOT, 'cli/commands');

/** The module specifiers a file imports statically with a value (not `import type`, not `import()`). */
function staticImports(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const node of src.statements) {
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
    if (!node.moduleSpecifier || !ts.isStringLiteral(node.moduleSpecifier)) continue;
    if (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly) continue;
    if (ts.isExportDeclaration(node) && node.isTypeOnly) continue;
    found.push(node.moduleSpecifier.text);
  }
  return found;
}

/** A relative specifier as the .ts or .tsx file it names. */
function sourceOf(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  const file = [`${base}.ts`, `${base}.tsx`].find(existsSync);
  if (!file) throw new Error(`${relative(ROOT, from)} imports ${specifier}, which is no source file`);
  return file;
}

/** Every file and package loaded before any code of `entry` runs: it and its static imports, transitively. */
function closure(entry: string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) visit(sourceOf(file, spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => relative(ROOT, f)), packages: [...packages] };
}

const declarations = readdirSync(COMMANDS).filter((n) => n.endsWith('.command.ts'));

describe('command declarations', () => {
  it('declaring a command loads commander and small helpers, never the code that runs it', () => {
    for (const name of declarations) {
      const { files, packages } = closure(join(COMMANDS, name));
      expect(
        packages.filter((p) => !p.startsWith('node:')),
        name,
      ).toEqual(['commander']);
      // A command's code (cli/commands/<name>.ts, the client, the screens) comes with import() when it runs.
      const code = files.filter((f) => /^cli\/(commands|client|ui|live)\//.test(f) && !f.endsWith('.command.ts'));
      expect(code, name).toEqual(['cli/commands/declare.ts']);
    }
  });

  it('each declaration imports commander, declare.ts and other declarations only', () => {
    expect(declarations.length).toBeGreaterThan(20);
    const allowed = (spec: string) =>
      spec === 'commander' || spec === './declare.js' || /^\.\/[\w-]+\.command\.js$/.test(spec);
    const stray = declarations.flatMap((name) =>
      staticImports(join(COMMANDS, name))
        .filter((spec) => !allowed(spec))
        .map((spec) => `${name}: ${spec}`),
    );
    expect(stray).toEqual([]);
  });
});
