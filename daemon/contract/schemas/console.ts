// Wire schemas of the console's enrolment route (docs/console.md). The console's own session calls
// (/console/api/*) are not part of the brokerage API and have no schemas here.
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
