// Wire schemas of client statements (docs/reports.md).
import { z } from 'zod';
import { calendarDate, timestamp } from './formats.js';

export const REPORT_TYPES = ['client_statement'] as const;
export const REPORT_SECTIONS = ['summary', 'performance', 'holdings', 'trades'] as const;
export const REPORT_LOCALES = ['en', 'ar'] as const;
export const REPORT_STATES = ['pending', 'generating', 'ready', 'failed'] as const;
/** The longest statement, in days from period_start to period_end (about ten years): PERIOD_TOO_LONG beyond. */
export const MAX_PERIOD_DAYS = 3_660;
export type ReportSection = (typeof REPORT_SECTIONS)[number];
export type ReportLocale = (typeof REPORT_LOCALES)[number];
export type ReportState = (typeof REPORT_STATES)[number];

export const ReportCreateBody = z
  .strictObject({
    investor_id: z.string().min(1).max(64),
    type: z.enum(REPORT_TYPES),
    period_start: z.string().max(32).describe('YYYY-MM-DD (Cairo), inclusive').meta({ format: 'date' }),
    period_end: z
      .string()
      .max(32)
      .describe('YYYY-MM-DD (Cairo), inclusive; not after today, not before period_start')
      .meta({ format: 'date' }),
    sections: z
      .array(z.enum(REPORT_SECTIONS))
      .min(1)
      .max(4)
      .refine((s) => new Set(s).size === s.length, { message: 'a section is listed twice' })
      .optional()
      .describe('omitted: all four, in this order; disclosures are always appended'),
    locale: z.string().max(16).default('en').describe('en or ar (422 UNSUPPORTED_LOCALE otherwise)'),
  })
  .meta({ id: 'ReportRequest' });

export const ReportCreated = z
  .object({ report_id: z.string().describe('rpt_...'), state: z.literal('pending') })
  .meta({ id: 'ReportCreated' });

export const ReportSchema = z
  .object({
    report_id: z.string(),
    investor_id: z.string(),
    type: z.enum(REPORT_TYPES),
    period_start: calendarDate(),
    period_end: calendarDate(),
    sections: z.array(z.enum(REPORT_SECTIONS)),
    locale: z.enum(REPORT_LOCALES),
    state: z
      .enum(REPORT_STATES)
      .describe('pending -> generating (the next simulated minute) -> ready or failed (the minute after)'),
    created_at: timestamp(),
    ready_at: timestamp().nullable(),
    expires_at: timestamp().describe('created_at + 7 years: the PDF is purged after it (410 REPORT_PURGED)'),
    bytes: z.int().nullable().describe('size of the PDF once ready'),
    sha256: z.string().nullable().describe('hex SHA-256 of the PDF once ready'),
    reason_code: z.string().nullable().describe('why it failed; null unless failed'),
  })
  .meta({ id: 'Report' });

export const ReportParams = z.strictObject({ id: z.string().min(1).max(64) });
