// Wire schemas of trade surveillance (docs/surveillance.md): runs of the rules, the alerts they raise,
// an alert's changes of state and the thresholds the rules use.
import { z } from 'zod';
import { calendarDate, timestamp } from './formats.js';
import { freeText, optionalText } from './free-text.js';

export const SURVEILLANCE_RULES = ['wash_trade', 'layering', 'concentration'] as const;
export const ALERT_STATES = ['open', 'escalated', 'closed'] as const;

const ymd = (what: string) =>
  calendarDate()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
    .describe(what);
const note = () => freeText(2000);

export const ThresholdsSchema = z
  .object({
    wash_window_minutes: z
      .int()
      .describe('wash trade: a buy and a sell fill of one investor in one symbol at most this many minutes apart'),
    layering_min_cancels: z
      .int()
      .describe('layering-like cancels: at least this many orders of one side of one symbol cancelled in a session...'),
    layering_cancel_within_minutes: z.int().describe('...each cancelled at most this many minutes after it was placed'),
    concentration_share_bps: z
      .int()
      .describe(
        "concentration: one investor's filled quantity is MORE than this share (basis points) of the symbol's " +
          'session volume',
      ),
  })
  .meta({ id: 'SurveillanceThresholds' });

export const ThresholdsPatchSchema = z.strictObject({
  wash_window_minutes: z.int().min(1).max(1440).nullable().optional(),
  layering_min_cancels: z.int().min(1).max(10000).nullable().optional(),
  layering_cancel_within_minutes: z.int().min(1).max(1440).nullable().optional(),
  concentration_share_bps: z.int().min(0).max(9999).nullable().optional(),
});

export const ThresholdsViewSchema = z
  .object({
    thresholds: ThresholdsSchema.describe('in force: the overrides over the defaults'),
    defaults: ThresholdsSchema.describe('from fixtures/surveillance.json'),
    overridden: z.array(z.string()).describe('the names of the thresholds that are overridden'),
    updated_at: timestamp().nullable().describe('last change of an override; null when none was ever set'),
  })
  .meta({ id: 'SurveillanceThresholdsView' });

export const AlertSchema = z
  .object({
    alert_id: z.string().describe('alr_...'),
    run_id: z.string().describe('srun_...: the run that raised it'),
    rule: z.enum(SURVEILLANCE_RULES),
    tenant_id: z.string(),
    investor_id: z.string(),
    symbol: z.string(),
    session_date: ymd('the EGX session the evidence comes from'),
    window_start: timestamp().describe('the first order or fill of the evidence'),
    window_end: timestamp().describe('the last order or fill of the evidence'),
    order_ids: z.array(z.string()).describe('the orders that triggered the alert'),
    fill_ids: z.array(z.string()).describe('the fills that triggered the alert (empty for layering)'),
    detail: z
      .record(z.string(), z.union([z.number(), z.string()]))
      .describe('the measured values against the thresholds of the run'),
    state: z.enum(ALERT_STATES),
    note: z.string().nullable().describe("the operator's note (the closing note once closed)"),
    created_at: timestamp(),
    escalated_at: timestamp().nullable(),
    closed_at: timestamp().nullable(),
    updated_at: timestamp(),
  })
  .meta({ id: 'SurveillanceAlert' });

export const AlertListSchema = z
  .object({ alerts: z.array(AlertSchema).describe('oldest first') })
  .meta({ id: 'SurveillanceAlertList' });

export const RunSchema = z
  .object({
    run_id: z.string().describe('srun_...'),
    trigger: z.enum(['session_close', 'on_demand']),
    session_date: ymd('the session the rules looked at'),
    thresholds: ThresholdsSchema,
    alerts_raised: z.int().describe('new alerts; a pattern already alerted for this session is not raised again'),
    alerts: z.array(AlertSchema).describe('the alerts this run raised'),
    ran_at: timestamp(),
  })
  .meta({ id: 'SurveillanceRun' });

export const RunRequestSchema = z.strictObject({
  date: ymd('the session to look at (default: the latest session that has opened)').optional(),
});

export const AlertListQuerySchema = z.strictObject({
  state: z.enum(ALERT_STATES).optional(),
  rule: z.enum(SURVEILLANCE_RULES).optional(),
  investor_id: z.string().max(64).optional(),
  symbol: z.string().max(16).optional(),
  tenant_id: z.string().max(64).optional(),
  session_date: ymd('only alerts of this session').optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const AlertCloseSchema = z.strictObject({
  note: optionalText(2000).optional().describe('required: why the alert is closed'),
});
export const AlertEscalateSchema = z.strictObject({
  note: note().optional().describe('optional: why it is escalated'),
});
