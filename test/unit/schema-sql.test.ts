// The schema you can read: daemon/store/schema.sql and daemon/store/rows.ts are what the migrations make
// today (scripts/schema-sql.ts writes both; SVC_UPDATE_SCHEMA=1 rewrites them here), and every table has
// exactly one owner in docs/architecture.md, "Tables"; no file of the daemon declares a table's row a
// second time.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { allowedLiterals, checkBodies } from '../../scripts/schema-rows.js';
import {
  type MigratedSchema,
  migratedSchema,
  REGENERATE,
  renderRowsTs,
  renderSchemaSql,
  ROWS_TS,
  SCHEMA_SQL,
} from '../../scripts/schema-sql.js';

let schema: MigratedSchema;
beforeAll(() => {
  schema = migratedSchema();
});

/** The committed file equals what the migrations make (or is rewritten when SVC_UPDATE_SCHEMA=1). */
function expectCurrent(file: URL, generated: string): void {
  if (process.env.SVC_UPDATE_SCHEMA === '1') writeFileSync(file, generated);
  const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';
  expect(committed, `${file.pathname.split('/').slice(-3).join('/')} is stale: run \`${REGENERATE}\``).toBe(generated);
}

/** The owner of each table, as docs/architecture.md's "Tables" lists them: `- \`folder/\`: \`t\`, ...`. */
function tableOwners(): Array<[table: string, owner: string]> {
  const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
  const section = /^## Tables\n([\s\S]*?)(?=^## )/m.exec(doc)?.[1] ?? '';
  const owners: Array<[string, string]> = [];
  for (const item of section.split(/^- /m).slice(1)) {
    const m = /^`([a-z-]+)\/`:([\s\S]*)/.exec(item);
    if (!m) continue;
    for (const t of m[2].matchAll(/`(\w+)`/g)) owners.push([t[1], m[1]]);
  }
  return owners;
}

describe('the generated schema', () => {
  it('daemon/store/schema.sql is the schema after every migration, sorted by type then name', () => {
    expectCurrent(SCHEMA_SQL, renderSchemaSql(schema.objects));
    const order = schema.objects.map((o) => `${o.type} ${o.name}`);
    expect(order).toEqual([...order].sort());
    expect(order).toContain('trigger admin_actions_checker_not_maker');
  });

  it("daemon/store/rows.ts declares every table's row with the columns the migrations make", () => {
    expectCurrent(ROWS_TS, renderRowsTs(schema.tables));
    const tables = schema.objects.filter((o) => o.type === 'table');
    // a STRICT table holds exactly the declared type, which is what makes the row types true
    expect(
      tables.filter((t) => !/\bSTRICT\b/.test(t.sql?.slice(t.sql.lastIndexOf(')')) ?? '')).map((t) => t.name),
    ).toEqual([]);
    expect(schema.tables.get('orders')?.find((c) => c.name === 'time_in_force')).toEqual({
      name: 'time_in_force',
      type: "'day' | 'gtc' | 'ioc' | 'fok'",
      nullable: false,
    });
    expect(schema.tables.get('orders')?.find((c) => c.name === 'routing')?.comment).toBe(
      'auto: the simulated exchange fills it from the tape; desk: the dealer queue does',
    );
  });

  it('a TEXT column checked against a list of literals is typed as that list, and any other check is not', () => {
    expect(allowedLiterals("side IN ('buy', 'sell')")).toEqual({ column: 'side', literals: ["'buy'", "'sell'"] });
    expect(allowedLiterals("s IS NULL OR s = 'a' OR s = 'b'")).toEqual({ column: 's', literals: ["'a'", "'b'"] });
    expect(allowedLiterals("s = 'a' OR t = 'b'")).toBeNull();
    expect(allowedLiterals("s IN ('a', 'b') AND t IS NULL")).toBeNull();
    expect(allowedLiterals('length(s) <= 500')).toBeNull();
    expect(allowedLiterals("s IN ('it''s', 'a')")).toBeNull();
    expect(allowedLiterals("s IN ('a\\b')")).toBeNull();
    expect(checkBodies("x TEXT CHECK (x IN ('(', ')')),\n  CHECK ((a IS NULL) =\n (b IS NULL))")).toEqual([
      "x IN ('(', ')')",
      '(a IS NULL) = (b IS NULL)',
    ]);
  });
});

describe('docs/architecture.md, "Tables"', () => {
  it('names exactly one owner for every table of schema.sql, and no table that is not there', () => {
    const owners = tableOwners();
    const listed = owners.map(([t]) => t);
    const tables = [...schema.tables.keys()];
    expect(
      listed.filter((t, i) => listed.indexOf(t) !== i),
      'tables listed twice',
    ).toEqual([]);
    expect(
      tables.filter((t) => !listed.includes(t)),
      'tables with no owner',
    ).toEqual([]);
    expect(
      listed.filter((t) => !tables.includes(t)),
      'listed tables that schema.sql lacks',
    ).toEqual([]);
  });

  it('every owner is a folder under daemon/', () => {
    for (const [, owner] of tableOwners()) {
      const dir = new URL(`../../daemon/${owner}`, import.meta.url);
      expect(existsSync(dir) && statSync(dir).isDirectory(), `daemon/${owner}/`).toBe(true);
    }
  });
});

const DAEMON = fileURLToPath(new URL('../../daemon', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Interfaces and object types in daemon/ (but rows.ts) that name every column of a table of 5 or more. */
function redeclaredRows(tables: MigratedSchema['tables']): string[] {
  const found: string[] = [];
  const wide = [...tables.values()].filter((columns) => columns.length >= 5);
  for (const file of sourceFiles(DAEMON)) {
    if (relative(DAEMON, file) === join('store', 'rows.ts')) continue;
    const text = readFileSync(file, 'utf8');
    // only a file that mentions every column of some table can declare its row: parse just those
    if (!wide.some((columns) => columns.every((c) => text.includes(c.name)))) continue;
    const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) {
        const names = new Set(node.members.filter(ts.isPropertySignature).map((m) => m.name.getText(src)));
        const line = src.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        for (const [table, columns] of tables)
          if (columns.length >= 5 && columns.every((c) => names.has(c.name)))
            found.push(`daemon/${relative(DAEMON, file)}:${line} ${table}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return found;
}

describe('row types', () => {
  it("no file of the daemon declares a table's row by hand: it names the row of daemon/store/rows.ts", () => {
    expect(redeclaredRows(schema.tables)).toEqual([]);
  });
});
