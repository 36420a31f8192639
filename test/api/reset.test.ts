// What a sandbox reset keeps, and that ids made after it never collide with the ids it kept.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { seedInvestor } from '../helpers/investors.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

async function reset(app: TestApp, body: Record<string, unknown> = {}): Promise<void> {
  const r = await app.req('POST', '/admin/sandbox/reset', { body });
  expect(r.status).toBe(200);
}

/** The prefixes the id generator has issued (its counters), with how far each has counted. */
function counters(app: TestApp): Map<string, number> {
  const rows = app.deps.db.prepare<[], { prefix: string; next: number }>('SELECT prefix, next FROM id_seq').all();
  return new Map(rows.map((r) => [r.prefix, r.next]));
}

/** Every text primary key in the database, by the prefix before its first underscore. */
function primaryKeysByPrefix(app: TestApp): Map<string, string[]> {
  const db = app.deps.db;
  const out = new Map<string, string[]>();
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all();
  for (const { name } of tables) {
    const pks = db
      .prepare<[], { name: string; type: string; pk: number }>(`PRAGMA table_info("${name}")`)
      .all()
      .filter((c) => c.pk > 0 && c.type === 'TEXT');
    for (const col of pks) {
      for (const v of db.prepare(`SELECT "${col.name}" FROM "${name}"`).pluck().all() as string[]) {
        const prefix = /^([a-z]+)_/.exec(v)?.[1];
        if (prefix) out.set(prefix, [...(out.get(prefix) ?? []), v]);
      }
    }
  }
  return out;
}

describe('POST /admin/sandbox/reset keeps tenants and operators, and the ids made after it never repeat theirs', () => {
  it('a tenant provisioned after a reset is created (201) under a new id, and so after a reset to another seed', async () => {
    const before = await t.req('POST', '/admin/tenants', { body: { name: 'before reset' } });
    expect(before.status).toBe(201);
    await reset(t);
    const after = await t.req('POST', '/admin/tenants', { body: { name: 'after reset' } });
    expect(after.status).toBe(201);
    await reset(t, { seed: 7 });
    const afterSeed = await t.req('POST', '/admin/tenants', { body: { name: 'after reset to seed 7' } });
    expect(afterSeed.status).toBe(201);
    const ids = [t.creds.tenant.tenant_id, before.body.tenant_id, after.body.tenant_id, afterSeed.body.tenant_id];
    expect(new Set(ids).size).toBe(4);
    const clock = await t.req('GET', '/v1/clock', {
      as: 'none',
      headers: { authorization: `Bearer ${after.body.api_key}` },
    });
    expect(clock.status).toBe(200);
  });

  it('every id a kept table holds stays counted: each issued prefix with surviving rows keeps its counter at least at their number', async () => {
    const app = await makeApp({ seed: 5 });
    try {
      await app.req('POST', '/admin/tenants', { body: { name: 'kept' } });
      const issued = new Set(counters(app).keys());
      await reset(app);
      const left = counters(app);
      for (const [prefix, values] of primaryKeysByPrefix(app)) {
        if (!issued.has(prefix)) continue; // fixture ids (brokers), not the generator's
        expect(left.get(prefix) ?? 0, `counter of ${prefix}`).toBeGreaterThanOrEqual(new Set(values).size);
      }
      // the simulation's counters restart: a reset sandbox numbers like a fresh one
      expect([...left.keys()].sort()).toEqual(['opr', 'tnt']);
    } finally {
      await app.close();
    }
  });

  it('stays deterministic: the same seed and the same requests give the same tenant ids, across resets', async () => {
    const run = async () => {
      const app = await makeApp({ seed: 9 });
      try {
        const ids: string[] = [];
        ids.push((await app.req('POST', '/admin/tenants', { body: { name: 'one' } })).body.tenant_id);
        await reset(app);
        ids.push((await app.req('POST', '/admin/tenants', { body: { name: 'two' } })).body.tenant_id);
        await reset(app, { seed: 3 });
        ids.push((await app.req('POST', '/admin/tenants', { body: { name: 'three' } })).body.tenant_id);
        return ids;
      } finally {
        await app.close();
      }
    };
    const first = await run();
    expect(first.every((id) => /^tnt_[0-9a-z]{10}$/.test(id))).toBe(true);
    expect(await run()).toEqual(first);
  });
});

describe("a reset keeps each tenant's branding (configuration, like its keys) and wipes its reports (data)", () => {
  it('the theme and the logo answer the same after a reset, and a report asked for before it is 404', async () => {
    const app = await makeApp({ seed: 13 });
    try {
      const theme = {
        display_name: 'Nile Wealth',
        primary_color: '#0A2B4C',
        accent_color: '#D4AF37',
        font: 'Noto Sans',
        footer_text: 'Regulated by the FRA.',
      };
      expect((await app.req('PUT', '/v1/branding', { body: theme })).status).toBe(200);
      const logo = readFileSync('fixtures/documents/national_id_front.png');
      expect((await app.req('PUT', '/v1/branding/logo', { raw: logo, contentType: 'image/png' })).status).toBe(200);
      const before = (await app.req('GET', '/v1/branding')).body;
      const inv = seedInvestor(app);
      const today = String((await app.req('GET', '/v1/clock')).body.timestamp).slice(0, 10);
      const report = await app.req('POST', '/v1/reports', {
        body: { investor_id: inv, type: 'client_statement', period_start: today, period_end: today },
      });
      expect(report.status, report.text).toBe(201);

      await reset(app, { seed: 14 });

      const after = await app.req('GET', '/v1/branding');
      expect(after.status).toBe(200);
      expect(after.body).toEqual(before);
      expect(after.body).toMatchObject(theme);
      const served = await app.req('GET', '/v1/branding/logo');
      expect(served.status).toBe(200);
      expect(
        (
          await app.app.inject({
            method: 'GET',
            url: '/v1/branding/logo',
            headers: { authorization: `Bearer ${app.creds.tenant.api_key}` },
          })
        ).rawPayload.equals(logo),
      ).toBe(true);
      const gone = await app.req('GET', `/v1/reports/${report.body.report_id}`);
      expect(gone.status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
