// The CLI reads GET /healthz by hand (cli/healthz.ts, healthOf), not through the zod schema: it must accept
// exactly what the schema accepts, or it would take another program on the port for a sandbox.
import { describe, expect, it } from 'vitest';
import { healthOf } from '../../cli/healthz.js';
import { HealthSchema } from '../../daemon/contract/schemas/health.js';

const GOOD = { status: 'ok', version: '0.1.0', sim_time: '2026-11-22T09:00:00+02:00', sandbox_id: 'sbx_1' };

const CASES: unknown[] = [
  GOOD,
  { ...GOOD, sandbox_id: null },
  { status: 'ok', version: '0.1.0', sim_time: '2026-11-22T07:00:00.123Z' },
  { ...GOOD, status: 'OK' },
  { ...GOOD, version: 1 },
  { ...GOOD, sim_time: '2026-11-22 09:00:00' },
  { ...GOOD, sim_time: '2026-11-22' },
  { ...GOOD, sandbox_id: 42 },
  { status: 'ok', version: '0.1.0' },
  null,
  'ok',
  [GOOD],
];

describe('the CLI reads a /healthz answer as the daemon’s schema does', () => {
  it.each(CASES.map((c) => [JSON.stringify(c), c]))('%s', (_name, body) => {
    const parsed = HealthSchema.safeParse(
      body !== null && typeof body === 'object' && !Array.isArray(body) ? { sandbox_id: null, ...body } : body,
    );
    expect(healthOf(body)).toEqual(parsed.success ? parsed.data : null);
  });

  it('an older daemon’s answer without a sandbox id reads with a null id', () => {
    const { sandbox_id: _id, ...older } = GOOD;
    expect(healthOf(older)).toEqual({ ...older, sandbox_id: null });
  });
});
