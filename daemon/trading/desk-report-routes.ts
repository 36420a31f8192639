// The dealer desk's reports (X-Console-Key with their grants, docs/desk.md): the end of day of an
// exchange date (eod:read) and the reference data the daemon applies (reference:read). Read-only.
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import {
  EodQuery,
  EodSchema,
  ReferenceCalendarQuery,
  ReferenceCalendarSchema,
  ReferenceFeesSchema,
  ReferenceHolidaysQuery,
  ReferenceHolidaysSchema,
  ReferenceInstrumentsSchema,
  ReferenceTicksSchema,
} from '../contract/schemas/desk-reports.js';
import { createEodDesk } from './desk-eod.js';
import { baseUrl } from '../contract/base-url.js';
import { feeScheduleInForce } from './fee-schedule.js';
import {
  calendarReference,
  feesReference,
  holidaysReference,
  instrumentsReference,
  ticksReference,
} from './desk-reference.js';

const grant = (g: string) => ({ realm: 'console', grant: g }) as const;

function referenceRoutes(deps: Deps): RouteDef[] {
  const ref = grant('reference:read');
  return [
    defineRoute({
      method: 'GET',
      url: '/broker/v1/reference/instruments',
      auth: ref,
      tags: ['desk'],
      summary: 'The instrument catalog (equities, bonds and sukuk), alphabetical by symbol.',
      response: ReferenceInstrumentsSchema,
      handler: ({ headers }) => instrumentsReference(deps, baseUrl(headers)),
    }),
    defineRoute({
      method: 'GET',
      url: '/broker/v1/reference/calendar',
      auth: ref,
      tags: ['desk'],
      summary:
        'Trading days with session hours and settlement dates: of ?year=, of ?start=&end= (at most two years), ' +
        'or of the current year.',
      query: ReferenceCalendarQuery,
      response: ReferenceCalendarSchema,
      errors: ['INVALID_DATE', 'DATE_OUT_OF_RANGE', 'INVALID_RANGE'],
      handler: ({ query }) => calendarReference(deps, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/broker/v1/reference/fees',
      auth: ref,
      tags: ['desk'],
      summary:
        'The fee schedule the order path charges: each line with its rate, minimum and cap; stamp duty as withholding.',
      response: ReferenceFeesSchema,
      handler: () => feesReference(feeScheduleInForce(deps.db)),
    }),
    defineRoute({
      method: 'GET',
      url: '/broker/v1/reference/ticks',
      auth: ref,
      tags: ['desk'],
      summary: 'The tick-size table of the price grid and the daily price band.',
      response: ReferenceTicksSchema,
      handler: () => ticksReference(),
    }),
    defineRoute({
      method: 'GET',
      url: '/broker/v1/reference/holidays',
      auth: ref,
      tags: ['desk'],
      summary: 'Exchange holidays (weekdays the market is closed), optionally of one ?year=.',
      query: ReferenceHolidaysQuery,
      response: ReferenceHolidaysSchema,
      handler: ({ query }) => holidaysReference(query.year),
    }),
  ];
}

export function deskReportRoutes(deps: Deps): RouteDef[] {
  const eod = createEodDesk(deps);
  return [
    defineRoute({
      method: 'GET',
      url: '/broker/v1/eod',
      auth: grant('eod:read'),
      tags: ['desk'],
      summary:
        "End of day for the dealer's broker: the date's trades with each fee line, fees by line, the day's " +
        'cash movements, and settlement obligations due that date (per investor and net).',
      query: EodQuery,
      response: EodSchema,
      errors: ['INVALID_DATE', 'DATE_OUT_OF_RANGE', 'DATE_IN_FUTURE'],
      handler: ({ query, operator }) => eod.eod(operator!, query.date),
    }),
    ...referenceRoutes(deps),
  ];
}
