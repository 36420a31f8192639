// SQL of onboarding: KYC applications and their sealed documents, brokers, and the investor rows an
// approval creates. Every tenant-facing read is scoped by tenant; dealer reads are scoped by broker
// (null = an operator without a broker, i.e. the back office, sees every broker). A lookup answers the
// row or undefined; what a missing row means is the service's decision.
import type { Db } from '../store/db.js';
import type { InvestorRow } from '../investors/repo.js';
import type { AccountStatus, DocumentSide, KycDeclineReason, KycPath, KycState } from '../contract/kyc.js';
import type { BrokersRow, KycApplicationsRow, KycDocumentsRow } from '../store/rows.js';

/** The row, with reason_code as the decline reasons the service writes (the column has no CHECK of its own). */
export type ApplicationRow = Omit<KycApplicationsRow, 'reason_code'> & { reason_code: KycDeclineReason | null };

export type DocumentRow = Pick<KycDocumentsRow, 'side' | 'content_type' | 'sha256' | 'size_bytes' | 'uploaded_at'>;

export type BrokerRow = BrokersRow;

export type NewApplication = Pick<
  ApplicationRow,
  | 'id'
  | 'tenant_id'
  | 'broker_id'
  | 'state'
  | 'full_name'
  | 'national_id_enc'
  | 'national_id_hash'
  | 'details_enc'
  | 'created_at'
  | 'created_ms'
>;

export type NewInvestor = Pick<
  InvestorRow,
  'id' | 'tenant_id' | 'broker_id' | 'application_id' | 'account_number' | 'full_name' | 'created_at' | 'created_ms'
>;

export interface SuitabilityRecord {
  id: string;
  tenant_id: string;
  questionnaire: string;
  tier: number;
  risk_acknowledged: boolean;
  shariah_only: boolean;
}

export interface Decision {
  state: KycState;
  path?: KycPath;
  investorId?: string | null;
  reasonCode?: KycDeclineReason | null;
  decidedBy?: string | null;
  at: string;
}

/** kyc_applications: the application rows and their decisions. */
function applicationQueries(db: Db) {
  const q = {
    insertApp: db.prepare(
      `INSERT INTO kyc_applications (id, tenant_id, broker_id, state, full_name, national_id_enc, national_id_hash,
        details_enc, created_at, created_ms, updated_at)
       VALUES (@id, @tenant_id, @broker_id, @state, @full_name, @national_id_enc, @national_id_hash, @details_enc,
         @created_at, @created_ms, @created_at)`,
    ),
    app: db.prepare<[string, string], ApplicationRow>('SELECT * FROM kyc_applications WHERE id = ? AND tenant_id = ?'),
    appForBroker: db.prepare<[string, string | null, string | null], ApplicationRow>(
      'SELECT * FROM kyc_applications WHERE id = ? AND (? IS NULL OR broker_id = ?)',
    ),
    queue: db.prepare<
      [string | null, string | null, string, string, string | null, string | null, number],
      ApplicationRow
    >(
      `SELECT * FROM kyc_applications
       WHERE (? IS NULL OR broker_id = ?) AND (? = 'all' OR state = ?) AND (? IS NULL OR tenant_id = ?)
       ORDER BY COALESCE(submitted_at, created_at), rowid LIMIT ?`,
    ),
    approvedWithHash: db.prepare<[string, string], { id: string }>(
      "SELECT id FROM kyc_applications WHERE tenant_id = ? AND national_id_hash = ? AND state = 'approved'",
    ),
    decide: db.prepare(
      `UPDATE kyc_applications SET state = @state, path = COALESCE(@path, path),
         submitted_at = CASE WHEN @path IS NOT NULL THEN @at ELSE submitted_at END,
         investor_id = @investor_id, reason_code = @reason_code, decided_by = @decided_by,
         decided_at = CASE WHEN @state IN ('approved', 'rejected') THEN @at ELSE decided_at END,
         updated_at = @at
       WHERE id = @id`,
    ),
    touch: db.prepare('UPDATE kyc_applications SET updated_at = ? WHERE id = ?'),
  };
  return {
    insertApplication(row: NewApplication): void {
      q.insertApp.run(row);
    },
    application(tenantId: string, id: string): ApplicationRow | undefined {
      return q.app.get(id, tenantId);
    },
    applicationForBroker(brokerId: string | null, id: string): ApplicationRow | undefined {
      return q.appForBroker.get(id, brokerId, brokerId);
    },
    queue(opts: {
      brokerId: string | null;
      state: KycState | 'all';
      tenantId?: string;
      limit: number;
    }): ApplicationRow[] {
      const tenant = opts.tenantId ?? null;
      return q.queue.all(opts.brokerId, opts.brokerId, opts.state, opts.state, tenant, tenant, opts.limit);
    },
    hasApprovedWithHash(tenantId: string, hash: string): boolean {
      return q.approvedWithHash.get(tenantId, hash) !== undefined;
    },
    decide(id: string, d: Decision): void {
      const { state, path = null, investorId = null, reasonCode = null, decidedBy = null, at } = d;
      q.decide.run({ id, state, path, investor_id: investorId, reason_code: reasonCode, decided_by: decidedBy, at });
    },
    touch(id: string, at: string): void {
      q.touch.run(at, id);
    },
  };
}

