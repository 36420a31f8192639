// The floor: the simplest server that does the durable work of a signed market order on this stack
// (node, fastify 5, better-sqlite3), against which the daemon's CPU per order is judged
// (docs/bench.md, "The floor"). Plain JavaScript run by plain `node`, like hello.mjs; it imports
// nothing of the daemon.
//
// POST /v1/orders (a market buy) does what the daemon's signed order does, minus everything that is
// a guarantee rather than work:
// - Authorization: Bearer, Idempotency-Key, X-Svc-Timestamp and X-Svc-Signature, verified with the
//   v1 HMAC scheme of daemon/contract/signing.ts (re-implemented here: same string to sign, same
//   constant-time compare, same 300 s window);
// - the same rows as the daemon's filled market order, in one group-committed transaction (every
//   request of an event-loop turn shares one BEGIN/COMMIT, two turns as daemon/store/group-commit.ts;
//   nobody is answered before the COMMIT): the order, 4 ledger postings and the 6 balances they move,
//   the fill, 3 activities, the settlement and its scheduler event, the idempotency record with the
//   stored answer, an audit row and the audit head, a journal row, the 4 id counters;
// - plain tables with the same columns, primary keys, unique keys and indexes, and no triggers, CHECKs,
//   foreign keys or STRICT typing; the database opened as daemon/store/db.ts opens it (WAL,
//   synchronous=NORMAL, 16 MiB cache, in-memory temp store, checkpoint every 4,000 pages).
// What it leaves out on purpose: the ledger's triggers, the audit hash chain (the hash columns hold a
// constant), the sealed journal body (stored as sent), zod, the savepoint per request (a refusal is
// decided before the first write), the access log, the simulated clock, the tape and the calendar.
//
//   node test/bench/servers/floor.mjs --db FILE
// prints {"port", "api_key", "signing_secret", "investors"} on one stdout line once it listens.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { fstatSync } from 'node:fs';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const dbFile = process.argv[process.argv.indexOf('--db') + 1];
if (!process.argv.includes('--db') || !dbFile) {
  process.stderr.write('usage: node floor.mjs --db FILE\n');
  process.exit(2);
}

const TENANT = 'tnt_floor00001';
const API_KEY = `sk_${randomBytes(24).toString('hex')}`;
const SIGNING_SECRET = `ss_${randomBytes(32).toString('hex')}`;
const SIGNATURE_WINDOW_S = 300;
const PRICES = { VLMRA: 462_000, COMI: 81_250_000, TMGH: 58_100_000 };
const INVESTORS = 4;
const START_CASH_MICROS = 1_000_000_000_000_000;
const DAY_MS = 86_400_000;
const ZERO_HASH = '0'.repeat(64);

// ---- the store ----------------------------------------------------------------------------------

const db = new Database(dbFile);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -16384');
db.pragma('temp_store = MEMORY');
db.pragma('wal_autocheckpoint = 4000');

