// The external statements of one business day: the computed outside view (sides.ts) with the injected
// breaks of that date applied on top. A statement is lines; a key (investor, asset) normally has one line
// when its value is not zero. An injected break changes only this side: position/cash shift the line's
// value (adding a line when there was none), missing removes the line, duplicate lists it twice.
import type { OverrideRow } from './repo.js';
import { CASH, keyOf, type SideKey, type Sides } from './sides.js';

export type Source = 'custodian' | 'bank';

export interface ExternalEntry {
  key: string;
  /** The values of the statement's lines for this key (none, one, or two for a duplicate). */
  lines: number[];
}

export const sourceOf = (asset: string): Source => (asset === CASH ? 'bank' : 'custodian');

function applyOverride(lines: number[], o: OverrideRow): number[] {
  switch (o.kind) {
    case 'position':
    case 'cash':
      return lines.length === 0 ? [o.amount] : [lines[0] + o.amount, ...lines.slice(1)];
    case 'missing':
      return [];
    case 'duplicate':
      return lines.length === 0 ? lines : [...lines, lines[0]];
  }
}

/** Every key's external lines: the computed value as one line (when not 0), then the overrides in order. */
export function externalLines(sides: Sides, overrides: OverrideRow[]): Map<string, ExternalEntry> {
  const out = new Map<string, ExternalEntry>();
  for (const [key, value] of sides.external) if (value !== 0) out.set(key, { key, lines: [value] });
  for (const o of overrides) {
    const key = keyOf(o.tenant_id, o.investor_id, o.asset);
    if (!sides.keys.has(key))
      sides.keys.set(key, { tenant_id: o.tenant_id, investor_id: o.investor_id, asset: o.asset });
    const lines = applyOverride(out.get(key)?.lines ?? [], o);
    out.set(key, { key, lines });
  }
  return out;
}

export interface StatementLine extends SideKey {
  line: number;
  quantity: number;
}

const byKey = (a: SideKey, b: SideKey) =>
  a.tenant_id < b.tenant_id
    ? -1
    : a.tenant_id > b.tenant_id
      ? 1
      : a.investor_id < b.investor_id
        ? -1
        : a.investor_id > b.investor_id
          ? 1
          : a.asset < b.asset
            ? -1
            : a.asset > b.asset
              ? 1
              : 0;

/** One source's statement: lines in (tenant, investor, asset) order, numbered from 1. */
export function statementLines(
  sides: Sides,
  ext: Map<string, ExternalEntry>,
  source: Source,
  investorId?: string,
): StatementLine[] {
  const keyed: SideKey[] = [];
  for (const e of ext.values()) {
    const k = sides.keys.get(e.key)!;
    if (sourceOf(k.asset) === source && (!investorId || k.investor_id === investorId)) keyed.push(k);
  }
  keyed.sort(byKey);
  const out: StatementLine[] = [];
  for (const k of keyed)
    for (const q of ext.get(keyOf(k.tenant_id, k.investor_id, k.asset))!.lines)
      out.push({ ...k, line: out.length + 1, quantity: q });
  return out;
}

export { byKey };
