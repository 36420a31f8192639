// The row type of every table, read from the schema the migrations make: what
// scripts/schema-sql.ts writes to daemon/store/rows.ts. A column's type is its declared SQLite type
// (every table is STRICT, so a column holds exactly that type): INTEGER and REAL are `number`, TEXT is
// `string`, BLOB is `Buffer`; a column without NOT NULL (other than an INTEGER primary key, the rowid)
// adds `| null`. A TEXT column whose CHECK allows only a list of literals
// (`x IN ('a', 'b')` or `x = 'a' OR x = 'b'`, optionally after `x IS NULL OR`) is the union of those
// literals; integer flags (`IN (0, 1)`) stay `number`, as better-sqlite3 reads them. A `--` comment
// right above a column's definition in its CREATE TABLE becomes the property's doc comment.
import type { Db } from '../daemon/store/db.js';

export interface Column {
  name: string;
  type: string;
  nullable: boolean;
  /** The SQL comment above the column's definition, if any. */
  comment?: string;
}

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

const TS_TYPES: Record<string, string> = { INTEGER: 'number', INT: 'number', REAL: 'number', TEXT: 'string' };

/** The bodies of every `CHECK (...)` of a CREATE TABLE, whitespace collapsed to single spaces. */
export function checkBodies(sql: string): string[] {
  const bodies: string[] = [];
  const re = /\bCHECK\s*\(/gi;
  for (let m = re.exec(sql); m !== null; m = re.exec(sql)) {
    let depth = 1;
    let i = re.lastIndex;
    let quoted = false;
    for (; i < sql.length && depth > 0; i++) {
      const c = sql[i];
      if (c === "'") quoted = !quoted;
      else if (!quoted && c === '(') depth++;
      else if (!quoted && c === ')') depth--;
    }
    bodies.push(
      sql
        .slice(re.lastIndex, i - 1)
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }
  return bodies;
}

/** A SQL string literal TypeScript reads the same: no doubled quote, no backslash. */
const LITERAL = "'[^'\\\\]*'";

/** The literals a CHECK body allows a column, or null when it is not a plain list of TEXT literals. */
export function allowedLiterals(body: string): { column: string; literals: string[] } | null {
  const inList = new RegExp(`^(?:(\\w+) IS NULL OR )?(\\w+) IN \\((${LITERAL}(?:, ?${LITERAL})*)\\)$`).exec(body);
  if (inList && (inList[1] === undefined || inList[1] === inList[2]))
    return { column: inList[2], literals: inList[3].split(/, ?/) };
  const terms = body.split(' OR ');
  const column = /^(\w+) /.exec(terms[0] ?? '')?.[1];
  if (column === undefined) return null;
  const rest = terms[0] === `${column} IS NULL` ? terms.slice(1) : terms;
  const literals: string[] = [];
  for (const term of rest) {
    const eq = new RegExp(`^${column} = (${LITERAL})$`).exec(term);
    if (!eq) return null;
    literals.push(eq[1]);
  }
  return literals.length > 0 ? { column, literals } : null;
}

/** The `--` comment lines right above each column's definition in a CREATE TABLE, joined. */
export function columnComments(sql: string, columns: string[]): Map<string, string> {
  const out = new Map<string, string>();
  let pending: string[] = [];
  for (const line of sql.split('\n')) {
    const comment = /^\s*--\s?(.*)$/.exec(line);
    if (comment) {
      pending.push(comment[1].trim());
      continue;
    }
    const name = /^\s*"?(\w+)"?\s/.exec(line)?.[1];
    if (name !== undefined && columns.includes(name) && pending.length > 0) out.set(name, pending.join(' '));
    pending = [];
  }
  return out;
}

/** Every column of `table` with its TypeScript type. */
export function columnsOf(db: Db, table: string, sql: string): Column[] {
  const unions = new Map<string, string[]>();
  for (const body of checkBodies(sql)) {
    const allowed = allowedLiterals(body);
    if (allowed && !unions.has(allowed.column)) unions.set(allowed.column, allowed.literals);
  }
  const info = db.prepare<[], ColumnInfo>(`SELECT name, type, "notnull", pk FROM pragma_table_xinfo('${table}')`).all();
  const comments = columnComments(
    sql,
    info.map((c) => c.name),
  );
  return info.map((c) => {
    const base = TS_TYPES[c.type.toUpperCase()] ?? (c.type.toUpperCase() === 'BLOB' ? 'Buffer' : 'unknown');
    const literals = base === 'string' ? unions.get(c.name) : undefined;
    const column: Column = {
      name: c.name,
      type: literals ? literals.join(' | ') : base,
      // SQLite reports a STRICT table's primary key NOT NULL itself; an INTEGER one is the rowid, never NULL
      nullable: c.notnull === 0 && !(c.pk > 0 && c.type.toUpperCase() === 'INTEGER'),
    };
    const comment = comments.get(c.name);
    return comment === undefined ? column : { ...column, comment };
  });
}

/** `access_review_items` -> `AccessReviewItemsRow`. */
export function rowTypeName(table: string): string {
  return `${table.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}Row`;
}

/** A doc comment of lines of at most 120 characters. */
function docComment(text: string): string[] {
  const safe = text.replace(/\*\//g, '* /');
  if (safe.length + 9 <= 120) return [`  /** ${safe} */`];
  const lines: string[] = [];
  let line = '';
  for (const word of safe.split(' ')) {
    if (line !== '' && line.length + word.length + 6 > 120) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return ['  /**', ...lines.map((l) => `   * ${l}`), '   */'];
}

/** One property, laid out as Biome lays it out (a long union goes one member a line). */
function property(c: Column): string[] {
  const doc = c.comment === undefined ? [] : docComment(c.comment);
  const type = c.nullable ? `${c.type} | null` : c.type;
  const line = `  ${c.name}: ${type};`;
  if (line.length <= 120 || !type.includes(' | ')) return [...doc, line];
  const members = type.split(' | ');
  return [...doc, `  ${c.name}:`, ...members.map((m, i) => `    | ${m}${i === members.length - 1 ? ';' : ''}`)];
}

/** The interface of one table's row. */
export function renderRow(table: string, columns: Column[]): string[] {
  return [
    `/** A row of \`${table}\`. */`,
    `export interface ${rowTypeName(table)} {`,
    ...columns.flatMap(property),
    '}',
    '',
  ];
}
