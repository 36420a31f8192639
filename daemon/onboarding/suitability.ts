// Suitability scoring: a deterministic function from the questionnaire to a tier (1 conservative,
// 2 balanced, 3 growth). Points add up to a score 0-18, bands map the score to a tier, and caps keep
// the tier within what the stated risk tolerance, horizon and experience allow. docs/onboarding.md
// carries the same table. Recording a questionnaire stores the answers, the tier and the investor's
// flags, and is refused like a money movement for an investor that is pending or closed.
import type { Questionnaire, SuitabilityTier } from '../contract/kyc.js';
import { ok } from '../contract/outcome.js';
import type { OnboardingCtx } from './context.js';

export const POINTS = {
  investment_experience: { none: 0, limited: 1, moderate: 2, extensive: 3 },
  horizon: { under_1y: 0, '1_3y': 1, '3_5y': 2, over_5y: 3 },
  risk_tolerance: { low: 0, medium: 3, high: 6 },
  annual_income_band: { under_120k: 0, '120k_300k': 1, '300k_1m': 2, over_1m: 3 },
  net_worth_band: { under_250k: 0, '250k_1m': 1, '1m_5m': 2, over_5m: 3 },
  objectives: { capital_preservation: 0, income: 1, growth: 2, speculation: 3 },
} as const;

/** Score bands: 0-6 conservative, 7-12 balanced, 13-18 growth. */
export const TIER_BANDS: ReadonlyArray<{ maxScore: number; tier: SuitabilityTier }> = [
  { maxScore: 6, tier: 1 },
  { maxScore: 12, tier: 2 },
  { maxScore: 18, tier: 3 },
];

export interface SuitabilityResult {
  score: number;
  tier: SuitabilityTier;
}

export function scoreQuestionnaire(q: Questionnaire): SuitabilityResult {
  // Capacity for loss is limited by the weaker of income and net worth.
  const capacity = Math.min(POINTS.annual_income_band[q.annual_income_band], POINTS.net_worth_band[q.net_worth_band]);
  const objective = Math.max(...q.objectives.map((o) => POINTS.objectives[o]));
  const score =
    POINTS.investment_experience[q.investment_experience] +
    POINTS.horizon[q.horizon] +
    POINTS.risk_tolerance[q.risk_tolerance] +
    capacity +
    objective;
  let tier = TIER_BANDS.find((b) => score <= b.maxScore)!.tier;
  const caps: SuitabilityTier[] = [{ low: 1, medium: 2, high: 3 }[q.risk_tolerance] as SuitabilityTier];
  if (q.horizon === 'under_1y') caps.push(1);
  if (q.investment_experience === 'none') caps.push(2);
  tier = Math.min(tier, ...caps) as SuitabilityTier;
  return { score, tier };
}

/** PUT semantics: the questionnaire replaces the previous one, shariah_only included (default false). */
export function recordSuitability(
  ctx: Pick<OnboardingCtx, 'repo' | 'investors' | 'audit'>,
  tenantId: string,
  investorId: string,
  questionnaire: Questionnaire,
  riskAcknowledged: boolean,
  actor: string,
) {
  const found = ctx.investors.lookupForMoney(tenantId, investorId);
  if (!found.ok) return found;
  const inv = found.value;
  const { tier, score } = scoreQuestionnaire(questionnaire);
  const shariahOnly = questionnaire.shariah_only;
  ctx.repo.recordSuitability({
    id: inv.id,
    tenant_id: tenantId,
    questionnaire: JSON.stringify(questionnaire),
    tier,
    risk_acknowledged: riskAcknowledged,
    shariah_only: shariahOnly,
  });
  ctx.audit.append({
    actor,
    action: 'investor.suitability_recorded',
    subject: inv.id,
    tenantId,
    detail: { tier, score, risk_acknowledged: riskAcknowledged, shariah_only: shariahOnly },
  });
  return ok({
    investor_id: inv.id,
    suitability: { tier, score, recorded: true, risk_acknowledged: riskAcknowledged },
    shariah_only: shariahOnly,
  });
}
