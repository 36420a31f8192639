// Free text written in the back office holds no control characters (docs/api.md, "Conventions"): a NUL
// in a complaint's summary once reached the table's CHECK (SQLite's length() stops at a NUL) and
// answered 500. Each route that takes such text refuses it with 422 VALIDATION_FAILED and stores nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { trader } from '../helpers/trading.js';

let t: TestApp;
let inv: string;
beforeAll(async () => {
  t = await makeApp();
  inv = await trader(t, 0);
});
afterAll(() => t.close());

const count = (table: string) => t.deps.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
const BAD = ['\u0000\u0000\u0000', 'fine\u0000then NUL', 'bell\u0007', 'escape \u001b[31m red', 'del\u007f'];

describe('a control character in back-office free text is 422 VALIDATION_FAILED, never 500, and nothing is stored', () => {
  for (const bad of BAD) {
    it(`a complaint's summary ${JSON.stringify(bad)}`, async () => {
      const before = count('complaints');
      const res = await t.req('POST', '/admin/complaints', {
        body: { investor_id: inv, category: 'fees', summary: bad },
      });
      expect([res.status, res.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
      expect(res.body.error.message).toContain('summary');
      expect(count('complaints')).toBe(before);
    });
  }

  it("a proposal's reason with a NUL", async () => {
    const before = count('admin_actions');
    const res = await t.req('POST', '/admin/actions', {
      as: 'security',
      body: { action: 'broker:create', params: {}, reason: 'because\u0000' },
    });
    expect([res.status, res.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(count('admin_actions')).toBe(before);
  });

  it("a complaint's transition note with a NUL; tab and line feed are fine", async () => {
    const made = await t.req('POST', '/admin/complaints', {
      body: { investor_id: inv, category: 'fees', summary: 'line one\n\tline two' },
    });
    expect(made.status).toBe(201);
    expect(made.body.summary).toBe('line one\n\tline two');
    const id = made.body.complaint_id;
    const moved = await t.req('POST', `/admin/complaints/${id}/transitions`, {
      body: { to: 'investigating', note: 'x\u0000' },
    });
    expect([moved.status, moved.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect((await t.req('GET', `/admin/complaints/${id}`)).body.state).toBe('received');
  });
});
