// The complaints register (docs/complaints.md). Guarantees: a complaint's response is due 15 EGX
// business days after its receipt (weekends and exchange holidays do not count; a complaint received
// on a non-business day counts from the next business day); it is overdue while still received or
// investigating after that date (by the sandbox clock); it moves received -> investigating ->
// resolved | rejected one step at a time, and a refused move changes nothing; every receipt and
// every move is in the complaint's history and in the audit chain.
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import {
  createComplaintRepo,
  type ComplaintFilter,
  type ComplaintRepo,
  type ComplaintRow,
  type ComplaintState,
} from './repo.js';

export type ComplaintsDeps = Pick<Deps, 'db' | 'ids' | 'audit' | 'market' | 'clock' | 'nowIso'>;

export const RESPONSE_BUSINESS_DAYS = 15;

const NEXT: Record<ComplaintState, readonly ComplaintState[]> = {
  received: ['investigating'],
  investigating: ['resolved', 'rejected'],
  resolved: [],
  rejected: [],
};

export type ComplaintInput = Pick<ComplaintRow, 'investor_id' | 'category' | 'channel' | 'summary'>;

interface Ctx {
  deps: ComplaintsDeps;
  repo: ComplaintRepo;
}

const today = (ctx: Ctx) => ctx.deps.market.calendar.localDate(ctx.deps.clock.now());

function view(ctx: Ctx, r: ComplaintRow) {
  return {
    complaint_id: r.id,
    tenant_id: r.tenant_id,
    investor_id: r.investor_id,
    category: r.category as 'execution',
    channel: r.channel as 'email',
    summary: r.summary,
    state: r.state,
    received_at: r.received_at,
    due_date: r.due_date,
    overdue: (r.state === 'received' || r.state === 'investigating') && today(ctx) > r.due_date,
    resolution_note: r.resolution_note,
    closed_at: r.closed_at,
    updated_at: r.updated_at,
    history: ctx.repo
      .events(r.id)
      .map((e) => ({ from: e.from_state, to: e.to_state, actor: e.actor, note: e.note, at: e.at })),
  };
}

export type ComplaintView = ReturnType<typeof view>;

/** The date a response is due: 15 business days after the receipt date, on the EGX calendar. */
export function responseDueDate(
  calendar: Pick<Deps['market']['calendar'], 'addTradingDays' | 'isTradingDay' | 'nextTradingDay'>,
  receivedDate: string,
): string {
  const start = calendar.isTradingDay(receivedDate) ? receivedDate : calendar.nextTradingDay(receivedDate);
  return calendar.addTradingDays(start, RESPONSE_BUSINESS_DAYS);
}

function create(ctx: Ctx, input: ComplaintInput, actor: string): Outcome<ComplaintView> {
  const { deps, repo } = ctx;
  const tenantId = repo.investorTenant(input.investor_id);
  if (tenantId === undefined) return refuse('NOT_FOUND', `No investor ${input.investor_id}.`);
  const receivedDate = today(ctx);
  const id = deps.ids.next('cmp');
  const row = {
    id,
    tenant_id: tenantId,
    investor_id: input.investor_id,
    category: input.category,
    channel: input.channel,
    summary: input.summary,
    received_at: deps.nowIso(),
    received_date: receivedDate,
    due_date: responseDueDate(deps.market.calendar, receivedDate),
  };
  repo.insert(row, actor);
  deps.audit.append({
    actor,
    action: 'complaint.received',
    subject: id,
    tenantId,
    detail: {
      investor_id: input.investor_id,
      category: input.category,
      channel: input.channel,
      due_date: row.due_date,
    },
  });
  return ok(view(ctx, repo.byId(id)!));
}

function transition(
  ctx: Ctx,
  id: string,
  to: ComplaintState,
  note: string | undefined,
  actor: string,
): Outcome<ComplaintView> {
  const c = ctx.repo.byId(id);
  if (!c) return refuse('NOT_FOUND', `No complaint ${id}.`);
  const allowed = NEXT[c.state];
  if (!allowed.includes(to)) {
    const next = allowed.length ? `it can move to ${allowed.join(' or ')}` : 'it is final';
    return refuse('COMPLAINT_TRANSITION_INVALID', `The complaint ${id} is ${c.state}; ${next}, not to ${to}.`);
  }
  const text = note?.trim() ? note.trim() : null;
  if ((to === 'resolved' || to === 'rejected') && text === null) return refuse('COMPLAINT_NOTE_REQUIRED');
  const at = ctx.deps.nowIso();
  ctx.repo.move(id, c.state, to, text, actor, at);
  ctx.deps.audit.append({
    actor,
    action: 'complaint.transitioned',
    subject: id,
    tenantId: c.tenant_id,
    detail: { from: c.state, to, note: text },
  });
  return ok(view(ctx, ctx.repo.byId(id)!));
}

export function createComplaintsService(deps: ComplaintsDeps) {
  const ctx: Ctx = { deps, repo: createComplaintRepo(deps.db) };
  return {
    create: (input: ComplaintInput, actor: string) => create(ctx, input, actor),
    transition: (id: string, to: ComplaintState, note: string | undefined, actor: string) =>
      transition(ctx, id, to, note, actor),
    get(id: string): Outcome<ComplaintView> {
      const c = ctx.repo.byId(id);
      return c ? ok(view(ctx, c)) : refuse('NOT_FOUND', `No complaint ${id}.`);
    },
    list(f: Omit<ComplaintFilter, 'overdueBefore' | 'notOverdueBefore'> & { overdue?: 'true' | 'false' }) {
      const { overdue, ...rest } = f;
      const d = today(ctx);
      const filter: ComplaintFilter = {
        ...rest,
        ...(overdue === 'true' ? { overdueBefore: d } : overdue === 'false' ? { notOverdueBefore: d } : {}),
      };
      return { complaints: ctx.repo.list(filter).map((r) => view(ctx, r)) };
    },
  };
}
