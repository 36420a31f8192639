import { z } from 'zod';
import { timestamp } from './formats.js';
import { AiProviderSchema } from './assistant.js';

export const ClockSchema = z
  .object({
    timestamp: timestamp(),
    is_open: z.boolean(),
    next_open: timestamp(),
    next_close: timestamp(),
  })
  .meta({ id: 'Clock' });

export const ClockAdvanceBody = z
  .strictObject({
    minutes: z.number().positive().finite().optional(),
    hours: z.number().positive().finite().optional(),
    days: z.number().positive().finite().optional(),
    until: z.string().min(1).max(64).optional(),
  })
  .refine((b) => [b.minutes, b.hours, b.days, b.until].filter((v) => v !== undefined).length === 1, {
    message: 'send exactly one of minutes, hours, days, until',
  })
  .meta({ id: 'ClockAdvanceRequest' });

export const ClockAdvanceResponse = ClockSchema.extend({
  mode: z.enum(['frozen', 'running']),
  instants_processed: z.int(),
}).meta({ id: 'ClockAdvanceResponse' });

export const ClockModeSchema = ClockSchema.extend({
  mode: z.enum(['frozen', 'running']).describe('frozen: moves only when advanced; running: follows the wall clock'),
  speed: z.number().describe('simulated seconds per wall second while running, in steps of 0.001'),
}).meta({ id: 'ClockMode' });

export const SandboxStateSchema = z
  .object({
    seed: z.int(),
    start: timestamp(),
    generation: z.int(),
    clock: ClockModeSchema,
    auto_fill: z.boolean(),
    manual_funding: z.boolean(),
    ai: AiProviderSchema,
    version: z.string(),
  })
  .meta({ id: 'SandboxState' });

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type Clock = z.infer<typeof ClockSchema>;
export type ClockAdvanceResponse = z.infer<typeof ClockAdvanceResponse>;
export type ClockMode = z.infer<typeof ClockModeSchema>;
export type SandboxState = z.infer<typeof SandboxStateSchema>;
