// Investor lookups shared by every capability that takes an investor_id. Another tenant's investor
// behaves exactly like an unknown one (404 NOT_FOUND).
import type { Db } from '../store/db.js';
import { AppError } from '../http/errors.js';

export interface InvestorRow {
  id: string;
  tenant_id: string;
  broker_id: string;
  application_id: string;
  account_number: string;
  full_name: string;
  status: 'active' | 'restricted' | 'closed';
  shariah_only: number;
  suitability_tier: number;
  suitability_recorded: number;
  risk_acknowledged: number;
  questionnaire: string | null;
  created_at: string;
  created_ms: number;
}

export function createInvestorRepo(db: Db) {
  const byId = db.prepare<[string, string], InvestorRow>('SELECT * FROM investors WHERE id = ? AND tenant_id = ?');
  const pendingApplication = db.prepare<[string, string], { state: string }>(
    "SELECT state FROM kyc_applications WHERE id = ? AND tenant_id = ? AND state <> 'approved'",
  );
  return {
    find(tenantId: string, investorId: string): InvestorRow | null {
      return byId.get(investorId, tenantId) ?? null;
    },
    /** The tenant's investor, or 404 NOT_FOUND. */
    require(tenantId: string, investorId: string): InvestorRow {
      const row = byId.get(investorId, tenantId);
      if (!row) throw new AppError('NOT_FOUND', `No investor ${investorId}.`);
      return row;
    },
    /**
     * For funding and trading: the investor must exist and not be closed. The id of the tenant's own
     * KYC application that is not approved yet is refused with INVESTOR_NOT_APPROVED rather than a bare
     * 404; any other unknown id (another tenant's application included) is 404.
     */
    requireForMoney(tenantId: string, investorId: string): InvestorRow {
      const row = byId.get(investorId, tenantId);
      if (!row) {
        if (pendingApplication.get(investorId, tenantId)) throw new AppError('INVESTOR_NOT_APPROVED', `Application ${investorId} has no approved investor yet.`);
        throw new AppError('NOT_FOUND', `No investor ${investorId}.`);
      }
      if (row.status === 'closed') throw new AppError('INVESTOR_CLOSED');
      return row;
    },
  };
}

export type InvestorRepo = ReturnType<typeof createInvestorRepo>;
