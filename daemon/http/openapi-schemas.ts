// The document's components.schemas, from zod 4's own registry conversion: every schema a route uses
// and every named schema (`.meta({ id })`) it reaches go into one registry, which z.toJSONSchema
// converts in one pass per direction with each reference written as `#/components/schemas/<id>`.
// A route's unnamed schema is named after its operation (`PostV1TransfersBody`). A name whose request
// form differs from its response form (a default, a coercion) gets a second entry, `<id>Input`.
import { z } from 'zod';
import type { RouteDef } from '../contract/route.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export const REF = '#/components/schemas/';

type Io = 'input' | 'output';
type Schema = z.core.$ZodType;

export interface Schemas {
  /** A `$ref` to the schema's component in that direction. */
  ref(s: Schema, io: Io): Json;
  /** The component itself, for parameters (which list an object's properties one by one). */
  inline(s: Schema, io: Io): Json;
  /** The components `from` references, directly or through other components. */
  used(from: Json): Record<string, Json>;
}

function registryOf(routes: RouteDef[], operationIdOf: (def: RouteDef) => string) {
  const registry = z.registry<{ id: string }>();
  const idOf = new Map<Schema, string>();
  for (const [id, s] of z.globalRegistry._idmap) {
    registry.add(s, { id });
    idOf.set(s, id);
  }
  for (const def of routes) {
    const op = operationIdOf(def);
    const name = op[0].toUpperCase() + op.slice(1);
    const parts: Array<[string, Schema | undefined]> = [
      ['Params', def.params],
      ['Query', def.query],
      ['Body', def.body],
      ['Response', def.response],
    ];
    for (const [part, s] of parts) {
      if (!s || idOf.has(s)) continue;
      registry.add(s, { id: name + part });
      idOf.set(s, name + part);
    }
  }
  return { registry, idOf };
}

function convert(
  registry: z.core.$ZodRegistry<{ id: string }>,
  io: Io,
  nameOf: (id: string) => string,
): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (id) => REF + nameOf(id),
  });
  const out: Record<string, Json> = {};
  for (const [id, js] of Object.entries(schemas)) {
    // Every schema zod extracts is named in the registry; an unnamed shared one would need a home.
    if (id === '__shared') throw new Error('openapi: zod extracted a schema without an id');
    const { $schema: _schema, $id: _id, ...rest } = js as { [k: string]: Json };
    out[id] = moneyAsInt64(rest);
  }
  return out;
}

/** An integer schema (or each branch of a union) gets `format: int64`. */
function markInt64(node: Json): void {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const type = node.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) node.format ??= 'int64';
  for (const branch of [node.anyOf, node.oneOf]) if (Array.isArray(branch)) for (const b of branch) markInt64(b);
}

/**
 * Money is integer micros (docs/api.md, "Money"): every `*_micros` property that is an integer is
 * documented as `format: int64`, so a generated client holds it in a 64-bit integer, not a float.
 */
export function moneyAsInt64(node: Json): Json {
  if (Array.isArray(node)) for (const n of node) moneyAsInt64(n);
  else if (node !== null && typeof node === 'object') {
    const props = node.properties;
    if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
      for (const [name, prop] of Object.entries(props)) if (name.endsWith('_micros')) markInt64(prop);
    }
    for (const v of Object.values(node)) moneyAsInt64(v);
  }
  return node;
}

function refsOf(node: Json, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refsOf(n, out);
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(REF)) out.push(v.slice(REF.length));
      else refsOf(v, out);
    }
  }
  return out;
}

/** The names whose input form differs from the output form, or reaches one that does. */
function inputOnly(output: Record<string, Json>, input: Record<string, Json>): Set<string> {
  const ids = Object.keys(input);
  const differ = new Set(ids.filter((id) => JSON.stringify(input[id]) !== JSON.stringify(output[id])));
  for (let grew = true; grew; ) {
    grew = false;
    for (const id of ids) {
      if (differ.has(id) || !refsOf(input[id]).some((r) => differ.has(r))) continue;
      differ.add(id);
      grew = true;
    }
  }
  return differ;
}

function reachable(all: Record<string, Json>, from: Json): Record<string, Json> {
  const out: Record<string, Json> = {};
  const queue = refsOf(from);
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (name in out || !(name in all)) continue;
    out[name] = all[name];
    queue.push(...refsOf(all[name]));
  }
  return Object.fromEntries(
    Object.keys(all)
      .filter((n) => n in out)
      .map((n) => [n, out[n]]),
  );
}

export function buildSchemas(routes: RouteDef[], operationIdOf: (def: RouteDef) => string): Schemas {
  const { registry, idOf } = registryOf(routes, operationIdOf);
  const output = convert(registry, 'output', (id) => id);
  const plainInput = convert(registry, 'input', (id) => id);
  const differ = inputOnly(output, plainInput);
  const inputName = (id: string) => (differ.has(id) ? `${id}Input` : id);
  const input = differ.size > 0 ? convert(registry, 'input', inputName) : plainInput;
  const all: Record<string, Json> = { ...output };
  for (const id of differ) all[`${id}Input`] = input[id];
  const nameOf = (s: Schema, io: Io): string => {
    const id = idOf.get(s);
    if (id === undefined) throw new Error('openapi: a schema outside the registry');
    return io === 'input' ? inputName(id) : id;
  };
  return {
    ref: (s, io) => ({ $ref: REF + nameOf(s, io) }),
    inline: (s, io) => all[nameOf(s, io)],
    used: (from) => reachable(all, from),
  };
}
