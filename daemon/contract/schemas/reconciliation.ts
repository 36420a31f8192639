// Wire schemas of reconciliation (docs/reconciliation.md): the external statements the sandbox computes
// (the custodian's holdings, the bank's cash), the inject-break sandbox control, runs and breaks.
import { z } from 'zod';
import { calendarDate, timestamp } from './formats.js';
import { freeText } from './free-text.js';

const date = (what: string) =>
  calendarDate()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
    .describe(what);
const id = z.string().min(1).max(64);

export const BREAK_KINDS = ['position', 'cash', 'missing', 'duplicate'] as const;
export const BREAK_STATES = ['open', 'acknowledged', 'resolved'] as const;
export const BREAK_RESOLUTIONS = ['auto', 'accepted', 'adjusted'] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];
export type BreakState = (typeof BREAK_STATES)[number];

export const InjectBreakBody = z
  .strictObject({
    kind: z
      .enum(BREAK_KINDS)
      .describe(
        'position: the custodian shows amount more shares (negative: fewer); cash: the bank shows amount more ' +
          'micros; missing: the line is left off the statement; duplicate: the line is listed twice',
      ),
    investor_id: id.describe('an investor of any tenant'),
    symbol: z
      .string()
      .min(1)
      .max(16)
      .optional()
      .describe(
        'an equity of the catalog: required for position, absent for cash; for missing and duplicate, the ' +
          'custodian line of this symbol (absent: the bank line)',
      ),
    amount: z
      .int()
      .refine((n) => n !== 0, 'must not be 0')
      .optional()
      .describe('position: shares; cash: EGP micros; signed, not 0; only for position and cash'),
    date: date('the first statement date it corrupts: a business day up to today; default today').optional(),
    through: date('the last statement date it corrupts (inclusive); default: every later date').optional(),
  })
  .meta({
    id: 'InjectBreakRequest',
    examples: [{ kind: 'position', investor_id: 'inv_...', symbol: 'COMI', amount: 10 }],
  });

export const InjectionSchema = z
  .object({
    injection_id: z.string().describe('inj_...'),
    kind: z.enum(BREAK_KINDS),
    tenant_id: z.string(),
    investor_id: z.string(),
    asset: z.string().describe('cash:EGP (the bank) or an equity symbol (the custodian)'),
    amount: z.int().describe('shares or micros added to the external value; 0 for missing and duplicate'),
    from_date: calendarDate(),
    through_date: calendarDate().nullable(),
    created_at: timestamp(),
  })
  .meta({ id: 'BreakInjection' });

export const StatementQuery = z.strictObject({
  date: date('a business day up to today'),
  source: z
    .enum(['custodian', 'bank'])
    .describe('custodian: holdings per investor and symbol (MCDR); bank: cash per investor'),
  investor_id: id.optional(),
});

export const StatementSchema = z
  .object({
    date: calendarDate(),
    source: z.enum(['custodian', 'bank']),
    as_of: timestamp().describe('the end of the business day (Africa/Cairo) the statement stands at'),
    lines: z.array(
      z.object({
        line: z.int().describe('1-based line number'),
        tenant_id: z.string(),
        investor_id: z.string(),
        asset: z.string(),
        quantity: z.int().describe('shares (custodian) or EGP micros (bank)'),
      }),
    ),
  })
  .meta({ id: 'ExternalStatement' });

export const RunBody = z
  .strictObject({ date: date('the business day to reconcile: up to today, not a weekend or holiday') })
  .meta({ id: 'ReconciliationRunRequest' });

export const RunSchema = z
  .object({
    run_id: z.string().describe('rcn_...'),
    date: calendarDate(),
    created_at: timestamp(),
    created_by: z.string(),
    investors: z.int().describe('investors compared'),
    custodian_lines: z.int(),
    bank_lines: z.int(),
    breaks_found: z.int().describe('differences this run saw (new or still there)'),
    breaks_opened: z.int(),
    breaks_auto_resolved: z.int().describe('breaks of earlier runs this run found matched'),
  })
  .meta({ id: 'ReconciliationRun' });

export const RunListQuery = z.strictObject({
  date: date('only runs of this date').optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const RunListSchema = z
  .object({ runs: z.array(RunSchema).describe('newest first') })
  .meta({ id: 'ReconciliationRunList' });

export const BreakSchema = z
  .object({
    break_id: z.string().describe('rbk_...'),
    kind: z.enum(BREAK_KINDS),
    tenant_id: z.string(),
    investor_id: z.string(),
    asset: z.string(),
    ledger_value: z.int().describe('settled and reserved, shares or micros, at the end of the day'),
    external_value: z.int().describe('what the statement shows (the sum of its lines)'),
    difference: z.int().describe('ledger_value - external_value'),
    state: z.enum(BREAK_STATES),
    resolution: z.enum(BREAK_RESOLUTIONS).nullable(),
    first_seen: calendarDate().describe('the statement date of the run that found it'),
    first_seen_at: timestamp(),
    first_run_id: z.string(),
    last_seen: calendarDate(),
    last_run_id: z.string(),
    acknowledged_at: timestamp().nullable(),
    acknowledged_by: z.string().nullable(),
    resolved_at: timestamp().nullable(),
    resolved_by: z.string().nullable().describe('the operator, or the run (rcn_...) that found it matched'),
    note: z.string().nullable(),
    reopens: z.string().nullable().describe('the resolved break of the same investor, asset and kind this one follows'),
  })
  .meta({ id: 'ReconciliationBreak' });

export const BreakListQuery = z.strictObject({
  state: z.enum(BREAK_STATES).optional(),
  kind: z.enum(BREAK_KINDS).optional(),
  investor_id: id.optional(),
  asset: z.string().min(1).max(40).optional(),
  run_id: id.optional().describe('breaks a run found (first or last seen)'),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
export const BreakListSchema = z
  .object({ breaks: z.array(BreakSchema).describe('newest first') })
  .meta({ id: 'ReconciliationBreakList' });

export const IdParams = z.strictObject({ id });
export const AcknowledgeBody = z
  .strictObject({ note: freeText(2000).optional() })
  .meta({ id: 'AcknowledgeBreakRequest' });
export const ResolveBody = z
  .strictObject({
    resolution: z
      .literal('accepted')
      .describe(
        'accepted: the difference is explained and kept (adjusted comes from an approved ledger:adjust; auto ' +
          'from a run)',
      ),
    note: freeText(2000).describe('why the difference is accepted'),
  })
  .meta({ id: 'ResolveBreakRequest' });

export type Injection = z.infer<typeof InjectionSchema>;
export type ExternalStatement = z.infer<typeof StatementSchema>;
export type ReconciliationRun = z.infer<typeof RunSchema>;
export type ReconciliationBreak = z.infer<typeof BreakSchema>;
