// fee-schedule:update (docs/backoffice.md "Bases"): a new fee schedule, in force for every fill booked
// after the approval. Each line the proposal names changes; the others keep their rate. Rates are in
// tenths of a basis point (fixtures/fees.json's unit: 100 = 10 bp); amounts in micros.
import { z } from 'zod';
import { ok, type Outcome } from '../../contract/outcome.js';
import type { FeeSchedule } from '../../contract/fees.js';
import { feeScheduleInForce, putFeeSchedule } from '../../trading/fee-schedule.js';
import { feesReference } from '../../trading/desk-reference.js';
import type { ExecCtx } from './exec.js';

/** At most 10% of the trade value for any line; amounts at most 1,000,000 EGP. */
const rate = z.number().int().min(0).max(10_000);
const amount = z.number().int().min(0).max(1_000_000_000_000);

export const feeScheduleParams = z
  .strictObject({
    commission_rate_bps_x10: rate.optional(),
    commission_min_micros: amount.optional(),
    egx_rate_bps_x10: rate.optional(),
    egx_cap_micros: amount.min(1).optional(),
    mcdr_rate_bps_x10: rate.optional(),
    ipf_rate_bps_x10: rate.optional(),
    fra_rate_bps_x10: rate.optional(),
    stamp_duty_rate_bps_x10: rate.optional(),
  })
  .refine((p) => Object.keys(p).length > 0, 'name at least one fee line to change');

type Params = z.infer<typeof feeScheduleParams>;

function merged(cur: FeeSchedule, p: Params): FeeSchedule {
  return {
    commission: {
      rateBpsX10: p.commission_rate_bps_x10 ?? cur.commission.rateBpsX10,
      minMicros: p.commission_min_micros ?? cur.commission.minMicros,
    },
    egx: { rateBpsX10: p.egx_rate_bps_x10 ?? cur.egx.rateBpsX10, capMicros: p.egx_cap_micros ?? cur.egx.capMicros },
    mcdr: { rateBpsX10: p.mcdr_rate_bps_x10 ?? cur.mcdr.rateBpsX10 },
    ipf: { rateBpsX10: p.ipf_rate_bps_x10 ?? cur.ipf.rateBpsX10 },
    fra: { rateBpsX10: p.fra_rate_bps_x10 ?? cur.fra.rateBpsX10 },
    stampDuty: { rateBpsX10: p.stamp_duty_rate_bps_x10 ?? cur.stampDuty.rateBpsX10 },
  };
}

export function updateFeeSchedule(
  { deps, actionId }: ExecCtx,
  p: Record<string, unknown>,
): Outcome<Record<string, unknown>> {
  const before = feeScheduleInForce(deps.db);
  const next = merged(before, p as Params);
  const effectiveAt = deps.market.calendar.toIso(deps.clock.now());
  const version = putFeeSchedule(deps.db, next, actionId, effectiveAt);
  return ok({ fee_schedule_version: version, effective_at: effectiveAt, lines: feesReference(next).lines });
}
