// Hostile input on the identity routes of the back office (console sessions, operator keys, access
// reviews), in a world of their own: a rotated or revoked key there must not starve the main fuzz run
// (test/security/fuzz.test.ts, which covers them too, in its share) of the identities it uses. The
// world has a console session and an open access review, so the generators know real session, item,
// campaign and identity ids. The same checks: no 5xx, spec-shaped errors with registered codes, no
// refused request changes any table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FUZZ_WALL,
  bootstrapKeysAnswer,
  buildFuzzWorld,
  formatStats,
  fuzzOperations,
  fuzzSeed,
  type FuzzWorld,
} from '../helpers/fuzz-world.js';
import { openSession } from '../../daemon/backoffice/sessions.js';

const IDENTITY_ROUTES = /^\/admin\/(sessions|keys|access-review)/;

let world: FuzzWorld;
beforeAll(async () => {
  world = await buildFuzzWorld();
  const t = world.t;
  const dealer = t.deps.db.prepare("SELECT id FROM operators WHERE name = 'dealer'").pluck().get() as string;
  openSession(t.deps, dealer, FUZZ_WALL);
  const review = await t.req('POST', '/admin/access-reviews', { as: 'compliance', body: {} });
  expect(review.status).toBe(201);
  for (const path of ['/admin/sessions', '/admin/access-reviews', '/admin/access-review']) {
    world.pools.harvest((await t.req('GET', path, { as: 'security' })).body);
  }
}, 120_000);
afterAll(() => world?.t.close());

describe('fuzzing the identity routes', () => {
  it('2,000 requests: no 5xx, spec-shaped errors with registered codes, no state change on refusal', async () => {
    const ops = world.ops.filter((op) => IDENTITY_ROUTES.test(op.path));
    expect(ops.map((o) => o.key).sort()).toEqual(
      expect.arrayContaining([
        'GET /admin/sessions',
        'POST /admin/sessions/revoke',
        'POST /admin/keys/rotate',
        'POST /admin/keys/revoke',
        'GET /admin/access-review',
        'POST /admin/access-reviews',
        'GET /admin/access-reviews',
        'POST /admin/access-reviews/{id}/decisions',
      ]),
    );
    const seed = fuzzSeed();
    const stats = await fuzzOperations(world, ops, { totalRuns: 2_000, seed });
    console.log(formatStats(stats, seed, ops.length));
    expect(stats.requests).toBeGreaterThanOrEqual(2_000);
    expect(stats.accepted).toBeGreaterThan(0);
    // The key routes got throwaway identities: every key the run authenticates with still works.
    expect(await bootstrapKeysAnswer(world)).toEqual({
      admin: 200,
      security: 200,
      approver: 200,
      compliance: 200,
      auditor: 200,
      dealer: 200,
    });
  }, 180_000);
});
