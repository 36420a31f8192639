// Comparing the book with the external statements, key by key (investor, asset). A key with a
// difference gives one finding, of one kind: missing (the statement has no line and the book is not
// zero), duplicate (the statement lists it more than once), else cash or position (the values differ).
import type { BreakKind } from '../contract/schemas/reconciliation.js';
import type { ExternalEntry } from './statements.js';
import { byKey } from './statements.js';
import { CASH, type SideKey, type Sides } from './sides.js';

export interface Finding extends SideKey {
  key: string;
  kind: BreakKind;
  ledger_value: number;
  external_value: number;
}

function kindOf(asset: string, ledger: number, lines: number[], external: number): BreakKind | null {
  if (lines.length === 0) return ledger !== 0 ? 'missing' : null;
  if (lines.length > 1) return 'duplicate';
  if (external === ledger) return null;
  return asset === CASH ? 'cash' : 'position';
}

/** Every difference between the two sides, in (tenant, investor, asset) order. */
export function compare(sides: Sides, ext: Map<string, ExternalEntry>): Finding[] {
  const out: Finding[] = [];
  for (const [key, k] of sides.keys) {
    const ledger = sides.book.get(key) ?? 0;
    const lines = ext.get(key)?.lines ?? [];
    let external = 0;
    for (const v of lines) external += v;
    const kind = kindOf(k.asset, ledger, lines, external);
    if (kind) out.push({ ...k, key, kind, ledger_value: ledger, external_value: external });
  }
  return out.sort(byKey);
}
