// Sandbox controls under /admin/sandbox (X-Admin-Key with grant sandbox:control): parse and delegate.
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { advanceClock, resetSandbox, sandboxState, setClockMode } from './service.js';
import {
  ClockAdvanceBody,
  ClockAdvanceResponse,
  ClockModeSchema,
  SandboxStateSchema,
} from '../contract/schemas/sandbox.js';
import { HaltSchema, LiveQuoteSchema } from '../contract/schemas/market.js';
import { AiProviderSchema } from '../contract/schemas/assistant.js';
import { JournalPage } from '../contract/journal.js';
import { exportSnapshot } from './snapshot.js';
import { readJournal } from './journal-page.js';

const JournalQuery = z.strictObject({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  format: z.enum(['json', 'ndjson']).default('json'),
});

const control = { realm: 'admin', grant: 'sandbox:control' } as const;

export function sandboxRoutes(deps: Deps): RouteDef[] {
  return [...clockAndStateRoutes(deps), ...resetAndMarketRoutes(deps), ...exportAndJournalRoutes(deps)];
}

function clockAndStateRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/clock-advance',
      auth: control,
      tags: ['sandbox'],
      summary:
        'Advance the simulated clock by minutes, hours or days, or until an instant, next_open or next_close; ' +
        'runs every event due on the way.',
      body: ClockAdvanceBody,
      response: ClockAdvanceResponse,
      errors: ['CLOCK_NOT_ADVANCEABLE', 'CLOCK_ADVANCE_TOO_LARGE', 'INVALID_TIMESTAMP'],
      // answers once the statements that became ready on the way are rendered and stored
      answerAfter: () => Promise.all(deps.settle.map((hook) => hook())),
      // a transaction of its own: a savepoint around a year of events would cost more than the events
      alone: true,
      handler: ({ body }) => advanceClock(deps, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/clock',
      auth: control,
      tags: ['sandbox'],
      summary:
        'Set the clock mode: frozen (moves only when advanced) or running (follows the wall clock at a speed factor).',
      // stored in thousandths: 0.001 is the slowest
      body: z.strictObject({ mode: z.enum(['frozen', 'running']), speed: z.number().min(0.001).max(10000).optional() }),
      response: ClockModeSchema,
      handler: ({ body }) => setClockMode(deps, body.mode, body.speed),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/sandbox/state',
      auth: control,
      tags: ['sandbox'],
      summary: 'Seed, start, clock and switches of the sandbox.',
      response: SandboxStateSchema,
      handler: () => sandboxState(deps),
    }),
  ];
}

function resetAndMarketRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/reset',
      auth: control,
      tags: ['sandbox'],
      summary:
        'Wipe all simulation state (credentials and the audit chain stay) and restart from a seed and start time.',
      body: z.strictObject({
        seed: z
          .int()
          .min(0)
          .max(2 ** 32 - 1)
          .optional(),
        start: z.string().meta({ format: 'date-time' }).optional().describe('RFC 3339; the current start when absent'),
        clock: z.enum(['frozen', 'running']).optional(),
        ai: AiProviderSchema.optional().describe(
          'assistant provider from now on (until the daemon restarts); the current one when absent',
        ),
        rate_limit: z
          .string()
          .min(1)
          .max(32)
          .optional()
          .describe('each API key\'s rate limit from now on ("200/min", docs/faults.md), "off"; as it is when absent'),
      }),
      response: SandboxStateSchema,
      errors: ['INVALID_TIMESTAMP', 'VALIDATION_FAILED'],
      handler: ({ body }) => resetSandbox(deps, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/quote',
      auth: control,
      tags: ['sandbox'],
      summary:
        'Set the tape price of a symbol now; ticks continue from it. The price must be on the tick grid and ' +
        'inside the band.',
      body: z.strictObject({
        symbol: z.string().min(1).max(16),
        price_micros: z.int().positive().max(Number.MAX_SAFE_INTEGER),
      }),
      response: LiveQuoteSchema,
      errors: ['UNKNOWN_SYMBOL', 'PRICE_OFF_TICK', 'PRICE_BAND_EXCEEDED'],
      handler: ({ body }) => deps.market.setQuote(body.symbol, body.price_micros),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/halt',
      auth: control,
      tags: ['sandbox'],
      summary: 'Halt or resume trading in a symbol.',
      body: z.strictObject({ symbol: z.string().min(1).max(16), halted: z.boolean() }),
      response: HaltSchema,
      errors: ['UNKNOWN_SYMBOL'],
      handler: ({ body }) => deps.market.setHalt(body.symbol, body.halted),
    }),
  ];
}

function exportAndJournalRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/admin/sandbox/export',
      auth: control,
      tags: ['sandbox'],
      summary:
        'The whole sandbox as one snapshot file (database, key-encryption key, credentials, manifest with ' +
        'checksums); it holds secrets. svc sandbox import restores it.',
      // No JSON response schema: the reply is the snapshot file's bytes (application/vnd.svc.snapshot).
      produces: ['application/vnd.svc.snapshot'],
      handler: () => exportSnapshot(deps),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/sandbox/journal',
      auth: control,
      tags: ['sandbox'],
      summary:
        'The request journal: every committed state-changing request, oldest first, with its principal, ' +
        'simulated time and status (never keys or signatures). format=ndjson gives a replayable file (header ' +
        'line, then entries; every entry unless limit is given); json pages with after and limit (default 100, ' +
        'at most 1000).',
      query: JournalQuery,
      response: JournalPage,
      produces: ['application/x-ndjson'],
      handler: ({ query }) => readJournal(deps.journal, query),
    }),
  ];
}
