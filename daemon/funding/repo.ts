// SQL of transfers (migration 005) and of the manual-funding switch (sandbox_state.manual_funding). Tenant reads are
// scoped by tenant; the desk reads are scoped by the dealer's broker; the scheduler's step reads by id alone (ids are
// unique across tenants).
import type { Db } from '../store/db.js';
import type { TransfersRow } from '../store/rows.js';

export type TransferState = TransfersRow['state'];
export type TransferApproval = TransfersRow['approval'];
export type TransferDirection = TransfersRow['direction'];

export type TransferRow = TransfersRow;

export interface DeskRow extends TransferRow {
  account_number: string;
  full_name: string;
  broker_id: string;
}

export type TransferChange = Pick<
  TransferRow,
  'state' | 'approval' | 'rail_ref' | 'reason_code' | 'decided_by' | 'decided_at' | 'updated_at'
>;

const DESK_SELECT =
  `SELECT t.*, i.account_number, i.full_name, i.broker_id FROM transfers t JOIN investors i ON i.id = ` +
  `t.investor_id`;

export function createTransferRepo(db: Db) {
  const q = transferStatements(db);
  return { ...transferMethods(q), ...deskMethods(q) };
}

export type TransferRepo = ReturnType<typeof createTransferRepo>;

function transferStatements(db: Db) {
  return {
    insert: db.prepare(
      `INSERT INTO transfers (id, tenant_id, investor_id, direction, amount_micros, state, approval, hold_id,
                              local_date, created_ms, created_at, updated_at)
       VALUES (@id, @tenant_id, @investor_id, @direction, @amount_micros, 'received', @approval, @hold_id,
               @local_date, @created_ms, @created_at, @created_at)`,
    ),
    byId: db.prepare<[string], TransferRow>('SELECT * FROM transfers WHERE id = ?'),
    byTenant: db.prepare<[string, string], TransferRow>('SELECT * FROM transfers WHERE id = ? AND tenant_id = ?'),
    list: db.prepare<
      { tenant: string; investor: string | null; state: string | null; before: number; limit: number },
      TransferRow
    >(
      `SELECT * FROM transfers
        WHERE tenant_id = @tenant AND (@investor IS NULL OR investor_id = @investor)
          AND (@state IS NULL OR state = @state) AND seq < @before
        ORDER BY seq DESC LIMIT @limit`,
    ),
    dailyTotal: db.prepare<[string, string, string], { total: number }>(
      'SELECT COALESCE(SUM(amount_micros), 0) AS total FROM transfers WHERE tenant_id = ? AND investor_id = ? ' +
        "AND local_date = ? AND state <> 'failed'",
    ),
    update: db.prepare(
      `UPDATE transfers SET state = @state, approval = @approval, rail_ref = @rail_ref, reason_code = @reason_code,
              decided_by = @decided_by, decided_at = @decided_at, updated_at = @updated_at WHERE id = @id`,
    ),
    deskList: db.prepare<
      { broker: string | null; approval: string | null; state: string | null; limit: number },
      DeskRow
    >(
      `${DESK_SELECT}
        WHERE (@broker IS NULL OR i.broker_id = @broker) AND (@approval IS NULL OR t.approval = @approval)
          AND (@state IS NULL OR t.state = @state)
        ORDER BY t.seq DESC LIMIT @limit`,
    ),
    deskById: db.prepare<{ broker: string | null; id: string }, DeskRow>(
      `${DESK_SELECT} WHERE t.id = @id AND (@broker IS NULL OR i.broker_id = @broker)`,
    ),
    manual: db.prepare<[], { manual_funding: number }>('SELECT manual_funding FROM sandbox_state WHERE id = 1'),
    setManual: db.prepare('UPDATE sandbox_state SET manual_funding = ? WHERE id = 1'),
  };
}

type TransferStatements = ReturnType<typeof transferStatements>;

/** The tenant's transfers: create, read, list, the daily total and state changes. */
function transferMethods(q: TransferStatements) {
  return {
    insert(
      row: Pick<
        TransferRow,
        | 'id'
        | 'tenant_id'
        | 'investor_id'
        | 'direction'
        | 'amount_micros'
        | 'approval'
        | 'hold_id'
        | 'local_date'
        | 'created_ms'
        | 'created_at'
      >,
    ): void {
      q.insert.run(row);
    },
    byId(id: string): TransferRow | undefined {
      return q.byId.get(id);
    },
    forTenant(tenantId: string, id: string): TransferRow | undefined {
      return q.byTenant.get(id, tenantId);
    },
    list(
      tenantId: string,
      f: { investorId?: string; state?: TransferState; beforeSeq?: number; limit: number },
    ): TransferRow[] {
      return q.list.all({
        tenant: tenantId,
        investor: f.investorId ?? null,
        state: f.state ?? null,
        before: f.beforeSeq ?? Number.MAX_SAFE_INTEGER,
        limit: f.limit,
      });
    },
    /** Amount of the investor's transfers created on a Cairo day, failed ones excluded. */
    dailyTotal(tenantId: string, investorId: string, localDate: string): number {
      return q.dailyTotal.get(tenantId, investorId, localDate)!.total;
    },
    update(id: string, c: TransferChange): void {
      q.update.run({
        id,
        state: c.state,
        approval: c.approval,
        rail_ref: c.rail_ref,
        reason_code: c.reason_code,
        decided_by: c.decided_by,
        decided_at: c.decided_at,
        updated_at: c.updated_at,
      });
    },
  };
}

/** The dealer desk's view of transfers and the manual-funding switch. */
function deskMethods(q: TransferStatements) {
  return {
    deskList(f: {
      brokerId: string | null;
      approval?: TransferApproval;
      state?: TransferState;
      limit: number;
    }): DeskRow[] {
      return q.deskList.all({
        broker: f.brokerId,
        approval: f.approval ?? null,
        state: f.state ?? null,
        limit: f.limit,
      });
    },
    deskById(brokerId: string | null, id: string): DeskRow | undefined {
      return q.deskById.get({ broker: brokerId, id });
    },
    /** The sandbox switch: new transfers wait for a dealer while it is on. */
    manualFunding(): boolean {
      return q.manual.get()!.manual_funding === 1;
    },
    setManualFunding(enabled: boolean): void {
      q.setManual.run(enabled ? 1 : 0);
    },
  };
}
