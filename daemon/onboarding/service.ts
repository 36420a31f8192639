// Onboarding rules: KYC applications (create, documents, submit, the broker's review with the sandbox
// magic values), the investor an approval creates, suitability, and account status changes.
// States: created applications are `screened` (details screened synchronously; `received` is only the
// instant before). Submit with both ID sides: screened -> screening_referred, and the sandbox broker
// reviews at once (`0000` rejects, `9999` waits for a dealer, anything else approves). Submit with no
// documents: the dossier-only path, decided directly with the same magic values. docs/onboarding.md.
import type { Deps } from '../deps.js';
import type { Operator } from '../http/route.js';
import { AppError } from '../http/errors.js';
import { keyedHash, open, seal, sha256 } from '../store/crypto.js';
import {
  MAGIC_REFER_SUFFIX, MAGIC_REJECT_SUFFIX, MAX_DOCUMENT_BYTES, MIN_AGE_YEARS, ageInYears, checkNationalId, imageTypeOf,
  type AccountStatus, type DocumentSide, type KycDeclineReason, type KycState, type Questionnaire,
} from '../contract/kyc.js';
import type { InvestorRow } from '../investors/repo.js';
import { createOnboardingRepo, type ApplicationRow, type BrokerRow } from './repo.js';
import { scoreQuestionnaire } from './suitability.js';
import type { KycCreateInput } from '../contract/schemas/onboarding.js';

type OnboardingDeps = Pick<Deps, 'db' | 'ids' | 'keys' | 'audit' | 'clock' | 'market' | 'investors' | 'nowIso'>;

interface SealedDetails {
  date_of_birth: string;
  email: string;
  phone: string;
  address: string;
}

const aad = {
  nationalId: (appId: string) => `kyc:nid:${appId}`,
  details: (appId: string) => `kyc:details:${appId}`,
  document: (appId: string, side: DocumentSide) => `kyc:doc:${appId}:${side}`,
};

/** The national id's lookup key: an HMAC under the tenant's data key, never the id itself. */
function nationalIdHash(dek: Buffer, nationalId: string): string {
  return keyedHash(dek, `national_id:${nationalId}`);
}

/** Three-letter code of a broker for account numbers: initials of its name ("Nile Securities Brokerage" -> NSB). */
function brokerCode(name: string): string {
  const initials = name
    .split(/\s+/)
    .map((w) => w.replace(/[^A-Za-z]/g, ''))
    .filter((w) => w.length > 0)
    .map((w) => w[0].toUpperCase())
    .join('');
  return (initials + 'XXX').slice(0, 3);
}

