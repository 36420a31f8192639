// A wire schema that checks less than the route really does can name the schema that describes the
// real rules: /openapi.json shows that one instead. For the order body, whose fields the validation
// chain checks one by one so it can answer the first failing code of its documented precedence
// (INVALID_SIDE, INVALID_QTY...) where a schema failure could only answer VALIDATION_FAILED.
import type { z } from 'zod';

const documented = new WeakMap<z.ZodType, z.ZodType>();

/** Documents `wire` as `doc`; `wire` keeps deciding what is accepted. Returns `wire`. */
export function documentedAs<T extends z.ZodType>(wire: T, doc: z.ZodType): T {
  documented.set(wire, doc);
  return wire;
}

/** The schema /openapi.json shows for `wire`: its documentation schema, else itself. */
export function documentationOf(wire: z.ZodType): z.ZodType {
  return documented.get(wire) ?? wire;
}
