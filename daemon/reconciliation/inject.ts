// The inject-break sandbox control: an override of the external side from a statement date on (through
// an optional last date). It never touches the ledger. Checked before anything is written: the investor
// exists (any tenant), the symbol is an instrument of the catalog, the fields fit the kind, the date is
// a business day up to today, and a missing or duplicate break has a line to act on that day.
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { BreakKind } from '../contract/schemas/reconciliation.js';
import type { ReconCtx } from './context.js';
import { checkDate, today } from './days.js';
import { checkDate as checkCalendarDate } from '../contract/dates.js';
import type { OverrideRow } from './repo.js';
import { CASH, keyOf } from './sides.js';
import { snapshotOf } from './snapshot.js';

export interface InjectInput {
  kind: BreakKind;
  investor_id: string;
  symbol?: string;
  amount?: number;
  date?: string;
  through?: string;
}

function checkShape(i: InjectInput): Outcome<void> {
  const bad = (m: string) => refuse('VALIDATION_FAILED', m);
  if (i.kind === 'position' && (i.symbol === undefined || i.amount === undefined))
    return bad('A position break needs symbol and amount (shares).');
  if (i.kind === 'cash' && (i.symbol !== undefined || i.amount === undefined))
    return bad('A cash break takes amount (EGP micros) and no symbol.');
  if ((i.kind === 'missing' || i.kind === 'duplicate') && i.amount !== undefined)
    return bad(`A ${i.kind} break takes no amount: it acts on a whole line.`);
  return ok(undefined);
}

function checkRefs(ctx: ReconCtx, i: InjectInput): Outcome<{ tenantId: string; asset: string; from: string }> {
  const inv = ctx.repo.investor(i.investor_id);
  if (!inv) return refuse('NOT_FOUND', `No investor ${i.investor_id}.`);
  if (i.symbol !== undefined) {
    const inst = ctx.market.instrument(i.symbol);
    if (!inst.ok) return inst;
  }
  const from = checkDate(ctx, i.date ?? today(ctx));
  if (!from.ok) return from;
  if (i.through !== undefined) {
    const through = checkCalendarDate('through', i.through);
    if (!through.ok) return through;
    if (through.value < from.value)
      return refuse('INVALID_RANGE', `through (${i.through}) is before date (${from.value}).`);
  }
  return ok({ tenantId: inv.tenant_id, asset: i.symbol ?? CASH, from: from.value });
}

export function injectBreak(ctx: ReconCtx, i: InjectInput): Outcome<OverrideRow> {
  const shape = checkShape(i);
  if (!shape.ok) return shape;
  const refs = checkRefs(ctx, i);
  if (!refs.ok) return refs;
  const { tenantId, asset, from } = refs.value;
  if (i.kind === 'missing' || i.kind === 'duplicate') {
    const day = snapshotOf(ctx, from);
    const lines = day.ext.get(keyOf(tenantId, i.investor_id, asset))?.lines ?? [];
    if (lines.length === 0)
      return refuse(
        'BREAK_LINE_ABSENT',
        `The ${asset === CASH ? 'bank' : 'custodian'} statement of ${from} has no ${asset} line for ${i.investor_id}.`,
      );
  }
  const id = ctx.ids.next('inj');
  ctx.repo.insertOverride({
    id,
    tenant_id: tenantId,
    investor_id: i.investor_id,
    asset,
    kind: i.kind,
    amount: i.amount ?? 0,
    from_date: from,
    through_date: i.through ?? null,
    created_at: ctx.nowIso(),
  });
  return ok(ctx.repo.override(id));
}