export function createOnboardingService(deps: OnboardingDeps) {
  const repo = createOnboardingRepo(deps.db);

  function today(): string {
    return deps.market.calendar.localDate(deps.clock.now());
  }

  function requireApplication(tenantId: string, id: string): ApplicationRow {
    const app = repo.application(tenantId, id);
    if (!app) throw new AppError('NOT_FOUND', `No KYC application ${id}.`);
    return app;
  }

  function requireEditable(app: ApplicationRow): void {
    if (app.state === 'screening_referred') throw new AppError('APPLICATION_ALREADY_SUBMITTED', `Application ${app.id} is submitted and under review.`);
    if (app.state === 'approved' || app.state === 'rejected') throw new AppError('APPLICATION_ALREADY_DECIDED', `Application ${app.id} is already ${app.state}.`);
  }

  function requireForDealer(op: Operator, id: string): ApplicationRow {
    const app = repo.applicationForBroker(op.brokerId, id);
    if (!app) throw new AppError('NOT_FOUND', `No KYC application ${id} at your broker.`);
    return app;
  }

  function requireReferred(app: ApplicationRow): void {
    if (app.state === 'approved' || app.state === 'rejected') throw new AppError('APPLICATION_ALREADY_DECIDED', `Application ${app.id} is already ${app.state}.`);
    if (app.state !== 'screening_referred') throw new AppError('APPLICATION_NOT_REFERRED', `Application ${app.id} is ${app.state}; only submitted applications are reviewed.`);
  }

  function nationalIdOf(app: ApplicationRow): string {
    return open(deps.keys.tenantDek(app.tenant_id), app.national_id_enc, aad.nationalId(app.id)).toString('utf8');
  }

  function detailsOf(app: ApplicationRow): SealedDetails {
    return JSON.parse(open(deps.keys.tenantDek(app.tenant_id), app.details_enc, aad.details(app.id)).toString('utf8'));
  }

  function applicationView(app: ApplicationRow) {
    return {
      application_id: app.id,
      state: app.state,
      investor_id: app.investor_id,
      path: app.path,
      documents: repo.documents(app.id),
      reason_code: app.reason_code,
      created_at: app.created_at,
      submitted_at: app.submitted_at,
      decided_at: app.decided_at,
      updated_at: app.updated_at,
    };
  }

  function dealerView(app: ApplicationRow) {
    const nid = nationalIdOf(app);
    return {
      ...applicationView(app),
      tenant_id: app.tenant_id,
      full_name: app.full_name,
      national_id_masked: '*'.repeat(nid.length - 4) + nid.slice(-4),
      date_of_birth: detailsOf(app).date_of_birth,
    };
  }

  /** Next account number at the broker: its code and an 8-digit sequence (NSB-00000001). */
  function nextAccountNumber(broker: BrokerRow): string {
    return `${brokerCode(broker.name)}-${String(repo.investorCountForBroker(broker.id) + 1).padStart(8, '0')}`;
  }

  /** Approval: the investor (= account) is created in the same transaction as the decision. */
  function approve(app: ApplicationRow, decidedBy: string): string {
    const at = deps.nowIso();
    const investorId = deps.ids.next('inv');
    repo.insertInvestor({
      id: investorId,
      tenant_id: app.tenant_id,
      broker_id: app.broker_id,
      application_id: app.id,
      account_number: nextAccountNumber(repo.broker(app.broker_id)),
      full_name: app.full_name,
      created_at: at,
      created_ms: deps.clock.now(),
    });
    repo.decide(app.id, { state: 'approved', investorId, decidedBy, at });
    deps.audit.append({ actor: decidedBy, action: 'kyc.approved', subject: app.id, tenantId: app.tenant_id, detail: { investor_id: investorId } });
    return investorId;
  }

  function reject(app: ApplicationRow, reasonCode: KycDeclineReason, decidedBy: string, note?: string): void {
    repo.decide(app.id, { state: 'rejected', reasonCode, decidedBy, at: deps.nowIso() });
    deps.audit.append({
      actor: decidedBy, action: 'kyc.rejected', subject: app.id, tenantId: app.tenant_id,
      detail: note === undefined ? { reason_code: reasonCode } : { reason_code: reasonCode, note },
    });
  }

  /**
   * The sandbox broker's decision on a referred (or dossier) application, by the magic suffix of the
   * national id. A second approval of the same person in the tenant is declined as DUPLICATE_INVESTOR.
   */
  function sandboxReview(app: ApplicationRow): KycState {
    const suffix = nationalIdOf(app).slice(-4);
    const broker = `broker:${app.broker_id}`;
    if (suffix === MAGIC_REJECT_SUFFIX) {
      reject(app, 'SCREENING_MATCH', broker);
      return 'rejected';
    }
    if (suffix === MAGIC_REFER_SUFFIX) return 'screening_referred';
    if (repo.hasApprovedWithHash(app.tenant_id, app.national_id_hash)) {
      reject(app, 'DUPLICATE_INVESTOR', broker);
      return 'rejected';
    }
    approve(app, broker);
    return 'approved';
  }

  return {
    createApplication(tenantId: string, input: KycCreateInput, actor: string) {
      const nid = checkNationalId(input.national_id);
      if (!nid.ok) throw new AppError('INVALID_NATIONAL_ID', `national_id ${nid.reason}.`);
      const now = today();
      if (nid.birthDate > now) throw new AppError('INVALID_NATIONAL_ID', 'national_id encodes a birth date after today.');
      if (nid.birthDate !== input.date_of_birth) {
        throw new AppError('DATE_OF_BIRTH_MISMATCH', `date_of_birth ${input.date_of_birth} differs from the birth date encoded in national_id.`);
      }
      if (ageInYears(nid.birthDate, now) < MIN_AGE_YEARS) {
        throw new AppError('UNDERAGE', `The applicant must be at least ${MIN_AGE_YEARS} on ${now}.`);
      }
      const dek = deps.keys.tenantDek(tenantId);
      const hash = nationalIdHash(dek, input.national_id);
      if (repo.hasApprovedWithHash(tenantId, hash)) throw new AppError('DUPLICATE_NATIONAL_ID');
      const id = deps.ids.next('kyc');
      const details: SealedDetails = { date_of_birth: input.date_of_birth, email: input.email, phone: input.phone, address: input.address };
      const broker = repo.brokerOfRecord();
      repo.insertApplication({
        id,
        tenant_id: tenantId,
        broker_id: broker.id,
        state: 'screened',
        full_name: input.full_name,
        national_id_enc: seal(dek, Buffer.from(input.national_id, 'utf8'), aad.nationalId(id)),
        national_id_hash: hash,
        details_enc: seal(dek, Buffer.from(JSON.stringify(details), 'utf8'), aad.details(id)),
        created_at: deps.nowIso(),
        created_ms: deps.clock.now(),
      });
      deps.audit.append({ actor, action: 'kyc.screened', subject: id, tenantId, detail: { broker_id: broker.id } });
      return { application_id: id, state: 'screened' as const };
    },

    putDocument(tenantId: string, id: string, side: DocumentSide, bytes: Buffer) {
      const app = requireApplication(tenantId, id);
      requireEditable(app);
      if (bytes.length > MAX_DOCUMENT_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `An ID image is at most ${MAX_DOCUMENT_BYTES} bytes.`);
      const contentType = imageTypeOf(bytes);
      if (!contentType) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
      const at = deps.nowIso();
      const digest = sha256(bytes);
      repo.putDocument({
        application_id: id,
        side,
        content_type: contentType,
        bytes_enc: seal(deps.keys.tenantDek(tenantId), bytes, aad.document(id, side)),
        sha256: digest,
        size_bytes: bytes.length,
        uploaded_at: at,
      });
      repo.touch(id, at);
      return { application_id: id, side, content_type: contentType, size_bytes: bytes.length, sha256: digest, state: app.state };
    },

    submit(tenantId: string, id: string, actor: string): { state: KycState } {
      const app = requireApplication(tenantId, id);
      requireEditable(app);
      const docs = repo.documents(id);
      if (docs.length === 1) {
        throw new AppError('DOCUMENTS_INCOMPLETE', `Only ${docs[0].side} is on file; upload ${docs[0].side === 'national_id_front' ? 'national_id_back' : 'national_id_front'} too, or submit with no documents.`);
      }
      const at = deps.nowIso();
      if (docs.length === 0) {
        // Dossier-only: no images to review, so the broker decides on the details directly.
        repo.decide(id, { state: 'screening_referred', path: 'dossier', at });
        deps.audit.append({ actor, action: 'kyc.submitted', subject: id, tenantId, detail: { path: 'dossier' } });
        return { state: sandboxReview(repo.application(tenantId, id)!) };
      }
      repo.decide(id, { state: 'screening_referred', path: 'documents', at });
      deps.audit.append({
        actor, action: 'kyc.submitted', subject: id, tenantId,
        detail: { path: 'documents', documents: docs.map((d) => ({ side: d.side, sha256: d.sha256, size_bytes: d.size_bytes })) },
      });
      // Routed to the broker's review; the sandbox broker reviews the images at once. The outcome is
      // read by polling GET /v1/kyc/applications/{id}, as for every asynchronous state in the spec.
      sandboxReview(repo.application(tenantId, id)!);
      return { state: 'screening_referred' };
    },

    getApplication(tenantId: string, id: string) {
      return applicationView(requireApplication(tenantId, id));
    },

    // Dealer desk: applications routed to the operator's broker, across that broker's tenants.
    queue(op: Operator, query: { state: KycState | 'all'; tenant_id?: string; limit: number }) {
      return { applications: repo.queue({ brokerId: op.brokerId, state: query.state, tenantId: query.tenant_id, limit: query.limit }).map(dealerView) };
    },

    /** The dealer clears the referral: the application resubmits automatically and is approved. */
    clear(op: Operator, id: string) {
      const app = requireForDealer(op, id);
      requireReferred(app);
      if (repo.hasApprovedWithHash(app.tenant_id, app.national_id_hash)) {
        throw new AppError('DUPLICATE_NATIONAL_ID', 'This person already holds an approved account in the tenant; decline with DUPLICATE_INVESTOR.');
      }
      approve(app, `operator:${op.name}`);
      return dealerView(repo.application(app.tenant_id, id)!);
    },

    decline(op: Operator, id: string, reasonCode: KycDeclineReason, note?: string) {
      const app = requireForDealer(op, id);
      requireReferred(app);
      reject(app, reasonCode, `operator:${op.name}`, note);
      return dealerView(repo.application(app.tenant_id, id)!);
    },

    /** An ID image for the reviewer, decrypted; every view is audited. */
    viewDocument(op: Operator, id: string, side: DocumentSide) {
      const app = requireForDealer(op, id);
      const doc = repo.documentBytes(id, side);
      if (!doc) throw new AppError('NOT_FOUND', `Application ${id} has no ${side} on file.`);
      const bytes = open(deps.keys.tenantDek(app.tenant_id), doc.bytes_enc, aad.document(id, side));
      deps.db.transaction(() => {
        deps.audit.append({ actor: `operator:${op.name}`, action: 'kyc.document_viewed', subject: id, tenantId: app.tenant_id, detail: { side } });
      })();
      return { bytes, contentType: doc.content_type };
    },

    // Investors and accounts.
    recordSuitability(tenantId: string, investorId: string, questionnaire: Questionnaire, riskAcknowledged: boolean, actor: string) {
      const inv = deps.investors.requireForMoney(tenantId, investorId);
      const { tier, score } = scoreQuestionnaire(questionnaire);
      repo.recordSuitability({
        id: inv.id, tenant_id: tenantId, questionnaire: JSON.stringify(questionnaire), tier,
        risk_acknowledged: riskAcknowledged, shariah_only: questionnaire.shariah_only,
      });
      deps.audit.append({
        actor, action: 'investor.suitability_recorded', subject: inv.id, tenantId,
        detail: { tier, score, risk_acknowledged: riskAcknowledged, shariah_only: questionnaire.shariah_only },
      });
      return {
        investor_id: inv.id,
        suitability: { tier, score, recorded: true, risk_acknowledged: riskAcknowledged },
        shariah_only: questionnaire.shariah_only,
      };
    },

    investorView(tenantId: string, investorId: string) {
      const inv = deps.investors.find(tenantId, investorId);
      if (!inv) {
        const pending = investorId.startsWith('kyc_') && repo.application(tenantId, investorId);
        throw new AppError('NOT_FOUND', pending ? `Application ${investorId} has no investor yet; poll GET /v1/kyc/applications/${investorId}.` : `No investor ${investorId}.`);
      }
      const b = repo.broker(inv.broker_id);
      return {
        investor_id: inv.id,
        full_name: inv.full_name,
        status: inv.status,
        broker_account_ref: inv.account_number,
        suitability_recorded: inv.suitability_recorded === 1,
        risk_acknowledged: inv.risk_acknowledged === 1,
        shariah_only: inv.shariah_only === 1,
        broker: { name: b.name, fra_license_no: b.fra_license_no, contact_email: b.contact_email, contact_phone: b.contact_phone },
      };
    },

    accountView,

    listAccounts(tenantId: string, status: AccountStatus | undefined, limit: number) {
      return { accounts: repo.accounts(tenantId, status, limit).map(accountView) };
    },

    getAccount(tenantId: string, id: string) {
      return accountView(deps.investors.require(tenantId, id));
    },

    listBrokerAccounts(op: Operator, query: { status?: AccountStatus; tenant_id?: string; limit: number }) {
      const rows = repo.brokerAccounts({ brokerId: op.brokerId, tenantId: query.tenant_id, status: query.status, limit: query.limit });
      return { accounts: rows.map((r) => ({ ...accountView(r), tenant_id: r.tenant_id })) };
    },

    /** active <-> restricted, either -> closed; closed is final (read-only). Audited with the reason. */
    changeStatus(op: Operator, id: string, status: AccountStatus, reason: string) {
      const inv = repo.investorForBroker(op.brokerId, id);
      if (!inv) throw new AppError('NOT_FOUND', `No account ${id} at your broker.`);
      if (inv.status === 'closed') throw new AppError('INVESTOR_CLOSED', `Account ${id} is closed; a closed account is never reopened.`);
      if (inv.status === status) throw new AppError('ACCOUNT_STATUS_UNCHANGED', `Account ${id} is already ${status}.`);
      repo.setStatus(id, status);
      deps.audit.append({
        actor: `operator:${op.name}`, action: 'account.status_changed', subject: id, tenantId: inv.tenant_id,
        detail: { from: inv.status, to: status, reason },
      });
      const updated = repo.investorForBroker(op.brokerId, id)!;
      return { ...accountView(updated), tenant_id: updated.tenant_id };
    },
  };

  function accountView(inv: InvestorRow) {
    const b = repo.broker(inv.broker_id);
    return {
      id: inv.id,
      account_number: inv.account_number,
      status: inv.status,
      currency: 'EGP' as const,
      name: inv.full_name,
      shariah_only: inv.shariah_only === 1,
      suitability: { tier: inv.suitability_tier, recorded: inv.suitability_recorded === 1, risk_acknowledged: inv.risk_acknowledged === 1 },
      broker: { id: b.id, name: b.name, fra_license_no: b.fra_license_no, contact_email: b.contact_email, contact_phone: b.contact_phone },
      created_at: inv.created_at,
    };
  }
}

export type OnboardingService = ReturnType<typeof createOnboardingService>;
