// Reading a V8 .cpuprofile (node --cpu-prof): self and inclusive time per function, frames of the
// esbuild bundle mapped back to their TypeScript source through dist/*.js.map, and a rough split of
// the time by where the code lives (daemon source, a node_modules package, node internals, native).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number; // 0-based
  columnNumber: number; // 0-based
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

// ---- source maps (just enough of v3: VLQ "mappings", no names) ----------------------------------

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

interface Segment {
  col: number;
  source: number;
  line: number;
}

class SourceMap {
  private readonly lines: Segment[][] = [];
  constructor(
    private readonly sources: string[],
    mappings: string,
  ) {
    let source = 0;
    let line = 0;
    for (const lineText of mappings.split(';')) {
      const segs: Segment[] = [];
      let genCol = 0;
      for (const seg of lineText.split(',')) {
        if (!seg) continue;
        const vals: number[] = [];
        let shift = 0;
        let value = 0;
        for (const ch of seg) {
          const d = B64_INDEX.get(ch)!;
          value += (d & 31) << shift;
          if (d & 32) shift += 5;
          else {
            vals.push(value & 1 ? -(value >>> 1) : value >>> 1);
            value = 0;
            shift = 0;
          }
        }
        genCol += vals[0];
        if (vals.length >= 4) {
          source += vals[1];
          line += vals[2];
          segs.push({ col: genCol, source, line });
        }
      }
      this.lines.push(segs);
    }
  }

  /** Original "file:line" (1-based line) of a generated 0-based position. */
  lookup(line: number, col: number): string | null {
    const segs = this.lines[line];
    if (!segs || segs.length === 0) return null;
    let best: Segment | null = null;
    for (const s of segs) {
      if (s.col <= col) best = s;
      else break;
    }
    best ??= segs[0];
    return `${this.sources[best.source].replace(/^(\.\.\/)+/, '')}:${best.line + 1}`;
  }
}

const mapCache = new Map<string, SourceMap | null>();
function sourceMapFor(url: string): SourceMap | null {
  if (mapCache.has(url)) return mapCache.get(url)!;
  let map: SourceMap | null = null;
  try {
    const file = fileURLToPath(url);
    if (existsSync(`${file}.map`)) {
      const raw = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
      map = new SourceMap(raw.sources, raw.mappings);
    }
  } catch {
    map = null;
  }
  mapCache.set(url, map);
  return map;
}

// ---- analysis -------------------------------------------------------------------------------------

export interface FrameStat {
  key: string;
  where: string;
  area: string;
  selfMs: number;
  totalMs: number;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  busyMs: number;
  frames: FrameStat[];
  areas: Array<{ area: string; selfMs: number }>;
  /** Busy time by component (see Component), with the frames it was spent in; empty without components. */
  components: Array<{ name: string; ms: number; leaves: Array<{ key: string; ms: number }> }>;
}

/**
 * A named part of the work, e.g. "audit entry": a sample counts for the first component, in list
 * order, that matches any frame on its stack (so list a part before the part that contains it, and
 * catch-alls last); a sample no component claims counts as "(rest) <area>".
 */
export interface Component {
  name: string;
  match(frame: { name: string; where: string; area: string }): boolean;
}

function areaOf(cf: CallFrame, where: string): string {
  const url = cf.url;
  if (!url) {
    if (cf.functionName === '(idle)') return '(idle)';
    if (cf.functionName === '(garbage collector)') return '(gc)';
    if (cf.functionName === '(program)') return '(program)';
    return '(native)';
  }
  if (url.startsWith('node:')) return 'node internals';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  if (where.startsWith('daemon/') || where.startsWith('test/bench/servers/')) return where.split(':')[0];
  return 'other';
}

/**
 * window: [from, to] in microseconds of the monotonic clock (process.hrtime in any process of the same
 * machine; V8 stamps samples with the same clock): only samples inside it are counted.
 */
