// Complaints storage: the register and its append-only history of changes. SQL only; the lifecycle
// rules are in service.ts (and a second time in the table's trigger).
import type { Db } from '../store/db.js';
import type { ComplaintEventsRow, ComplaintsRow } from '../store/rows.js';

export type ComplaintState = ComplaintsRow['state'];

export type ComplaintRow = ComplaintsRow;

export type ComplaintEventRow = Omit<ComplaintEventsRow, 'seq'>;

export interface ComplaintFilter {
  state?: string;
  investor_id?: string;
  tenant_id?: string;
  /** Only complaints still open with a due date before this date. */
  overdueBefore?: string;
  /** Only complaints that are not overdue as of this date. */
  notOverdueBefore?: string;
  limit: number;
}

const OPEN = "state IN ('received', 'investigating')";

export function createComplaintRepo(db: Db) {
  const q = {
    investorTenant: db.prepare<[string], string>('SELECT tenant_id FROM investors WHERE id = ?').pluck(),
    insert: db.prepare(
      `INSERT INTO complaints (id, tenant_id, investor_id, category, channel, summary, state, received_at,
        received_date, due_date, updated_at)
       VALUES (@id, @tenant_id, @investor_id, @category, @channel, @summary, 'received', @received_at, @received_date,
         @due_date, @received_at)`,
    ),
    event: db.prepare(
      'INSERT INTO complaint_events (complaint_id, from_state, to_state, actor, note, at) VALUES ' +
        '(@complaint_id, @from_state, @to_state, @actor, @note, @at)',
    ),
    byId: db.prepare<[string], ComplaintRow>('SELECT * FROM complaints WHERE id = ?'),
    events: db.prepare<[string], ComplaintEventRow>(
      'SELECT complaint_id, from_state, to_state, actor, note, at FROM complaint_events WHERE complaint_id = ? ' +
        'ORDER BY seq',
    ),
    move: db.prepare<[string, string | null, string | null, string, string]>(
      'UPDATE complaints SET state = ?, resolution_note = ?, closed_at = ?, updated_at = ? WHERE id = ?',
    ),
  };
  return {
    investorTenant: (investorId: string) => q.investorTenant.get(investorId),
    insert(c: Omit<ComplaintRow, 'seq' | 'state' | 'resolution_note' | 'closed_at' | 'updated_at'>, actor: string) {
      q.insert.run(c);
      q.event.run({ complaint_id: c.id, from_state: null, to_state: 'received', actor, note: null, at: c.received_at });
    },
    byId: (id: string) => q.byId.get(id),
    events: (id: string) => q.events.all(id),
    move(id: string, from: ComplaintState, to: ComplaintState, note: string | null, actor: string, at: string) {
      const closing = to === 'resolved' || to === 'rejected';
      q.move.run(to, closing ? note : null, closing ? at : null, at, id);
      q.event.run({ complaint_id: id, from_state: from, to_state: to, actor, note, at });
    },
    list(f: ComplaintFilter): ComplaintRow[] {
      const where: string[] = [];
      const args: Array<string | number> = [];
      for (const k of ['state', 'investor_id', 'tenant_id'] as const) {
        if (f[k] !== undefined) {
          where.push(`${k} = ?`);
          args.push(f[k]!);
        }
      }
      if (f.overdueBefore !== undefined) {
        where.push(`${OPEN} AND due_date < ?`);
        args.push(f.overdueBefore);
      }
      if (f.notOverdueBefore !== undefined) {
        where.push(`NOT (${OPEN} AND due_date < ?)`);
        args.push(f.notOverdueBefore);
      }
      const sql = `SELECT * FROM complaints${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq LIMIT ?`;
      return db.prepare<Array<string | number>, ComplaintRow>(sql).all(...args, f.limit);
    },
  };
}

export type ComplaintRepo = ReturnType<typeof createComplaintRepo>;