db.exec(`
CREATE TABLE sandbox_state (id INTEGER PRIMARY KEY, seed INTEGER, start_ms INTEGER, clock_mode TEXT, sim_ms INTEGER,
  wall_anchor_ms INTEGER, speed_milli INTEGER, processed_ms INTEGER, generation INTEGER, boot_count INTEGER, auto_fill INTEGER,
  manual_funding INTEGER, audit_count INTEGER, audit_head TEXT, wiping INTEGER);
CREATE TABLE id_seq (prefix TEXT PRIMARY KEY, next INTEGER);
CREATE TABLE idempotency (tenant_id TEXT, method TEXT, path TEXT, key TEXT, body_hash TEXT, status INTEGER, response TEXT,
  created_ms INTEGER, PRIMARY KEY (tenant_id, method, path, key));
CREATE INDEX idempotency_created ON idempotency(created_ms);
CREATE TABLE audit_log (seq INTEGER PRIMARY KEY, at TEXT, actor TEXT, action TEXT, subject TEXT, tenant_id TEXT, detail TEXT,
  prev_hash TEXT, hash TEXT);
CREATE TABLE events (id INTEGER PRIMARY KEY, due_ms INTEGER, kind TEXT, payload TEXT, done INTEGER);
CREATE INDEX events_pending ON events(done, due_ms, id);
CREATE TABLE ledger_accounts (id INTEGER PRIMARY KEY, tenant_id TEXT, owner TEXT, asset TEXT, bucket TEXT, balance INTEGER,
  last_entry_id INTEGER, UNIQUE (tenant_id, owner, asset, bucket));
CREATE TABLE ledger_entries (id INTEGER PRIMARY KEY, tenant_id TEXT, debit_account_id INTEGER, credit_account_id INTEGER,
  amount INTEGER, kind TEXT, ref TEXT, hold_id TEXT, at_ms INTEGER);
CREATE INDEX ledger_entries_debit ON ledger_entries(debit_account_id);
CREATE INDEX ledger_entries_credit ON ledger_entries(credit_account_id);
CREATE INDEX ledger_entries_ref ON ledger_entries(tenant_id, ref);
CREATE TABLE activities (seq INTEGER PRIMARY KEY, id TEXT UNIQUE, tenant_id TEXT, investor_id TEXT, activity_type TEXT,
  net_amount_micros INTEGER, description TEXT, status TEXT, ref_type TEXT, ref_id TEXT, symbol TEXT, side TEXT, qty INTEGER,
  price_micros INTEGER, at TEXT, at_ms INTEGER);
CREATE INDEX activities_investor ON activities(tenant_id, investor_id, seq DESC);
CREATE TABLE fills (seq INTEGER PRIMARY KEY, id TEXT UNIQUE, tenant_id TEXT, investor_id TEXT, order_id TEXT, symbol TEXT,
  side TEXT, qty INTEGER, price_micros INTEGER, value_micros INTEGER, commission_micros INTEGER, egx_micros INTEGER,
  mcdr_micros INTEGER, ipf_micros INTEGER, fra_micros INTEGER, stamp_duty_micros INTEGER, net_micros INTEGER, venue TEXT,
  executed_by TEXT, trade_date TEXT, settlement_date TEXT, at_ms INTEGER, at TEXT);
CREATE INDEX fills_order ON fills(order_id, seq);
CREATE INDEX fills_investor ON fills(tenant_id, investor_id, seq);
CREATE TABLE settlements (seq INTEGER PRIMARY KEY, id TEXT UNIQUE, tenant_id TEXT, investor_id TEXT, order_id TEXT,
  fill_id TEXT UNIQUE, asset TEXT, amount INTEGER, settlement_date TEXT, due_ms INTEGER, state TEXT, settled_at TEXT);
CREATE INDEX settlements_investor ON settlements(tenant_id, investor_id, state);
CREATE TABLE journal (seq INTEGER PRIMARY KEY, request_id TEXT, sim_ms INTEGER, method TEXT, route TEXT, path TEXT, query TEXT,
  principal TEXT, idempotency_key TEXT, content_type TEXT, body_kind TEXT, body_sealed BLOB, status INTEGER);
CREATE TABLE orders (seq INTEGER PRIMARY KEY, id TEXT UNIQUE, tenant_id TEXT, investor_id TEXT, client_order_id TEXT,
  market_id TEXT, symbol TEXT, asset_class TEXT, side TEXT, type TEXT, order_class TEXT, time_in_force TEXT, qty INTEGER,
  limit_price_micros INTEGER, state TEXT, filled_qty INTEGER, filled_value_micros INTEGER, fees_micros INTEGER,
  withholding_micros INTEGER, reason_code TEXT, routing TEXT, transmitted INTEGER, eligible_from_ms INTEGER,
  cancel_due_ms INTEGER, evaluated_ms INTEGER, cash_hold_id TEXT, shares_hold_id TEXT, reserved_cash_micros INTEGER,
  created_ms INTEGER, created_at TEXT, submitted_at TEXT, filled_at TEXT, canceled_at TEXT, expired_at TEXT, updated_at TEXT);
CREATE UNIQUE INDEX orders_cash_hold ON orders(cash_hold_id) WHERE cash_hold_id IS NOT NULL;
CREATE UNIQUE INDEX orders_shares_hold ON orders(shares_hold_id) WHERE shares_hold_id IS NOT NULL;
CREATE UNIQUE INDEX orders_client_order_id ON orders(tenant_id, client_order_id) WHERE client_order_id IS NOT NULL;
CREATE INDEX orders_tenant ON orders(tenant_id, seq DESC);
CREATE INDEX orders_investor ON orders(tenant_id, investor_id, seq DESC);
CREATE INDEX orders_open ON orders(state) WHERE state NOT IN ('filled', 'cancelled', 'rejected', 'expired');
`);

