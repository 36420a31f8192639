// svc sandbox replay compares bodies, not only statuses (docs/snapshots.md, "Replay"): the journal
// keeps every JSON answer, the replay compares the replayed body with it and names the first field
// that differs with both values; a secret shown once (a provisioned tenant's keys) is kept as
// "[secret]" and matches whatever the replay answers; a journal without recorded answers replays by
// status, and says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';

let a: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'svc-replay-bodies-'));
const journal = join(dir, 'a.ndjson');
let rows: any[];
let tenantKey = '';

beforeAll(async () => {
  a = await startSandbox(['--seed', '12']);
  for (const args of [
    ['clock', 'advance', '--until', 'next_open'],
    ['api', 'POST', '/admin/sandbox/quote', '-d', '{"symbol":"COMI","price_micros":85120000}'],
    ['api', 'POST', '/admin/sandbox/quote', '-d', '{"symbol":"COMI","price_micros":1}'],
  ])
    await a.svc([...args, '--json']);
  const t = await a.svc(['api', 'POST', '/admin/tenants', '-d', '{"name":"bodies-tenant"}', '--json']);
  expect(t.code, t.stderr).toBe(0);
  tenantKey = t.json.api_key;
  expect((await a.svc(['sandbox', 'journal', journal])).code).toBe(0);
  rows = readFileSync(journal, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
}, 120_000);

afterAll(async () => {
  await a?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const write = (name: string, lines: unknown[]) => {
  const f = join(dir, name);
  writeFileSync(f, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return f;
};

describe('the journal keeps each JSON answer', () => {
  it('every entry carries its answer; a refusal its error body; a provisioned tenant\'s keys read "[secret]"', () => {
    const entries = rows.slice(1);
    expect(entries.every((e) => typeof e.response === 'string')).toBe(true);
    const quote = entries.find((e) => e.body === '{"symbol":"COMI","price_micros":85120000}');
    expect(JSON.parse(quote.response)).toMatchObject({ price_micros: 85120000 });
    const refused = entries.find((e) => e.status === 422);
    expect(JSON.parse(refused.response).error.code).toMatch(/^PRICE_/);
    const tenant = JSON.parse(entries.find((e) => e.path === '/admin/tenants').response);
    expect(tenant).toMatchObject({ api_key: '[secret]', signing_secret: '[secret]' });
    expect(readFileSync(journal, 'utf8')).not.toContain(tenantKey);
  });
});

describe('svc sandbox replay compares bodies', () => {
  it('a faithful journal replays with every body compared and equal (the secrets match whatever the replay mints)', async () => {
    const r = await runSvc(['sandbox', 'replay', journal, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      entries: rows.length - 1,
      matched: rows.length - 1,
      bodies_compared: rows.length - 1,
      mismatched: [],
    });
  });

  it('a body that differs is reported with its first differing field and both values, even when the status is the same (exit 1)', async () => {
    const i = rows.findIndex((e) => e.body === '{"symbol":"COMI","price_micros":85120000}');
    const recorded = JSON.parse(rows[i].response);
    const tampered = [...rows];
    tampered[i] = { ...rows[i], response: JSON.stringify({ ...recorded, price_micros: 85130000 }) };
    const f = write('tampered.ndjson', tampered);
    const text = await runSvc(['sandbox', 'replay', f]);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('1 of 4 entries answered differently');
    expect(text.stderr).toContain(
      `tampered.ndjson:${i + 1} seq ${rows[i].seq} POST /admin/sandbox/quote: status 200; body.price_micros: ` +
        `recorded 85130000, replayed 85120000`,
    );
    const json = await runSvc(['sandbox', 'replay', f, '--json']);
    expect(json.code).toBe(1);
    expect(json.json.mismatched).toEqual([
      {
        line: i + 1,
        seq: rows[i].seq,
        route: 'POST /admin/sandbox/quote',
        recorded_status: 200,
        replayed_status: 200,
        replayed_error: null,
        field: { path: 'body.price_micros', recorded: 85130000, replayed: 85120000 },
      },
    ]);
  });

  it('a journal written before answers were kept replays by status and says how many bodies it could compare', async () => {
    const f = write(
      'old.ndjson',
      rows.map((e, n) => {
        if (n === 0) return e;
        const { response: _dropped, ...old } = e;
        return old;
      }),
    );
    const r = await runSvc(['sandbox', 'replay', f]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'every one answered as recorded (0 with a recorded body to compare; the others by status)',
    );
  });
});
