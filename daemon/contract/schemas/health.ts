// GET /healthz: liveness, and which sandbox this daemon is. The CLI reads `sandbox_id` before it sends
// anything, so a command never acts on another home's daemon that happens to own the port
// (daemon/contract/home-files.ts says what the id is). Served outside the route list, so this schema is
// not in the global registry: daemon/http/openapi.ts documents it as the `Health` component.
import { z } from 'zod';
import { timestamp } from './formats.js';

export const HealthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  sim_time: timestamp(),
  /** The home's sandbox id; null for an app built without a home (in-process tests). */
  sandbox_id: z.string().nullable(),
});

export type Health = z.infer<typeof HealthSchema>;
