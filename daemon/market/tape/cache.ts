// Bounded memo tables: the tape caches per (symbol, day), never per tick, and a long simulation must
// not grow them without bound, so each table forgets its oldest entry when full.

/** Map that drops its oldest entry when full. */
export class BoundedCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, v: V): V {
    if (this.map.size >= this.limit) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, v);
    return v;
  }
  clear(): void {
    this.map.clear();
  }
}

export function memo<V>(cache: BoundedCache<V>, key: string, compute: () => V): V {
  const hit = cache.get(key);
  return hit !== undefined ? hit : cache.set(key, compute());
}
