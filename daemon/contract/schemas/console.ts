// Wire schemas of the console's enrolment route and of the console's own session calls (/console/api/*:
// passkey enrolment, sign-in, step-up, sign-out; docs/console.md). The session calls are not part of the
// brokerage API; their answers are described here so that /openapi.json documents them and the answer
// checker (daemon/http/answer-check.ts) holds them to it.
import { z } from 'zod';
import { timestamp } from './formats.js';

export const CONSOLE_ENROL_ROLES = ['admin', 'dealer', 'security', 'approver', 'auditor', 'compliance'] as const;

export const EnrolmentBody = z.strictObject({
  role: z
    .enum(CONSOLE_ENROL_ROLES)
    .optional()
    .describe("enrol the sandbox's identity of this role (the first one created)"),
  identity_id: z.string().min(1).max(64).optional().describe('or name the identity (opr_...)'),
});

export const EnrolmentSchema = z
  .object({
    identity_id: z.string().describe('opr_...'),
    name: z.string(),
    role: z.string(),
    enrolment_token: z
      .string()
      .describe(
        'the one-time enrolment code (enr_...), shown once: open <console_url>/enroll?code=<enrolment_token> ' +
          'on localhost',
      ),
    expires_at: timestamp().describe('RFC 3339, wall clock (UTC)'),
  })
  .meta({ id: 'ConsoleEnrolment' });

export type Enrolment = z.infer<typeof EnrolmentSchema>;

/** A WebAuthn ceremony's options as @simplewebauthn/server makes them (its JSON form), handed to the browser. */
const CeremonyOptions = z
  .looseObject({ challenge: z.string() })
  .describe('WebAuthn options (JSON form): navigator.credentials.create() or .get() after decoding');

const ConsoleIdentity = z.object({ id: z.string().describe('opr_...'), name: z.string(), role: z.string() });

export const ConsoleEnrolOptionsSchema = z
  .object({ identity: ConsoleIdentity, options: CeremonyOptions })
  .meta({ id: 'ConsoleEnrolOptions' });

export const ConsoleEnrolledSchema = z
  .object({ enrolled: z.literal(true), identity: ConsoleIdentity, credential_id: z.string() })
  .meta({ id: 'ConsoleEnrolled' });

export const ConsoleCeremonyOptionsSchema = z
  .object({ options: CeremonyOptions })
  .meta({ id: 'ConsoleCeremonyOptions' });

export const ConsoleSignedInSchema = z
  .object({ signed_in: z.literal(true), session_id: z.string() })
  .meta({ id: 'ConsoleSignedIn' });

export const ConsoleSessionSchema = z
  .object({
    identity: ConsoleIdentity.extend({ realm: z.enum(['admin', 'console']), broker_id: z.string().nullable() }),
    session_id: z.string(),
    stepped_up: z.boolean(),
    csrf_token: z.string(),
    grants: z.array(z.object({ grant: z.string(), scopes: z.array(z.string()) })),
  })
  .meta({ id: 'ConsoleSignedInAs' });

export const ConsoleSteppedUpSchema = z.object({ stepped_up: z.literal(true) }).meta({ id: 'ConsoleSteppedUp' });

export const ConsoleSignedOutSchema = z.object({ signed_out: z.literal(true) }).meta({ id: 'ConsoleSignedOut' });

/** The console's session calls and their answers (registered by daemon/console/routes.ts). */
export const CONSOLE_API_ANSWERS = {
  'POST /console/api/enroll/options': ConsoleEnrolOptionsSchema,
  'POST /console/api/enroll/verify': ConsoleEnrolledSchema,
  'POST /console/api/login/options': ConsoleCeremonyOptionsSchema,
  'POST /console/api/login/verify': ConsoleSignedInSchema,
  'GET /console/api/me': ConsoleSessionSchema,
  'POST /console/api/step-up/options': ConsoleCeremonyOptionsSchema,
  'POST /console/api/step-up/verify': ConsoleSteppedUpSchema,
  'POST /console/api/logout': ConsoleSignedOutSchema,
} as const satisfies Record<string, z.ZodType>;
