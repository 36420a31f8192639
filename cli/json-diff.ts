// The first difference between two JSON values, named by its path (`body.data[0].price_micros`), for
// reports that compare a recorded answer with a replayed one (svc sandbox replay; docs/snapshots.md).
// A recorded value equal to the wildcard (a secret the journal does not keep) matches anything.

export interface JsonDifference {
  /** `body`, `body.order.status`, `body.items[2]`... */
  path: string;
  recorded: unknown;
  replayed: unknown;
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function key(path: string, k: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
}

/** The first place, depth first in the recorded value's key order, where the two differ; null when equal. */
export function firstDifference(
  recorded: unknown,
  replayed: unknown,
  path = 'body',
  wildcard?: string,
): JsonDifference | null {
  if (wildcard !== undefined && recorded === wildcard) return null;
  const k = kind(recorded);
  if (k !== kind(replayed)) return { path, recorded, replayed };
  if (k === 'array') {
    const a = recorded as unknown[];
    const b = replayed as unknown[];
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`, wildcard);
      if (d) return d;
    }
    if (a.length !== b.length) return { path: `${path}.length`, recorded: a.length, replayed: b.length };
    return null;
  }
  if (k === 'object') {
    const a = recorded as Record<string, unknown>;
    const b = replayed as Record<string, unknown>;
    for (const name of Object.keys(a)) {
      if (!(name in b)) return { path: key(path, name), recorded: a[name], replayed: undefined };
      const d = firstDifference(a[name], b[name], key(path, name), wildcard);
      if (d) return d;
    }
    for (const name of Object.keys(b))
      if (!(name in a)) return { path: key(path, name), recorded: undefined, replayed: b[name] };
    return null;
  }
  return Object.is(recorded, replayed) ? null : { path, recorded, replayed };
}

/** A value as a report shows it: JSON, cut at `max` characters; `absent` for a missing field. */
export function showValue(v: unknown, max = 80): string {
  if (v === undefined) return 'absent';
  const text = JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
