// svc admin complaints [list|new|show|move]: the complaints register (docs/complaints.md). A complaint
// is received, investigated, then resolved or rejected (with a note), one step at a time; the response
// is due 15 EGX business days after receipt. Acts as admin by default (--as compliance too).
import type { z } from 'zod';
import {
  COMPLAINT_CATEGORIES,
  COMPLAINT_CHANNELS,
  COMPLAINT_STATES,
  type ComplaintSchema,
} from '../../daemon/contract/schemas/complaints.js';
import { chalk, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import {
  adminConnection,
  cairo,
  call,
  fittedTable,
  oneOf,
  positiveInt,
  query,
  required,
  type AdminGlobals,
} from './admin-identity.js';

type Complaint = z.infer<typeof ComplaintSchema>;

export interface ListOptions {
  state?: string;
  investor?: string;
  tenant?: string;
  overdue?: boolean;
  limit?: string;
}

export interface NewOptions {
  investor?: string;
  category?: string;
  channel?: string;
  summary?: string;
}

export interface MoveOptions {
  to?: string;
  note?: string;
}

/** The states a complaint can move to next (docs/complaints.md). */
const NEXT: Record<string, string[]> = {
  received: ['investigating'],
  investigating: ['resolved', 'rejected'],
  resolved: [],
  rejected: [],
};

const due = (c: Complaint) => (c.overdue ? chalk.red(`${c.due_date} OVERDUE`) : c.due_date);

export async function list(opts: ListOptions, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'admin');
  const qs = query({
    state: oneOf('--state', opts.state, COMPLAINT_STATES),
    investor_id: opts.investor,
    tenant_id: opts.tenant,
    overdue: opts.overdue ? 'true' : undefined,
    limit: positiveInt('--limit', opts.limit),
  });
  const res = await call<{ complaints: Complaint[] }>(c, 'GET', `/admin/complaints${qs}`);
  if (c.json) return printJson(res);
  if (res.complaints.length === 0) {
    process.stdout.write(qs ? 'No complaints match.\n' : 'No complaints in the register.\n');
    return;
  }
  const headers = ['complaint', 'investor', 'category', 'state', 'received (Cairo)', 'due', 'summary'];
  const rows = res.complaints.map((x) => [
    x.complaint_id,
    x.investor_id,
    x.category,
    x.state,
    cairo(x.received_at),
    x.overdue ? `${x.due_date} OVERDUE` : x.due_date,
    x.summary,
  ]);
  process.stdout.write(`${fittedTable(headers, rows, ['received (Cairo)', 'category'], 16)}\n`);
  const overdue = res.complaints.filter((x) => x.overdue).length;
  if (overdue > 0) process.stdout.write(chalk.red(`${overdue} overdue: past the 15-business-day response date\n`));
}

/** One complaint and its history, for people. */
export function renderComplaint(x: Complaint): string {
  const next = NEXT[x.state] ?? [];
  return (
    `${chalk.bold(x.complaint_id)}  ${x.category} complaint of ${x.investor_id} (${x.channel}): ${x.state}\n` +
    `  received ${cairo(x.received_at)} (Cairo); response due ${due(x)}\n` +
    `  summary  ${x.summary}\n` +
    (x.resolution_note ? `  outcome  ${x.resolution_note} (${cairo(x.closed_at)})\n` : '') +
    `  history\n` +
    x.history
      .map((h) => `    ${cairo(h.at)}  ${h.from ?? 'new'} -> ${h.to}  by ${h.actor}${h.note ? `: ${h.note}` : ''}\n`)
      .join('') +
    (next.length
      ? chalk.dim(
          `  next:\n` +
            next
              .map((s) => {
                const note = s === 'investigating' ? '' : ' --note TEXT';
                return `    ${svc(`admin complaints move ${x.complaint_id} --to ${s}${note}`)}\n`;
              })
              .join(''),
        )
      : '')
  );
}

export async function create(opts: NewOptions, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'admin');
  if (!opts.investor) usage('missing --investor ID');
  if (!opts.category) usage(`missing --category (one of ${COMPLAINT_CATEGORIES.join(', ')})`);
  oneOf('--category', opts.category, COMPLAINT_CATEGORIES);
  oneOf('--channel', opts.channel, COMPLAINT_CHANNELS);
  const summary = required('--summary', opts.summary);
  const x = await call<Complaint>(c, 'POST', '/admin/complaints', {
    body: {
      investor_id: opts.investor,
      category: opts.category,
      ...(opts.channel ? { channel: opts.channel } : {}),
      summary,
    },
  });
  if (c.json) return printJson(x);
  process.stdout.write(renderComplaint(x));
}

export async function show(_opts: unknown, g: AdminGlobals, args: string[]): Promise<void> {
  const c = adminConnection(g, 'admin');
  const x = await call<Complaint>(c, 'GET', `/admin/complaints/${encodeURIComponent(args[0])}`);
  if (c.json) return printJson(x);
  process.stdout.write(renderComplaint(x));
}

export async function move(opts: MoveOptions, g: AdminGlobals, args: string[]): Promise<void> {
  const c = adminConnection(g, 'admin');
  if (!opts.to) usage(`missing --to STATE (${COMPLAINT_STATES.filter((s) => s !== 'received').join(', ')})`);
  oneOf('--to', opts.to, COMPLAINT_STATES);
  const body = { to: opts.to, ...(opts.note !== undefined ? { note: opts.note } : {}) };
  const x = await call<Complaint>(c, 'POST', `/admin/complaints/${encodeURIComponent(args[0])}/transitions`, { body });
  if (c.json) return printJson(x);
  process.stdout.write(renderComplaint(x));
}
