// The sandbox's change feed for push events (GET /admin/sandbox/events): temporary triggers (this
// connection only, never stored in the file) turn each state change of an order, a transfer, a KYC
// application or a fund order, and each statement becoming ready, into a row of a temporary table,
// whoever made the change: a request, a clock advance's fills and expiries, the running clock's
// catch-up, a dealer. The rows are written in the transaction of the change, so a change that rolls back leaves no
// event, and they are read only outside any transaction, so an event is delivered only once its change is committed. An
// event's fields come from the changed row (its simulated updated_at, never the wall clock).
//
// The triggers are installed when the first subscriber connects (nothing is paid on the order path
// before anyone listens); the table keeps the newest KEEP events for Last-Event-ID resumption. Ids
// start at boot_count x 10^9, so they keep increasing across restarts of the same home.
// docs/inspector.md, "Events".
import type { Db } from '../store/db.js';
import type { SandboxEvent } from '../contract/events.js';

const KEEP = 10_000;
const PUMP_MS = 100;
const BOOT_ID_STRIDE = 1_000_000_000;

interface Source {
  table: string;
  /** Columns whose update may be an event. */
  columns: string[];
  /** When an inserted row is an event, and when an update is. */
  insertWhen: string;
  updateWhen: string;
  type: string;
  data: string;
  /** The simulated time of the change: the row's updated_at unless the table keeps another column. */
  at?: string;
}

const ORDER_DONE = `('partially_filled', 'filled', 'cancelled', 'expired', 'rejected')`;
const KYC_DECIDED = `('screening_referred', 'approved', 'rejected')`;

const SOURCES: Source[] = [
  {
    table: 'orders',
    columns: ['state', 'filled_qty'],
    insertWhen: `NEW.state IN ${ORDER_DONE}`,
    updateWhen: `NEW.state IN ${ORDER_DONE} AND (NEW.state IS NOT OLD.state OR NEW.filled_qty <> OLD.filled_qty)`,
    type: `CASE NEW.state WHEN 'cancelled' THEN 'order.canceled' ELSE 'order.' || NEW.state END`,
    data: `json_object('order_id', NEW.id, 'investor_id', NEW.investor_id, 'client_order_id', NEW.client_order_id,
      'symbol', NEW.symbol, 'side', NEW.side, 'type', NEW.type, 'time_in_force', NEW.time_in_force, 'qty', NEW.qty,
      'limit_price_micros', NEW.limit_price_micros, 'filled_qty', NEW.filled_qty,
      'filled_value_micros', NEW.filled_value_micros, 'state', NEW.state, 'reason_code', NEW.reason_code)`,
  },
  {
    table: 'transfers',
    columns: ['state', 'approval'],
    insertWhen: '1',
    updateWhen: 'NEW.state IS NOT OLD.state OR NEW.approval IS NOT OLD.approval',
    type:
      `CASE WHEN NEW.state = 'received' AND NEW.approval = 'approved' THEN 'transfer.approved' ELSE 'transfer.' ` +
      `|| NEW.state END`,
    data: `json_object('transfer_id', NEW.id, 'investor_id', NEW.investor_id, 'direction', NEW.direction,
      'amount_micros', NEW.amount_micros, 'state', NEW.state, 'approval', NEW.approval,
      'reason_code', NEW.reason_code)`,
  },
  {
    table: 'kyc_applications',
    columns: ['state'],
    insertWhen: `NEW.state IN ${KYC_DECIDED}`,
    updateWhen: `NEW.state IN ${KYC_DECIDED} AND NEW.state IS NOT OLD.state`,
    type: `CASE NEW.state WHEN 'screening_referred' THEN 'kyc.referred' ELSE 'kyc.' || NEW.state END`,
    // never the name, national id or contact details
    data:
      `json_object('application_id', NEW.id, 'investor_id', NEW.investor_id, 'state', NEW.state, 'path', ` +
      `NEW.path, 'reason_code', NEW.reason_code)`,
  },
  {
    table: 'fund_orders',
    columns: ['state'],
    insertWhen: '1',
    updateWhen: 'NEW.state IS NOT OLD.state',
    type: `'fund_order.' || NEW.state`,
    data: `json_object('fund_order_id', NEW.id, 'investor_id', NEW.investor_id, 'fund_code', NEW.fund_code,
      'side', NEW.side, 'amount_micros', NEW.amount_micros, 'units_micros', NEW.units_micros, 'state', NEW.state,
      'nav_micros', NEW.nav_micros, 'nav_date', NEW.nav_date, 'result_units_micros', NEW.result_units_micros,
      'result_amount_micros', NEW.result_amount_micros, 'reason_code', NEW.reason_code)`,
  },
  {
    // a statement is ready (docs/reports.md); its ready_at is the simulated minute it became ready
    table: 'reports',
    columns: ['state'],
    insertWhen: '0',
    updateWhen: "NEW.state = 'ready' AND OLD.state <> 'ready'",
    type: `'report.ready'`,
    data: `json_object('report_id', NEW.id, 'investor_id', NEW.investor_id, 'type', NEW.type,
      'period_start', NEW.period_start, 'period_end', NEW.period_end, 'locale', NEW.locale, 'state', NEW.state,
      'bytes', NEW.bytes, 'sha256', NEW.sha256)`,
    at: 'NEW.ready_at',
  },
];

