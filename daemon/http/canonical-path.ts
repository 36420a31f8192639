// One resource, one path: the canonical form of a request path, and the check that refuses any other
// spelling before routing, authentication, idempotency and the journal see it (docs/api.md, "Paths").
// Fastify's router would otherwise take `/v1/transfers/`, `/v1/%74ransfers` or `/v1/./transfers` to
// the route of `/v1/transfers` while the idempotency scope and the journal keep the spelling sent, so
// one key could apply twice and the journal would hold a path replay refuses.

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** One segment with percent-encoded unreserved characters decoded and every other escape in upper case. */
function canonicalSegment(segment: string): string {
  return segment.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/**
 * The canonical spelling of an absolute path (no query): unreserved characters unescaped, other
 * escapes in upper case, no empty segments (so no `//` and no trailing slash), no `.` or `..`.
 */
export function canonicalPath(path: string): string {
  const out: string[] = [];
  for (const raw of path.split('/')) {
    const segment = canonicalSegment(raw);
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/**
 * A path of non-empty segments with no escape and no `.` or `..` segment is canonical as it is: the
 * spelling of nearly every request, checked by one test instead of splitting and rebuilding it.
 */
const PLAIN = /^(?:\/(?!\.\.?(?:\/|$))[^/%]+)+$/;

/** null when the path is canonical, else the canonical spelling to name in the refusal. */
export function nonCanonical(path: string): string | null {
  if (PLAIN.test(path)) return null;
  const canonical = canonicalPath(path);
  return canonical === path ? null : canonical;
}
