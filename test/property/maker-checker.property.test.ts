// Random sequences of proposals, approvals, rejections, grant revocations and clock advances across
// identities, through the real API: a naive model predicts every decision's outcome, and after each
// run no action was executed without two distinct identities holding the right grants (every
// approved proposal has maker != checker, and exactly the approved broker:create proposals added a
// broker). Each run prints its fast-check seed; FC_SEED=<seed> replays it (test/helpers/fc.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcParams } from '../helpers/fc.js';
import { addOperator, advance, makeApp, type TestApp } from '../helpers/app.js';

const WHO = ['security', 'approver', 'both', 'reader'] as const;
type Who = (typeof WHO)[number];

type Cmd =
  | { kind: 'propose'; who: Who }
  | { kind: 'approve' | 'reject'; who: Who; pick: number }
  | { kind: 'revoke'; who: Who }
  | { kind: 'advance'; hours: number };

const who = fc.constantFrom(...WHO);
const command: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('propose' as const), who }) },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constantFrom('approve' as const, 'reject' as const), who, pick: fc.nat(6) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), who }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), hours: fc.constantFrom(1, 12, 25) }) },
);

interface Model {
  proposals: Array<{ id: string; maker: Who; state: 'proposed' | 'approved' | 'rejected'; bornH: number }>;
  canPropose: Set<Who>;
  canApprove: Set<Who>;
  hours: number;
  licence: number;
}

async function world(): Promise<{ t: TestApp; keys: Record<Who, string> }> {
  const t = await makeApp();
  const both = addOperator(t, 'both', {
    realm: 'admin',
    grants: ['actions:read', 'broker:create:propose', 'broker:create:approve'],
    scope: 'global',
  });
  const reader = addOperator(t, 'reader', { realm: 'admin', grants: ['actions:read'], scope: 'global' });
  return {
    t,
    keys: { security: t.creds.operators.security_key, approver: t.creds.operators.approver_key, both, reader },
  };
}

async function run(t: TestApp, keys: Record<Who, string>, m: Model, c: Cmd): Promise<void> {
  const as = { as: 'none' as const, headers: { 'x-admin-key': keys[c.kind === 'advance' ? 'security' : c.who] } };
  if (c.kind === 'advance') {
    await advance(t, { hours: c.hours });
    m.hours += c.hours;
  } else if (c.kind === 'revoke') {
    t.deps.db
      .prepare(
        'DELETE FROM operator_grants WHERE operator_id = (SELECT id FROM operators WHERE name = ?) AND ' +
          "grant_name IN ('broker:create:propose', 'broker:create:approve')",
      )
      .run(c.who);
    m.canPropose.delete(c.who);
    m.canApprove.delete(c.who);
  } else if (c.kind === 'propose') {
    const n = ++m.licence;
    const res = await t.req('POST', '/admin/actions', {
      ...as,
      body: {
        action: 'broker:create',
        reason: 'onboard',
        params: {
          name: `B${n}`,
          name_ar: 'ب',
          fra_license_no: `${n}/2026`,
          contact_email: 'a@b.example',
          contact_phone: '+2021234567',
        },
      },
    });
    expect(res.status, res.text).toBe(m.canPropose.has(c.who) ? 201 : 403);
    if (res.status === 201)
      m.proposals.push({ id: res.body.action_id, maker: c.who, state: 'proposed', bornH: m.hours });
  } else {
    const p = m.proposals[c.pick % Math.max(1, m.proposals.length)];
    if (!p) return;
    const res = await t.req('POST', `/admin/actions/${p.id}/${c.kind}`, {
      ...as,
      body: c.kind === 'reject' ? { reason: 'no' } : {},
    });
    const expectOk = m.canApprove.has(c.who) && p.maker !== c.who && p.state === 'proposed' && m.hours - p.bornH < 24;
    expect(res.status === 200, `${c.who} ${c.kind} ${p.id}: ${res.text}`).toBe(expectOk);
    if (expectOk) p.state = c.kind === 'approve' ? 'approved' : 'rejected';
  }
}

describe('maker-checker under random sequences', () => {
  it('no action executes without two distinct identities holding the right grants', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 4, maxLength: 14 }), async (cmds) => {
        const { t, keys } = await world();
        try {
          const m: Model = {
            proposals: [],
            canPropose: new Set(['security', 'both']),
            canApprove: new Set(['approver', 'both']),
            hours: 0,
            licence: 0,
          };
          for (const c of cmds) await run(t, keys, m, c);
          const rows = t.deps.db
            .prepare("SELECT maker, checker, state FROM admin_actions WHERE state = 'approved'")
            .all() as Array<{ maker: string; checker: string }>;
          for (const r of rows) expect(r.checker).not.toBe(r.maker);
          expect(rows.length).toBe(m.proposals.filter((p) => p.state === 'approved').length);
          const brokers = (
            t.deps.db.prepare("SELECT count(*) AS n FROM brokers WHERE name GLOB 'B[0-9]*'").get() as { n: number }
          ).n;
          expect(brokers).toBe(rows.length);
        } finally {
          await t.close();
        }
      }),
      fcParams({ numRuns: 12 }),
    );
  }, 300_000);
});