/** Account ids, kept in memory as the daemon keeps them (the balances stay in the database). */
const accounts = new Map();
const openAccount = db.prepare(
  'INSERT INTO ledger_accounts (tenant_id, owner, asset, bucket, balance) VALUES (?, ?, ?, ?, ?)',
);
function account(owner, asset, bucket, balance = 0) {
  const id = Number(openAccount.run(TENANT, owner, asset, bucket, balance).lastInsertRowid);
  accounts.set(`${owner}|${asset}|${bucket}`, id);
  return id;
}
const investors = [];
db.transaction(() => {
  const now = Date.now();
  db.prepare(`INSERT INTO sandbox_state VALUES (1, 42, ?, 'frozen', ?, ?, 1000, ?, 1, 1, 1, 0, 0, '', 0)`).run(
    now,
    now,
    now,
    now,
  );
  for (const p of ['ord', 'fil', 'stl', 'act']) db.prepare('INSERT INTO id_seq (prefix, next) VALUES (?, 0)').run(p);
  for (const owner of ['system:clearing', 'system:fees', 'system:tax']) account(owner, 'cash:EGP', 'system');
  for (const s of Object.keys(PRICES)) account('system:clearing', s, 'system');
  for (let i = 0; i < INVESTORS; i++) {
    const inv = `inv_floor${String(i).padStart(5, '0')}`;
    investors.push(inv);
    account(inv, 'cash:EGP', 'settled', START_CASH_MICROS);
    for (const s of Object.keys(PRICES)) account(inv, s, 'unsettled');
  }
})();
const acct = (owner, asset, bucket) => accounts.get(`${owner}|${asset}|${bucket}`);

/** prefix + 10 base-32 digits of a counter: unique and sortable, like the daemon's ids. */
const counters = { ord: 0, fil: 0, stl: 0, act: 0 };
const nextId = (prefix) => `${prefix}_${(++counters[prefix]).toString(32).padStart(10, '0')}`;
let nextEntryId = 1;
let auditCount = 0;

