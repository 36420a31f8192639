// The scenario file format (docs/scenarios.md), as zod schemas: the file's header, the four step kinds
// (request, advance, control, wait_until) and the assertions (`expect`). The loader picks a step's kind
// from its keys first, so an unknown or doubled kind gets its own message, then validates the step with
// the schema of that kind.
import { AI_PROVIDER_USAGE, parseAiProvider } from '../../daemon/contract/ai-provider.js';
import { z } from 'zod';

export const STEP_KINDS = ['request', 'advance', 'control', 'wait_until'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** The key of a step that stands for the steps of another file (docs/scenarios.md, "include"). */
export const INCLUDE_KEY = 'include';

/** Keys every step may carry besides its kind. */
export const COMMON_STEP_KEYS = ['name', 'expect'] as const;

/** The sandbox controls a `control:` step may name: POST /admin/sandbox/<name>. `auto_fill` is accepted for
 * `auto-fill`. */
export const CONTROLS = [
  'quote',
  'halt',
  'auto-fill',
  'manual-funding',
  'clock',
  'clock-advance',
  'reset',
  'nav',
  'declare-dividend',
  'inject-break',
] as const;

export const IDENTITIES = ['tenant', 'admin', 'dealer', 'security', 'approver', 'none'] as const;

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const RFC3339_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export const StepName = z
  .string()
  .regex(
    NAME_RE,
    'a step name is letters, digits, _ and - (starting with a letter or _), so that ${name.field} can refer to it',
  )
  .refine((n) => n !== 'env', '"env" is reserved for ${env.VAR}')
  .refine((n) => n !== 'unique', '"unique" is reserved for ${unique.KIND}');

// ---- matchers -------------------------------------------------------------------------------------

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists', 'matches', 'one_of', 'length'] as const;

export type Literal = string | number | boolean | null | Literal[] | { [k: string]: Literal };

export interface OperatorMatcher {
  eq?: unknown;
  ne?: unknown;
  gt?: number | string;
  gte?: number | string;
  lt?: number | string;
  lte?: number | string;
  exists?: boolean;
  matches?: string;
  one_of?: unknown[];
  length?: number | OperatorMatcher;
}

/** A scalar, null or a list: equal to it. A mapping: operators, all of which must hold. */
export type Matcher = string | number | boolean | null | unknown[] | OperatorMatcher;

const comparable = z.union([z.number(), z.string()]);

export const OperatorMatcherSchema: z.ZodType<OperatorMatcher> = z.lazy(() =>
  z
    .strictObject({
      eq: z.unknown().optional(),
      ne: z.unknown().optional(),
      gt: comparable.optional(),
      gte: comparable.optional(),
      lt: comparable.optional(),
      lte: comparable.optional(),
      exists: z.boolean().optional(),
      matches: z
        .string()
        .refine((src) => {
          try {
            new RegExp(src);
            return true;
          } catch {
            return false;
          }
        }, 'not a valid regular expression')
        .optional(),
      one_of: z.array(z.unknown()).min(1).optional(),
      length: z.union([z.int().min(0), OperatorMatcherSchema]).optional(),
    })
    .refine(
      (m) => Object.keys(m).length > 0,
      `a matcher mapping needs at least one of ${OPERATORS.join(', ')} (compare a whole object with eq:)`,
    ),
);

export const MatcherSchema: z.ZodType<Matcher> = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  OperatorMatcherSchema,
]);

export const ExpectSchema = z.strictObject({
  status: z.union([z.int().min(100).max(599), z.array(z.int().min(100).max(599)).min(1)]).optional(),
  error: z.string().min(1).optional(),
  fields: z.record(z.string().min(1), MatcherSchema).optional(),
  headers: z.record(z.string().min(1), MatcherSchema).optional(),
  /** The whole body (e.g. `body: ${first.body}` for a replay). */
  body: MatcherSchema.optional(),
});
export type Expect = z.infer<typeof ExpectSchema>;

// ---- step kinds ------------------------------------------------------------------------------------

export const RequestSchema = z
  .strictObject({
    method: z
      .string()
      .transform((m) => m.toUpperCase())
      .pipe(z.enum(METHODS, { error: `must be one of ${METHODS.join(', ')}` })),
    path: z.string().startsWith('/', "must start with / (the base URL is the sandbox's)"),
    body: z.unknown().optional(),
    body_file: z.string().min(1).optional(),
    content_type: z.string().min(1).optional(),
    headers: z.record(z.string().min(1), z.union([z.string(), z.number(), z.null()])).optional(),
    as: z.enum(IDENTITIES, { error: `must be one of ${IDENTITIES.join(', ')}` }).optional(),
    idempotency_key: z.union([z.string().min(1), z.number()]).optional(),
  })
  .refine((r) => !(r.body !== undefined && r.body_file !== undefined), 'send either body or body_file, not both');
