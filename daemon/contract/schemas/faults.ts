// The sandbox's fault rules and their report (docs/faults.md): the wire shapes of /admin/sandbox/faults.
import { z } from 'zod';

export const FAULT_STATUSES = [429, 500, 502, 503] as const;

export const FaultEffectSchema = z
  .strictObject({
    type: z.enum(['status', 'latency', 'reset', 'lost_response', 'timeout']),
    status: z
      .union(FAULT_STATUSES.map((s) => z.literal(s)))
      .optional()
      .describe('status: 429, 500, 502 or 503'),
    retry_after_s: z.int().min(1).max(3600).optional().describe('status 429 and 503: the Retry-After (default 1)'),
    ms: z.int().min(0).max(60_000).optional().describe('latency: a fixed delay'),
    min_ms: z.int().min(0).max(60_000).optional().describe('latency: a ranged delay, drawn from the seeded stream'),
    max_ms: z.int().min(0).max(60_000).optional(),
    seconds: z.int().min(1).max(120).optional().describe('timeout: how long the connection is held before it drops'),
  })
  .meta({ id: 'FaultEffect' });

export type FaultEffect = z.infer<typeof FaultEffectSchema>;

export const FaultRuleBody = z
  .strictObject({
    route: z.string().min(1).max(200).describe('"METHOD /v1/template" (e.g. "GET /v1/orders/{id}") or "*"'),
    tenant_id: z.string().min(1).max(64).optional().describe('only requests of this tenant'),
    every: z.int().min(1).max(1_000_000).optional().describe('fires on every Nth matching request'),
    probability: z.number().gt(0).max(1).optional().describe('fires with this probability (the seeded stream)'),
    times: z.int().min(1).max(1_000_000).optional().describe('fires on the next K matching requests'),
    effect: FaultEffectSchema,
  })
  .meta({ id: 'FaultRuleRequest' });

export type FaultRuleInput = z.infer<typeof FaultRuleBody>;

export const FaultRuleSchema = z
  .object({
    id: z.string(),
    route: z.string(),
    tenant_id: z.string().nullable(),
    every: z.int().nullable(),
    probability: z.number().nullable(),
    times: z.int().nullable(),
    effect: FaultEffectSchema,
    matched: z.int().describe('matching requests seen'),
    fired: z.int().describe('how often the rule fired'),
  })
  .meta({ id: 'FaultRule' });

export type FaultRule = z.infer<typeof FaultRuleSchema>;

export const FaultRuleList = z.object({ data: z.array(FaultRuleSchema) }).meta({ id: 'FaultRuleList' });

/** A removal's answer: how many rules went (deterministic, so a journal replay answers the same). */
export const FaultsRemoved = z.object({ removed: z.int() }).meta({ id: 'FaultsRemoved' });

export const FaultEventSchema = z.object({
  request_id: z.string(),
  rule_id: z.string().nullable().describe('null: the rate limit answered 429'),
  route: z.string(),
  effect: z.string().describe('status 503, latency, reset, lost_response, timeout, rate_limit...'),
  applied: z.boolean().describe('the request was applied and committed'),
  resource_id: z.string().nullable(),
  next: z
    .enum(['retried_same_key', 'retried_new_key', 'gave_up', 'waited', 'came_early', 'none'])
    .describe('what the client did next'),
  next_request_id: z.string().nullable(),
});

export const FindingSchema = z.object({
  kind: z.enum(['retry_new_key', 'retry_after_ignored', 'polling_too_fast', 'stale_signature']),
  message: z.string(),
  request_ids: z.array(z.string()),
  resource_ids: z.array(z.string()),
  duplicate_id: z.string().nullable().describe('retry_new_key: the resource the retry created a second time'),
  rate_per_s: z.int().nullable().describe('polling_too_fast: the reads in one second'),
});

export type Finding = z.infer<typeof FindingSchema>;
export type FaultEvent = z.infer<typeof FaultEventSchema>;

export const FaultReportSchema = z
  .object({
    faults_fired: z.int(),
    requests_seen: z.int(),
    events: z.array(FaultEventSchema),
    findings: z.array(FindingSchema),
    polling_limit_per_s: z.int(),
  })
  .meta({ id: 'FaultReport' });

export type FaultReport = z.infer<typeof FaultReportSchema>;
