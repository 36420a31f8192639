// Checked by tsc (tsconfig includes test/), never run: a handler's answer is typed by its route's
// response schema (daemon/contract/route.ts, Answer). Each `@ts-expect-error` is a handler that must
// not compile; were the typing gone (a handler returning unknown), tsc would fail on the unused
// directive. docs/architecture.md, "Request path".
import { Readable } from 'node:stream';
import { z } from 'zod';
import { defineRoute } from '../../daemon/contract/route.js';
import { ok, refuse } from '../../daemon/contract/outcome.js';

const Thing = z.object({ id: z.string(), qty: z.int(), at: z.string().nullable().default(null) });
const base = { method: 'GET' as const, url: '/t', auth: 'none' as const, summary: 'a test route', tags: ['test'] };
declare const found: boolean;

export const answers = [
  // A body that fits; the schema's input is what a handler answers (`at` has a default, so may be left out).
  defineRoute({ ...base, response: Thing, handler: () => ({ id: 'a', qty: 1 }) }),
  // An Outcome of a fitting body, or a refusal.
  defineRoute({ ...base, response: Thing, handler: () => (found ? ok({ id: 'a', qty: 1 }) : refuse('NOT_FOUND')) }),
  // A JSON reply with its own status, whose body fits.
  defineRoute({ ...base, response: Thing, handler: () => ({ status: 201, body: { id: 'a', qty: 1, at: null } }) }),

  // @ts-expect-error a body missing a required field
  defineRoute({ ...base, response: Thing, handler: () => ({ id: 'a' }) }),
  // @ts-expect-error a field of the wrong type
  defineRoute({ ...base, response: Thing, handler: () => ({ id: 'a', qty: '1' }) }),
  // @ts-expect-error an Outcome whose value does not fit
  defineRoute({ ...base, response: Thing, handler: () => ok({ id: 1, qty: 1 }) }),
  // @ts-expect-error a JSON reply whose body does not fit
  defineRoute({ ...base, response: Thing, handler: () => ({ status: 200, body: { id: 'a' } }) }),
  defineRoute({
    ...base,
    response: Thing,
    // @ts-expect-error bytes from a route that declares no media type
    handler: () => ({ status: 200, raw: Buffer.alloc(0), contentType: 'image/png' }),
  }),

  // Bytes of a declared media type, with or without parameters; a stream too.
  defineRoute({
    ...base,
    produces: ['image/png'],
    handler: () => ({ status: 200, raw: Buffer.alloc(0), contentType: 'image/png' }),
  }),
  defineRoute({
    ...base,
    produces: ['text/plain'],
    handler: () => ({ status: 200, stream: Readable.from([]), contentType: 'text/plain; charset=utf-8' }),
  }),
  defineRoute({
    ...base,
    produces: ['image/png'],
    // @ts-expect-error bytes of a media type the route does not declare
    handler: () => ({ status: 200, raw: Buffer.alloc(0), contentType: 'image/svg+xml' }),
  }),
  // @ts-expect-error bytes without a media type
  defineRoute({ ...base, produces: ['image/png'], handler: () => ({ status: 200, raw: Buffer.alloc(0) }) }),
  // @ts-expect-error a JSON body from a byte route without a response schema
  defineRoute({ ...base, produces: ['image/png'], handler: () => ({ id: 'a', qty: 1 }) }),
  // A byte route with a response schema answers either.
  defineRoute({
    ...base,
    response: Thing,
    produces: ['application/x-ndjson'],
    handler: () =>
      found ? { id: 'a', qty: 1 } : { status: 200, raw: Buffer.alloc(0), contentType: 'application/x-ndjson' },
  }),
];