function triggerSql(s: Source): string {
  const insert =
    `INSERT INTO temp.svc_events (type, subject, tenant_id, at, data) VALUES (${s.type}, NEW.id, NEW.tenant_id, ` +
    `${s.at ?? 'NEW.updated_at'}, ${s.data});`;
  return `
CREATE TEMP TRIGGER IF NOT EXISTS svc_event_${s.table}_insert AFTER INSERT ON main.${s.table}
  WHEN ${s.insertWhen} BEGIN ${insert} END;
CREATE TEMP TRIGGER IF NOT EXISTS svc_event_${s.table}_update AFTER UPDATE OF ${s.columns.join(', ')} ON main.${s.table}
  WHEN ${s.updateWhen} BEGIN ${insert} END;`;
}

interface Row {
  id: number;
  type: SandboxEvent['type'];
  subject: string;
  tenant_id: string | null;
  at: string;
  data: string;
}

/** Which types a subscriber takes: exact names and families (`order.*` or `order`); null takes all. */
export type TypeFilter = ReadonlySet<string> | null;

export function acceptsType(filter: TypeFilter, type: string): boolean {
  if (filter === null) return true;
  return (
    filter.has(type) ||
    filter.has(type.slice(0, type.indexOf('.'))) ||
    filter.has(`${type.slice(0, type.indexOf('.'))}.*`)
  );
}

export interface EventSink {
  send(e: SandboxEvent): void;
  /** The feed is closing (the daemon stops): end the delivery. */
  end(): void;
}

interface Subscriber extends EventSink {
  cursor: number;
  types: TypeFilter;
}

export interface EventFeed {
  /** Delivers every committed event after `after` (null: from now on) of the given types, in id order. */
  subscribe(after: number | null, types: TypeFilter, sink: EventSink): { close(): void };
  /** Ends every subscription (the daemon is closing). */
  closeAll(): void;
}

export interface EventFeedDeps {
  db: Db;
}

function install(db: Db): void {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS svc_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, subject TEXT NOT NULL, tenant_id TEXT,
    at TEXT NOT NULL, data TEXT NOT NULL)`);
  const boot =
    db.prepare<[], { boot_count: number }>('SELECT boot_count FROM sandbox_state WHERE id = 1').get()?.boot_count ?? 0;
  const seeded = db
    .prepare<[], { seq: number }>("SELECT seq FROM temp.sqlite_sequence WHERE name = 'svc_events'")
    .get();
  if (!seeded)
    db.prepare("INSERT INTO temp.sqlite_sequence (name, seq) VALUES ('svc_events', ?)").run(boot * BOOT_ID_STRIDE);
  db.exec(SOURCES.map(triggerSql).join('\n'));
}

/** The feed's reads of its temp table, prepared once the table exists. */
function feedQueries(db: Db) {
  const readStmt = db.prepare<[number], Row>(
    'SELECT id, type, subject, tenant_id, at, data FROM temp.svc_events WHERE id > ? ORDER BY id LIMIT 1000',
  );
  const lastStmt = db.prepare<[], { id: number | null }>(
    "SELECT max(seq) AS id FROM temp.sqlite_sequence WHERE name = 'svc_events'",
  );
  const pruneStmt = db.prepare<[number]>('DELETE FROM temp.svc_events WHERE id <= ?');
  return {
    read: (after: number) => readStmt.all(after),
    lastId: () => lastStmt.get()?.id ?? 0,
    prune: (upTo: number) => void pruneStmt.run(upTo),
  };
}

function eventOf(r: Row): SandboxEvent {
  return {
    id: r.id,
    type: r.type,
    at: r.at,
    subject: r.subject,
    tenant_id: r.tenant_id,
    data: JSON.parse(r.data) as Record<string, unknown>,
  };
}

export function createEventFeed(deps: EventFeedDeps): EventFeed {
  const { db } = deps;
  const subs = new Set<Subscriber>();
  let installed = false;
  let timer: NodeJS.Timeout | null = null;
  let read: ((after: number) => Row[]) | null = null;
  let lastId: (() => number) | null = null;
  let prune: ((upTo: number) => void) | null = null;
  let prunedUpTo = 0;

  function start(): void {
    if (installed) return;
    install(db);
    ({ read, lastId, prune } = feedQueries(db));
    installed = true;
  }

  /** Sends each subscriber what it has not seen; only outside a transaction (committed changes only). */
  function pump(): void {
    if (!db.open || db.inTransaction || subs.size === 0) return;
    const from = Math.min(...[...subs].map((s) => s.cursor));
    const rows = read!(from);
    for (const r of rows) {
      const e = eventOf(r);
      for (const s of subs) {
        if (r.id <= s.cursor) continue;
        s.cursor = r.id;
        if (acceptsType(s.types, r.type)) s.send(e);
      }
    }
    const newest = lastId!();
    if (newest - KEEP > prunedUpTo + 1000) {
      prunedUpTo = newest - KEEP;
      prune!(prunedUpTo);
    }
  }

  function stopIfIdle(): void {
    if (subs.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  }

  return {
    subscribe(after, types, sink) {
      start();
      const sub: Subscriber = { cursor: after ?? lastId!(), types, send: (e) => sink.send(e), end: () => sink.end() };
      subs.add(sub);
      timer ??= setInterval(pump, PUMP_MS).unref();
      setImmediate(pump);
      return {
        close() {
          subs.delete(sub);
          stopIfIdle();
        },
      };
    },
    closeAll() {
      for (const s of subs) s.end();
      subs.clear();
      stopIfIdle();
    },
  };
}
