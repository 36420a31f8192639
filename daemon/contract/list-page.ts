// A list answer cut to the request's page size (the spec's `limit`, 1-200): the first `limit` rows of
// the named array, in the list's own order, everything else of the answer unchanged.
export function firstOf<K extends string, T extends { [k in K]: unknown[] }>(answer: T, key: K, limit: number): T {
  return { ...answer, [key]: answer[key].slice(0, limit) };
}