const q = {
  idemGet: db.prepare(
    'SELECT body_hash, status, response FROM idempotency WHERE tenant_id = ? AND method = ? AND path = ? AND key = ?',
  ),
  idemPut: db.prepare('INSERT INTO idempotency VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
  debitCash: db.prepare(
    'UPDATE ledger_accounts SET balance = balance - ?, last_entry_id = ? WHERE id = ? AND balance >= ?',
  ),
  move: db.prepare('UPDATE ledger_accounts SET balance = balance + ?, last_entry_id = ? WHERE id = ?'),
  posting: db.prepare('INSERT INTO ledger_entries VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)'),
  order:
    db.prepare(`INSERT INTO orders (id, tenant_id, investor_id, client_order_id, market_id, symbol, asset_class, side, type,
    order_class, time_in_force, qty, limit_price_micros, state, filled_qty, filled_value_micros, fees_micros, withholding_micros,
    reason_code, routing, transmitted, eligible_from_ms, cancel_due_ms, evaluated_ms, cash_hold_id, shares_hold_id,
    reserved_cash_micros, created_ms, created_at, submitted_at, filled_at, canceled_at, expired_at, updated_at)
    VALUES (?, ?, ?, NULL, 'XCAI', ?, 'egx_equity', 'buy', 'market', 'simple', 'day', ?, NULL, 'filled', ?, ?, ?, ?, NULL, 'auto',
      1, ?, NULL, ?, NULL, NULL, ?, ?, ?, ?, ?, NULL, NULL, ?)`),
  fill: db.prepare(`INSERT INTO fills (id, tenant_id, investor_id, order_id, symbol, side, qty, price_micros, value_micros,
    commission_micros, egx_micros, mcdr_micros, ipf_micros, fra_micros, stamp_duty_micros, net_micros, venue, executed_by,
    trade_date, settlement_date, at_ms, at) VALUES (?, ?, ?, ?, ?, 'buy', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'tape', NULL, ?, ?, ?, ?)`),
  activity:
    db.prepare(`INSERT INTO activities (id, tenant_id, investor_id, activity_type, net_amount_micros, description, status,
    ref_type, ref_id, symbol, side, qty, price_micros, at, at_ms) VALUES (?, ?, ?, ?, ?, ?, 'executed', 'order', ?, ?, ?, ?, ?, ?, ?)`),
  settlement:
    db.prepare(`INSERT INTO settlements (id, tenant_id, investor_id, order_id, fill_id, asset, amount, settlement_date,
    due_ms, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`),
  event: db.prepare("INSERT INTO events (due_ms, kind, payload, done) VALUES (?, 'trade.settle', ?, 0)"),
  counters: db.prepare(
    'INSERT INTO id_seq (prefix, next) VALUES (?, ?), (?, ?), (?, ?), (?, ?) ON CONFLICT(prefix) DO UPDATE SET ' +
      'next = excluded.next',
  ),
  audit: db.prepare('INSERT INTO audit_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
  auditHead: db.prepare('UPDATE sandbox_state SET audit_count = ?, audit_head = ? WHERE id = 1'),
  journal: db.prepare(
    'INSERT INTO journal (request_id, sim_ms, method, route, path, query, principal, idempotency_key, ' +
      "content_type, body_kind, body_sealed, status) VALUES (?, ?, 'POST', 'POST /v1/orders', '/v1/orders', '', " +
      "?, ?, ?, 'text', ?, ?)",
  ),
};

// ---- group commit -------------------------------------------------------------------------------

let open = false;
let waiters = [];
function commit() {
  const batch = waiters;
  waiters = [];
  open = false;
  try {
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    for (const w of batch) w.reject(err);
    return;
  }
  for (const w of batch) w.resolve();
}
/** Joins the open batch (opening one); resolves once it is committed. */
function join() {
  if (!open) {
    db.exec('BEGIN');
    open = true;
    setImmediate(() => setImmediate(commit));
  }
  return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
}

// ---- the request --------------------------------------------------------------------------------

class Refusal extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const sha256Hex = (data) => createHash('sha256').update(data).digest('hex');

/** The v1 signature of daemon/contract/signing.ts: HMAC-SHA256 over six lines, constant-time compared. */
function verifySignature(req, key, bodyHash) {
  const ts = req.headers['x-svc-timestamp'];
  const sig = req.headers['x-svc-signature'];
  if (typeof ts !== 'string' || typeof sig !== 'string')
    throw new Refusal(401, 'SIGNATURE_INVALID', 'Send X-Svc-Timestamp and X-Svc-Signature.');
  if (!/^\d{1,12}$/.test(ts))
    throw new Refusal(401, 'SIGNATURE_INVALID', 'X-Svc-Timestamp must be integer Unix seconds.');
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(ts)) > SIGNATURE_WINDOW_S)
    throw new Refusal(401, 'SIGNATURE_EXPIRED', 'X-Svc-Timestamp is outside the window.');
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  const rawQuery = q < 0 ? '' : req.url.slice(q + 1);
  const payload = ['v1', ts, req.method.toUpperCase(), path, rawQuery, key, bodyHash].join('\n');
  const expected = createHmac('sha256', SIGNING_SECRET).update(payload).digest();
  let ok = false;
  for (const part of sig.split(',')) {
    const m = /^\s*v1=([0-9a-f]{64})\s*$/.exec(part);
    if (m && timingSafeEqual(Buffer.from(m[1], 'hex'), expected)) ok = true;
  }
  if (!ok) throw new Refusal(401, 'SIGNATURE_INVALID', 'The signature does not match the request.');
}

function authenticate(req) {
  if (req.headers.authorization !== `Bearer ${API_KEY}`)
    throw new Refusal(401, 'UNAUTHENTICATED', 'Send Authorization: Bearer <api_key>.');
  const key = req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '')
    throw new Refusal(400, 'IDEMPOTENCY_KEY_REQUIRED', 'Send an Idempotency-Key.');
  if (key.length > 255 || /[\x00-\x1f\x7f]/.test(key))
    throw new Refusal(400, 'IDEMPOTENCY_KEY_INVALID', 'The Idempotency-Key is not valid.');
  const bodyHash = sha256Hex(req.rawBody ?? '');
  verifySignature(req, key, bodyHash);
  return { key, bodyHash };
}