/** kyc_documents: the sealed ID images, one row per application and side. */
function documentQueries(db: Db) {
  const q = {
    docs: db.prepare<[string], DocumentRow>(
      'SELECT side, content_type, sha256, size_bytes, uploaded_at FROM kyc_documents WHERE application_id = ? ' +
        'ORDER BY side DESC',
    ),
    docBytes: db.prepare<[string, string], { content_type: 'image/jpeg' | 'image/png'; bytes_enc: Buffer }>(
      'SELECT content_type, bytes_enc FROM kyc_documents WHERE application_id = ? AND side = ?',
    ),
    upsertDoc: db.prepare(
      `INSERT INTO kyc_documents (application_id, side, content_type, bytes_enc, sha256, size_bytes, uploaded_at)
       VALUES (@application_id, @side, @content_type, @bytes_enc, @sha256, @size_bytes, @uploaded_at)
       ON CONFLICT (application_id, side) DO UPDATE SET content_type = excluded.content_type,
         bytes_enc = excluded.bytes_enc,
         sha256 = excluded.sha256, size_bytes = excluded.size_bytes, uploaded_at = excluded.uploaded_at`,
    ),
  };
  return {
    documents(applicationId: string): DocumentRow[] {
      return q.docs.all(applicationId);
    },
    documentBytes(applicationId: string, side: DocumentSide) {
      return q.docBytes.get(applicationId, side);
    },
    putDocument(doc: DocumentRow & { application_id: string; bytes_enc: Buffer }): void {
      q.upsertDoc.run(doc);
    },
  };
}

/** brokers, and the investor rows (= accounts) an approval creates. */
function accountQueries(db: Db) {
  const q = {
    broker: db.prepare<[string], BrokerRow>('SELECT * FROM brokers WHERE id = ?'),
    firstBroker: db.prepare<[], BrokerRow>('SELECT * FROM brokers ORDER BY rowid LIMIT 1'),
    investorCount: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM investors WHERE broker_id = ?'),
    insertInvestor: db.prepare(
      `INSERT INTO investors (id, tenant_id, broker_id, application_id, account_number, full_name, status, created_at,
        created_ms)
       VALUES (@id, @tenant_id, @broker_id, @application_id, @account_number, @full_name, 'active', @created_at,
         @created_ms)`,
    ),
    accounts: db.prepare<[string, string | null, string | null, number], InvestorRow>(
      'SELECT * FROM investors WHERE tenant_id = ? AND (? IS NULL OR status = ?) ORDER BY created_ms DESC, ' +
        'rowid DESC LIMIT ?',
    ),
    brokerAccounts: db.prepare<
      [string | null, string | null, string | null, string | null, string | null, string | null, number],
      InvestorRow
    >(
      `SELECT * FROM investors WHERE (? IS NULL OR broker_id = ?) AND (? IS NULL OR tenant_id = ?)
        AND (? IS NULL OR status = ?)
       ORDER BY created_ms DESC, rowid DESC LIMIT ?`,
    ),
    investorForBroker: db.prepare<[string, string | null, string | null], InvestorRow>(
      'SELECT * FROM investors WHERE id = ? AND (? IS NULL OR broker_id = ?)',
    ),
    suitability: db.prepare(
      `UPDATE investors SET questionnaire = @questionnaire, suitability_tier = @tier, suitability_recorded = 1,
         risk_acknowledged = @risk_acknowledged, shariah_only = @shariah_only WHERE id = @id
           AND tenant_id = @tenant_id`,
    ),
    status: db.prepare<[AccountStatus, string]>('UPDATE investors SET status = ? WHERE id = ?'),
  };
  return {
    /** A broker an application or investor names (a foreign key: missing is a bug). */
    broker(id: string): BrokerRow {
      const row = q.broker.get(id);
      if (!row) throw new Error(`broker ${id} is missing`);
      return row;
    },
    /** The broker of record new applications are routed to: the first broker provisioned. */
    brokerOfRecord(): BrokerRow {
      const row = q.firstBroker.get();
      if (!row) throw new Error('no broker is provisioned');
      return row;
    },
    investorCountForBroker(brokerId: string): number {
      return q.investorCount.get(brokerId)!.n;
    },
    insertInvestor(row: NewInvestor): void {
      q.insertInvestor.run(row);
    },
    accounts(tenantId: string, status: AccountStatus | undefined, limit: number): InvestorRow[] {
      const s = status ?? null;
      return q.accounts.all(tenantId, s, s, limit);
    },
    brokerAccounts(opts: {
      brokerId: string | null;
      tenantId?: string;
      status?: AccountStatus;
      limit: number;
    }): InvestorRow[] {
      const t = opts.tenantId ?? null;
      const s = opts.status ?? null;
      return q.brokerAccounts.all(opts.brokerId, opts.brokerId, t, t, s, s, opts.limit);
    },
    investorForBroker(brokerId: string | null, id: string): InvestorRow | undefined {
      return q.investorForBroker.get(id, brokerId, brokerId);
    },
    recordSuitability(r: SuitabilityRecord): void {
      q.suitability.run({ ...r, risk_acknowledged: r.risk_acknowledged ? 1 : 0, shariah_only: r.shariah_only ? 1 : 0 });
    },
    setStatus(id: string, status: AccountStatus): void {
      q.status.run(status, id);
    },
  };
}

export function createOnboardingRepo(db: Db) {
  return { ...applicationQueries(db), ...documentQueries(db), ...accountQueries(db) };
}

export type OnboardingRepo = ReturnType<typeof createOnboardingRepo>;
