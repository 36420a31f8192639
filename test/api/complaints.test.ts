// The complaints register through the API (docs/complaints.md): received -> investigating ->
// resolved | rejected one step at a time, a response due 15 EGX business days after receipt
// (weekends and exchange holidays do not count), overdue complaints flagged, every change audited.
import { afterEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { trader } from '../helpers/trading.js';

let t: TestApp;
afterEach(async () => t?.close());

const create = (body: Record<string, unknown>) => t.req('POST', '/admin/complaints', { body });
const get = async (id: string) => (await t.req('GET', `/admin/complaints/${id}`)).body;
const move = (id: string, body: Record<string, unknown>) =>
  t.req('POST', `/admin/complaints/${id}/transitions`, { body });
const auditCount = () => t.deps.db.prepare('SELECT COUNT(*) FROM audit_log').pluck().get() as number;

async function complaintAt(start: string): Promise<{ id: string; inv: string; body: any }> {
  t = await makeApp({ start });
  const inv = await trader(t, 0);
  const res = await create({
    investor_id: inv,
    category: 'execution',
    channel: 'phone',
    summary: 'My order filled above the price I saw.',
  });
  expect(res.status).toBe(201);
  return { id: res.body.complaint_id, inv, body: res.body };
}

describe('recording a complaint', () => {
  it('answers it received, with its due date, its history and an audit entry', async () => {
    const { id, inv, body } = await complaintAt('2026-11-22T11:00:00+02:00');
    expect(id).toMatch(/^cmp_/);
    expect(body).toMatchObject({
      investor_id: inv,
      tenant_id: t.creds.tenant.tenant_id,
      category: 'execution',
      channel: 'phone',
      state: 'received',
      received_at: '2026-11-22T11:00:00+02:00',
      due_date: '2026-12-13',
      overdue: false,
      resolution_note: null,
      closed_at: null,
      history: [{ from: null, to: 'received', actor: 'operator:admin', note: null, at: '2026-11-22T11:00:00+02:00' }],
    });
    expect(await get(id)).toEqual(body);
    const entry = ((await t.req('GET', '/admin/audit?limit=50')).body.entries as any[]).find(
      (e) => e.action === 'complaint.received',
    );
    expect(entry).toMatchObject({ subject: id, tenant_id: t.creds.tenant.tenant_id });
    expect(JSON.parse(entry.detail)).toMatchObject({ investor_id: inv, due_date: '2026-12-13' });
  });

  it('an unknown investor is 404 NOT_FOUND, a bad category or an empty summary 422 VALIDATION_FAILED; nothing is stored', async () => {
    t = await makeApp();
    const inv = await trader(t, 0);
    const unknown = await create({ investor_id: 'inv_nobody', category: 'fees', summary: 'x' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    for (const body of [
      { investor_id: inv, category: 'rudeness', summary: 'x' },
      { investor_id: inv, category: 'fees', summary: '  ' },
      { investor_id: inv, category: 'fees', summary: 'x', extra: 1 },
    ]) {
      expect((await create(body)).body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await t.req('GET', '/admin/complaints')).body.complaints).toEqual([]);
    expect((await t.req('GET', '/admin/complaints/cmp_nope')).status).toBe(404);
  });
});

describe('the response due date: 15 EGX business days after receipt', () => {
  it('across the 8 Oct 2026 holiday: received Thursday 1 Oct, due Sunday 25 Oct (one day later than without the holiday)', async () => {
    const { body } = await complaintAt('2026-10-01T11:00:00+02:00');
    expect(body.due_date).toBe('2026-10-25');
    expect(t.deps.market.calendar.isTradingDay('2026-10-08')).toBe(false);
  });

  it('received on a Friday counts from the next business day: Friday 2 Oct is due Monday 26 Oct', async () => {
    const { body } = await complaintAt('2026-10-02T11:00:00+02:00');
    expect(body.due_date).toBe('2026-10-26');
  });

  it('is overdue only after the due date, and only while received or investigating', async () => {
    const { id } = await complaintAt('2026-10-01T11:00:00+02:00');
    const inv = (await get(id)).investor_id;
    const other = (await create({ investor_id: inv, category: 'fees', summary: 'Commission looks high.' })).body
      .complaint_id;
    await move(other, { to: 'investigating' });
    await move(other, { to: 'resolved', note: 'Commission matches the schedule; explained to the client.' });
    // Cairo keeps summer time (+03:00) until the last Thursday of October.
    await advance(t, { until: '2026-10-25T23:59:00+03:00' });
    expect((await get(id)).overdue).toBe(false);
    expect((await t.req('GET', '/admin/complaints?overdue=true')).body.complaints).toEqual([]);
    await advance(t, { until: '2026-10-26T00:00:00+03:00' });
    expect((await get(id)).overdue).toBe(true);
    expect((await get(other)).overdue).toBe(false);
    expect(
      (await t.req('GET', '/admin/complaints?overdue=true')).body.complaints.map((c: any) => c.complaint_id),
    ).toEqual([id]);
    expect(
      (await t.req('GET', '/admin/complaints?overdue=false')).body.complaints.map((c: any) => c.complaint_id),
    ).toEqual([other]);
    await move(id, { to: 'investigating' });
    expect((await get(id)).overdue).toBe(true);
  });
});

describe('transitions: received -> investigating -> resolved | rejected, one step at a time', () => {
  it('a skipped step, a step back or a move out of a final state is 409 COMPLAINT_TRANSITION_INVALID and changes nothing', async () => {
    const { id } = await complaintAt('2026-11-22T11:00:00+02:00');
    const before = await get(id);
    const audits = auditCount();
    for (const to of ['resolved', 'rejected', 'received']) {
      const r = await move(id, { to, note: 'skip' });
      expect([r.status, r.body.error.code], to).toEqual([409, 'COMPLAINT_TRANSITION_INVALID']);
      expect(r.body.error.message).toContain('investigating');
    }
    expect(await get(id)).toEqual(before);
    expect(auditCount()).toBe(audits);
    expect((await move(id, { to: 'investigating' })).body).toMatchObject({ state: 'investigating', overdue: false });
    for (const to of ['received', 'investigating']) {
      expect((await move(id, { to })).body.error.code, to).toBe('COMPLAINT_TRANSITION_INVALID');
    }
    const resolved = await move(id, { to: 'resolved', note: 'Price was the fill price at 10:05; explained.' });
    expect(resolved.body).toMatchObject({
      state: 'resolved',
      resolution_note: 'Price was the fill price at 10:05; explained.',
      closed_at: '2026-11-22T11:00:00+02:00',
    });
    for (const to of ['received', 'investigating', 'resolved', 'rejected']) {
      const r = await move(id, { to, note: 'again' });
      expect([r.status, r.body.error.code], to).toEqual([409, 'COMPLAINT_TRANSITION_INVALID']);
      expect(r.body.error.message).toContain('final');
    }
    expect(await get(id)).toEqual(resolved.body);
  });

  it('resolving or rejecting without a note is 422 COMPLAINT_NOTE_REQUIRED and changes nothing; rejecting with one closes it', async () => {
    const { id } = await complaintAt('2026-11-22T11:00:00+02:00');
    await move(id, { to: 'investigating' });
    const before = await get(id);
    for (const body of [{ to: 'resolved' }, { to: 'rejected' }, { to: 'rejected', note: '   ' }]) {
      const r = await move(id, body);
      expect([r.status, r.body.error.code]).toEqual([422, 'COMPLAINT_NOTE_REQUIRED']);
    }
    expect(await get(id)).toEqual(before);
    expect((await move(id, { to: 'closed' })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await move('cmp_nope', { to: 'investigating' })).body.error.code).toBe('NOT_FOUND');
    expect((await move(id, { to: 'rejected', note: 'Not a complaint about the broker.' })).body).toMatchObject({
      state: 'rejected',
      resolution_note: 'Not a complaint about the broker.',
    });
  });

  it('every change is in the history and in the audit chain, which still verifies', async () => {
    const { id } = await complaintAt('2026-11-22T11:00:00+02:00');
    await advance(t, { minutes: 30 });
    await move(id, { to: 'investigating', note: 'Pulled the fills.' });
    await advance(t, { minutes: 30 });
    await move(id, { to: 'resolved', note: 'Explained.' });
    expect((await get(id)).history).toEqual([
      { from: null, to: 'received', actor: 'operator:admin', note: null, at: '2026-11-22T11:00:00+02:00' },
      {
        from: 'received',
        to: 'investigating',
        actor: 'operator:admin',
        note: 'Pulled the fills.',
        at: '2026-11-22T11:30:00+02:00',
      },
      {
        from: 'investigating',
        to: 'resolved',
        actor: 'operator:admin',
        note: 'Explained.',
        at: '2026-11-22T12:00:00+02:00',
      },
    ]);
    const entries = ((await t.req('GET', '/admin/audit?limit=100')).body.entries as any[])
      .filter((e) => e.subject === id)
      .reverse();
    expect(entries.map((e) => [e.action, JSON.parse(e.detail).to ?? null])).toEqual([
      ['complaint.received', null],
      ['complaint.transitioned', 'investigating'],
      ['complaint.transitioned', 'resolved'],
    ]);
    expect((await t.req('GET', '/admin/audit/verify')).body.ok).toBe(true);
  });
});

describe('GET /admin/complaints filters', () => {
  it('by state, investor and tenant, oldest first', async () => {
    const { id, inv } = await complaintAt('2026-11-22T11:00:00+02:00');
    const inv2 = await trader(t, 0);
    const second = (
      await create({
        investor_id: inv2,
        category: 'statement',
        channel: 'email',
        summary: 'Statement missing a dividend.',
      })
    ).body.complaint_id;
    await move(second, { to: 'investigating' });
    const ids = async (q: string) =>
      (await t.req('GET', `/admin/complaints${q}`)).body.complaints.map((c: any) => c.complaint_id);
    expect(await ids('')).toEqual([id, second]);
    expect(await ids('?state=received')).toEqual([id]);
    expect(await ids('?state=investigating')).toEqual([second]);
    expect(await ids(`?investor_id=${inv}`)).toEqual([id]);
    expect(await ids(`?tenant_id=${t.creds.tenant.tenant_id}&limit=1`)).toEqual([id]);
    expect(await ids('?tenant_id=tnt_other')).toEqual([]);
  });
});
