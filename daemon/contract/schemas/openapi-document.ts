// GET /openapi.json's answer, as far as the answer checker holds it (daemon/http/answer-check.ts): an
// OpenAPI 3.1 document with its paths and components. What is inside a path or a schema is JSON Schema and
// OpenAPI's own, checked by test/contract/ against the standard, not here.
import { z } from 'zod';

export const OpenApiDocumentSchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()) }),
});