function validate(b) {
  const ok =
    b &&
    typeof b === 'object' &&
    typeof b.investor_id === 'string' &&
    typeof b.symbol === 'string' &&
    b.side === 'buy' &&
    b.type === 'market' &&
    Number.isSafeInteger(b.qty) &&
    b.qty > 0 &&
    b.qty <= 1_000_000;
  if (!ok || !acct(b.investor_id, 'cash:EGP', 'settled') || PRICES[b.symbol] === undefined) {
    throw new Refusal(422, 'VALIDATION_FAILED', 'The floor takes market buys of a known investor and symbol.');
  }
  return b;
}

/** value x rate in tenths of a basis point, rounded half up to the micro (integers only). */
const rate = (value, bpsX10) => Math.floor((value * bpsX10 + 50_000) / 100_000);

/** Writes the filled order's rows; returns the 201 body. Throws a Refusal before the first write. */
function place(b, nowMs) {
  const price = PRICES[b.symbol];
  const value = b.qty * price;
  const lines = {
    commission: Math.max(5_000_000, rate(value, 100)),
    egx: rate(value, 10),
    mcdr: rate(value, 10),
    ipf: rate(value, 5),
    fra: rate(value, 5),
  };
  const feeTotal = lines.commission + lines.egx + lines.mcdr + lines.ipf + lines.fra;
  const stamp = rate(value, 12.5 * 10);
  const net = value + feeTotal + stamp;
  const e = nextEntryId;
  const cash = acct(b.investor_id, 'cash:EGP', 'settled');
  if (q.debitCash.run(net, e + 2, cash, net).changes === 0)
    throw new Refusal(422, 'INSUFFICIENT_BUYING_POWER', 'Not enough settled cash.');
  nextEntryId += 4;
  const at = new Date(nowMs).toISOString();
  const tradeDate = at.slice(0, 10);
  const dueMs = nowMs + 2 * DAY_MS;
  const settlementDate = new Date(dueMs).toISOString().slice(0, 10);
  const id = nextId('ord');
  q.order.run(
    id,
    TENANT,
    b.investor_id,
    b.symbol,
    b.qty,
    b.qty,
    value,
    feeTotal,
    stamp,
    nowMs,
    nowMs,
    net,
    nowMs,
    at,
    at,
    at,
    at,
  );
  const clearing = acct('system:clearing', 'cash:EGP', 'system');
  const shares = acct(b.investor_id, b.symbol, 'unsettled');
  const clearingShares = acct('system:clearing', b.symbol, 'system');
  q.posting.run(e, TENANT, cash, clearing, value, 'trade', id, nowMs);
  q.posting.run(e + 1, TENANT, cash, acct('system:fees', 'cash:EGP', 'system'), feeTotal, 'fee', id, nowMs);
  q.posting.run(e + 2, TENANT, cash, acct('system:tax', 'cash:EGP', 'system'), stamp, 'tax', id, nowMs);
  q.posting.run(e + 3, TENANT, clearingShares, shares, b.qty, 'trade', id, nowMs);
  q.move.run(value, e, clearing);
  q.move.run(feeTotal, e + 1, acct('system:fees', 'cash:EGP', 'system'));
  q.move.run(stamp, e + 2, acct('system:tax', 'cash:EGP', 'system'));
  q.move.run(-b.qty, e + 3, clearingShares);
  q.move.run(b.qty, e + 3, shares);
  const fillId = nextId('fil');
  q.fill.run(
    fillId,
    TENANT,
    b.investor_id,
    id,
    b.symbol,
    b.qty,
    price,
    value,
    lines.commission,
    lines.egx,
    lines.mcdr,
    lines.ipf,
    lines.fra,
    stamp,
    net,
    tradeDate,
    settlementDate,
    nowMs,
    at,
  );
  q.activity.run(
    nextId('act'),
    TENANT,
    b.investor_id,
    'FILL',
    -value,
    `Bought ${b.qty} ${b.symbol} at ${price / 1e6} EGP`,
    id,
    b.symbol,
    'buy',
    b.qty,
    price,
    at,
    nowMs,
  );
  q.activity.run(
    nextId('act'),
    TENANT,
    b.investor_id,
    'FEE',
    -feeTotal,
    `Commission and exchange fees (EGX, MCDR, IPF, FRA) on ${b.symbol} buy`,
    id,
    b.symbol,
    null,
    null,
    null,
    at,
    nowMs,
  );
  q.activity.run(
    nextId('act'),
    TENANT,
    b.investor_id,
    'TAX',
    -stamp,
    `Stamp duty withheld on ${b.symbol} buy`,
    id,
    b.symbol,
    null,
    null,
    null,
    at,
    nowMs,
  );
  const stl = nextId('stl');
  q.settlement.run(stl, TENANT, b.investor_id, id, fillId, b.symbol, b.qty, settlementDate, dueMs);
  q.event.run(dueMs, `{"settlement_id":"${stl}"}`);
  q.counters.run('ord', counters.ord, 'fil', counters.fil, 'stl', counters.stl, 'act', counters.act);
  return {
    order_id: id,
    client_order_id: null,
    investor_id: b.investor_id,
    market_id: 'XCAI',
    symbol: b.symbol,
    asset_class: 'egx_equity',
    side: 'buy',
    type: 'market',
    order_class: 'simple',
    time_in_force: 'day',
    qty: b.qty,
    limit_price_micros: null,
    state: 'filled',
    status: 'filled',
    filled_qty: b.qty,
    avg_price_micros: price,
    reason_code: null,
    created_at: at,
    updated_at: at,
    submitted_at: at,
    filled_at: at,
    canceled_at: null,
    expired_at: null,
  };
}

