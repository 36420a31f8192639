// A break's lifecycle by an operator: acknowledge (open -> acknowledged) and accept (open or
// acknowledged -> resolved `accepted`, with a note). A resolved break is final: a second decision is
// BREAK_STATE_CONFLICT and changes nothing. (`auto` comes from runs.ts.)
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { ReconCtx } from './context.js';
import type { BreakRow } from './repo.js';

function find(ctx: ReconCtx, id: string): Outcome<BreakRow> {
  const b = ctx.repo.break(id);
  return b ? ok(b) : refuse('NOT_FOUND', `No reconciliation break ${id}.`);
}

export function getBreak(ctx: ReconCtx, id: string): Outcome<BreakRow> {
  return find(ctx, id);
}

export function acknowledgeBreak(
  ctx: ReconCtx,
  id: string,
  actor: string,
  note: string | undefined,
): Outcome<BreakRow> {
  const b = find(ctx, id);
  if (!b.ok) return b;
  if (b.value.state !== 'open')
    return refuse('BREAK_STATE_CONFLICT', `Break ${id} is ${b.value.state}; only an open break is acknowledged.`);
  ctx.repo.acknowledge(id, ctx.nowIso(), actor, note ?? null);
  return ok(ctx.repo.break(id)!);
}

export function acceptBreak(ctx: ReconCtx, id: string, actor: string, note: string): Outcome<BreakRow> {
  const b = find(ctx, id);
  if (!b.ok) return b;
  if (b.value.state === 'resolved')
    return refuse('BREAK_STATE_CONFLICT', `Break ${id} is already resolved (${b.value.resolution}).`);
  ctx.repo.accept(id, ctx.nowIso(), actor, note);
  return ok(ctx.repo.break(id)!);
}