export type RequestSpec = z.infer<typeof RequestSchema>;

/** A whole value taken from a capture or env at run time: `${env.MINUTES}`. */
const Ref = z.string().regex(/^\$\{[^}]+\}$/, 'a number, or one ${...} reference');
const positive = z.union([z.number().positive().finite(), Ref]);
const AdvanceObject = z
  .strictObject({
    minutes: positive.optional(),
    hours: positive.optional(),
    days: positive.optional(),
    until: z.string().min(1).optional(),
  })
  .refine(
    (a) => [a.minutes, a.hours, a.days, a.until].filter((v) => v !== undefined).length === 1,
    'advance takes exactly one of minutes, hours, days, until',
  );
/** `advance: next_open` is short for `advance: { until: next_open }`. */
export const AdvanceSchema = z.union([
  z
    .string()
    .min(1)
    .transform((until) => ({ until })),
  AdvanceObject,
]);
export type AdvanceSpec = z.infer<typeof AdvanceObject>;

export const ControlSchema = z
  .record(z.string(), z.union([z.record(z.string(), z.unknown()), z.null()]))
  .refine((c) => Object.keys(c).length === 1, `control names exactly one sandbox control (${CONTROLS.join(', ')})`)
  .superRefine((c, ctx) => {
    for (const key of Object.keys(c)) {
      if (!(CONTROLS as readonly string[]).includes(key.replace(/_/g, '-'))) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `unknown sandbox control "${key}"; one of ${CONTROLS.join(', ')}`,
        });
      }
    }
  });

export const WaitUntilSchema = z
  .strictObject({
    request: RequestSchema,
    status: z.int().min(100).max(599).optional(),
    fields: z.record(z.string().min(1), MatcherSchema).optional(),
    advance: AdvanceSchema.optional(),
    max_tries: z.int().min(1).max(10_000).default(10),
    interval_ms: z.int().min(0).max(60_000).optional(),
  })
  .refine(
    (w) => w.status !== undefined || (w.fields !== undefined && Object.keys(w.fields).length > 0),
    'wait_until needs fields (or a status) to wait for',
  );

const common = { name: StepName.optional(), expect: ExpectSchema.optional() };

export const STEP_SCHEMAS = {
  request: z.strictObject({ ...common, request: RequestSchema }),
  advance: z.strictObject({ ...common, advance: AdvanceSchema }),
  control: z.strictObject({ ...common, control: ControlSchema }),
  wait_until: z.strictObject({ ...common, wait_until: WaitUntilSchema }),
} as const;

export type RequestStep = z.infer<(typeof STEP_SCHEMAS)['request']>;
export type AdvanceStep = z.infer<(typeof STEP_SCHEMAS)['advance']>;
export type ControlStep = z.infer<(typeof STEP_SCHEMAS)['control']>;
export type WaitUntilStep = z.infer<(typeof STEP_SCHEMAS)['wait_until']>;

export type Step =
  | ({ kind: 'request' } & RequestStep)
  | ({ kind: 'advance' } & AdvanceStep)
  | ({ kind: 'control' } & ControlStep)
  | ({ kind: 'wait_until' } & WaitUntilStep);

// ---- the file --------------------------------------------------------------------------------------

export const HeaderSchema = z.strictObject({
  name: z.string().trim().min(1),
  description: z.string().trim().optional(),
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1),
  start: z
    .string()
    .regex(RFC3339_RE, {
      error: 'must be an RFC 3339 timestamp with an offset, e.g. 2026-11-22T09:00:00+02:00',
      abort: true,
    })
    .refine((s) => !Number.isNaN(Date.parse(s)), 'is not a real instant'),
  clock: z.enum(['frozen', 'running'], { error: 'must be frozen or running' }).default('frozen'),
  speed: z.number().positive().max(10_000).optional(),
  ai: z
    .string()
    .refine((v) => parseAiProvider(v) !== null, { error: `must be ${AI_PROVIDER_USAGE}` })
    .optional(),
  env: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an env name is letters, digits and _'),
      z.union([z.string(), z.number(), z.boolean()]),
    )
    .optional(),
  // fault rules added before the first step, as POST /admin/sandbox/faults takes them (docs/faults.md)
  faults: z.array(z.record(z.string(), z.unknown())).optional(),
  // checked after the last step against GET /admin/sandbox/faults/report
  expect_report: z
    .strictObject({ findings: z.int().min(0).optional(), faults_fired: z.int().min(0).optional() })
    .optional(),
  steps: z.array(z.unknown()).min(1, 'a scenario needs at least one step'),
});
export type Header = z.infer<typeof HeaderSchema>;