/** The idempotency record, the audit row and head, and the journal row of an answered request. */
function record(req, key, bodyHash, status, json, nowMs) {
  q.idemPut.run(TENANT, 'POST', '/v1/orders', key, bodyHash, status, json, nowMs);
  auditCount++;
  const actor = `tenant:${TENANT}`;
  q.audit.run(
    auditCount,
    new Date(nowMs).toISOString(),
    actor,
    'POST /v1/orders',
    '/v1/orders',
    TENANT,
    `{"status":${status},"idempotency_key":${JSON.stringify(key)}}`,
    ZERO_HASH,
    ZERO_HASH,
  );
  q.auditHead.run(auditCount, ZERO_HASH);
  q.journal.run(
    String(req.id),
    nowMs,
    actor,
    key,
    req.headers['content-type'] ?? null,
    Buffer.from(req.rawBody ?? '', 'utf8'),
    status,
  );
}

/** Runs inside the open batch; returns [status, json, replayed]. */
function handle(req) {
  const { key, bodyHash } = authenticate(req);
  const b = validate(req.body);
  const prior = q.idemGet.get(TENANT, 'POST', '/v1/orders', key);
  if (prior) {
    if (prior.body_hash !== bodyHash)
      throw new Refusal(422, 'IDEMPOTENCY_KEY_REUSED', 'The Idempotency-Key was used with another body.');
    return [prior.status, prior.response, true];
  }
  const nowMs = Date.now();
  const json = JSON.stringify(place(b, nowMs));
  record(req, key, bodyHash, 201, json, nowMs);
  return [201, json, false];
}

// ---- HTTP ---------------------------------------------------------------------------------------

const app = Fastify({ logger: false });
app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
  req.rawBody = body;
  try {
    done(null, body.length === 0 ? undefined : JSON.parse(body));
  } catch {
    done(Object.assign(new Error('The request body is not valid JSON.'), { statusCode: 400 }), undefined);
  }
});

app.post('/v1/orders', async (req, reply) => {
  const committed = join();
  let out;
  try {
    out = handle(req);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    out = [
      err.status,
      JSON.stringify({ error: { code: err.code, message: err.message }, request_id: String(req.id) }),
      false,
    ];
  } finally {
    await committed;
  }
  const [status, json, replayed] = out;
  reply.code(status).type('application/json; charset=utf-8');
  if (replayed) reply.header('idempotent-replayed', 'true');
  return reply.send(json);
});

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(
  JSON.stringify({ port: app.server.address().port, api_key: API_KEY, signing_secret: SIGNING_SECRET, investors }) +
    '\n',
);

const close = () =>
  app.close().finally(() => {
    db.close();
    process.exit(0);
  });
process.on('SIGTERM', close);
process.on('SIGINT', close);
// Never outlive the bench: when stdin is a pipe from the parent, exit once the parent goes away.
const stdin = fstatSync(0);
if (stdin.isFIFO() || stdin.isSocket()) {
  process.stdin.on('end', close);
  process.stdin.resume();
}