export function analyse(
  file: string,
  root: string,
  window?: [number, number],
  components: Component[] = [],
): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const info = new Map<number, { key: string; where: string; area: string }>();
  const byKey = new Map<string, { where: string; area: string }>();
  const describe = (id: number) => {
    let d = info.get(id);
    if (d) return d;
    const cf = byId.get(id)!.callFrame;
    let where = '';
    if (cf.url) {
      const mapped = cf.url.startsWith('file:') ? sourceMapFor(cf.url)?.lookup(cf.lineNumber, cf.columnNumber) : null;
      where =
        mapped ?? `${cf.url.startsWith('file:') ? relative(root, fileURLToPath(cf.url)) : cf.url}:${cf.lineNumber + 1}`;
    }
    const name = cf.functionName || '(anonymous)';
    d = { key: `${name} ${where}`.trim(), where, area: areaOf(cf, where) };
    info.set(id, d);
    byKey.set(d.key, d);
    return d;
  };

  // Bit i set: component i matches a frame on the stack from the root to this node.
  if (components.length > 31) throw new Error('cpuprofile: at most 31 components');
  const maskOf = new Map<number, number>();
  const stackMask = (id: number): number => {
    let m = maskOf.get(id);
    if (m !== undefined) return m;
    const d = describe(id);
    const name = byId.get(id)!.callFrame.functionName || '(anonymous)';
    m = 0;
    components.forEach((c, i) => {
      if (c.match({ name, where: d.where, area: d.area })) m! |= 1 << i;
    });
    const up = parent.get(id);
    if (up !== undefined) m |= stackMask(up);
    maskOf.set(id, m);
    return m;
  };
  const claim = (id: number): string | null => {
    const m = stackMask(id);
    return m === 0 ? null : components[31 - Math.clz32(m & -m)].name;
  };
  const byComponent = new Map<string, { us: number; leaves: Map<string, number> }>();

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const areas = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  let ts = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    // timeDeltas[i] is the time before sample i; attribute the following delta to it (V8's convention
    // in DevTools is close enough for a ranking).
    ts += p.timeDeltas[i];
    const dt = p.timeDeltas[i + 1] ?? 0;
    if (window && (ts < window[0] || ts > window[1])) continue;
    const leaf = p.samples[i];
    const d = describe(leaf);
    totalUs += dt;
    if (d.area === '(idle)') {
      idleUs += dt;
      continue;
    }
    self.set(d.key, (self.get(d.key) ?? 0) + dt);
    areas.set(d.area, (areas.get(d.area) ?? 0) + dt);
    if (components.length > 0) {
      const c = claim(leaf) ?? `(rest) ${d.area}`;
      let e = byComponent.get(c);
      if (!e) byComponent.set(c, (e = { us: 0, leaves: new Map() }));
      e.us += dt;
      e.leaves.set(d.key, (e.leaves.get(d.key) ?? 0) + dt);
    }
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const k = describe(id).key;
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  }
  const frames: FrameStat[] = [...total.entries()].map(([key, t]) => {
    const d = byKey.get(key)!;
    return { key, where: d.where, area: d.area, selfMs: (self.get(key) ?? 0) / 1000, totalMs: t / 1000 };
  });
  return {
    totalMs: totalUs / 1000,
    idleMs: idleUs / 1000,
    busyMs: (totalUs - idleUs) / 1000,
    frames,
    areas: [...areas.entries()].map(([area, us]) => ({ area, selfMs: us / 1000 })).sort((a, b) => b.selfMs - a.selfMs),
    components: [...byComponent.entries()]
      .map(([name, e]) => ({
        name,
        ms: e.us / 1000,
        leaves: [...e.leaves.entries()].map(([key, us]) => ({ key, ms: us / 1000 })).sort((a, b) => b.ms - a.ms),
      }))
      .sort((a, b) => b.ms - a.ms),
  };
}
