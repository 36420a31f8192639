// svc sandbox journal / replay on the real binary (docs/snapshots.md): a mixed workload on sandbox A
// (onboarding with images, a dealer-cleared referral, a deposit, advances, orders filled, resting and
// canceled, a refused order, a provisioned tenant, a quote override), its journal saved, then replayed
// into a fresh sandbox B: every recorded status reproduced, every read of the final state byte for byte
// equal (B's keys differ: the bootstrap mints new ones), B's journal identical to A's, and the next
// writes create the same ids. A bad journal is refused naming the line, exit 2, and changes nothing.
// The rebuild is offline (the daemon's --replay mode, a process of its own listening on nothing, on a
// new home): a home that holds a sandbox, running or not, is refused, and a replayed answer never
// hands back a secret it showed once, even when the journal was crafted to make the comparison show it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { finalReads, mixedWorkload, readAs, type Workload } from '../helpers/cli-workload.js';
import { stepUpCode } from '../../daemon/contract/grants.js';

let a: CliSandbox;
let work: Workload;
const dir = mkdtempSync(join(tmpdir(), 'svc-replay-test-'));
const journal = join(dir, 'a.ndjson');
const homeB = join(dir, 'b');
let b: any;

beforeAll(async () => {
  a = await startSandbox(['--seed', '9']);
  work = await mixedWorkload(a);
}, 120_000);

afterAll(async () => {
  await runSvc(['sandbox', 'stop'], { home: homeB });
  await a?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('svc sandbox journal', () => {
  it('saves the header and every entry as NDJSON, private to its owner; no keys or signatures in it', async () => {
    const r = await a.svc(['sandbox', 'journal', journal, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(journal).mode & 0o777).toBe(0o600);
    const lines = readFileSync(journal, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({
      svc_journal: 1,
      origin: { seed: 9, clock: 'frozen' },
      complete: true,
      entries: lines.length - 1,
    });
    expect(r.json.entries).toBe(lines.length - 1);
    const principals = new Set(lines.slice(1).map((e) => e.principal));
    expect(principals).toEqual(new Set([`tenant:${a.info.tenant_id}`, 'operator:admin', 'operator:dealer']));
    expect(lines.slice(1).some((e) => e.status === 422)).toBe(true);
    expect(lines.slice(1).some((e) => e.body_base64 !== null)).toBe(true);
    const text = readFileSync(journal, 'utf8');
    for (const k of [
      'api_key',
      'signing_secret',
      'admin_key',
      'dealer_key',
      'security_key',
      'approver_key',
      'compliance_key',
      'auditor_key',
    ])
      expect(text).not.toContain(a.info[k]);
    expect(text).not.toMatch(/v1=[0-9a-f]{64}/);
    // Without FILE: stdout, the same bytes.
    expect((await a.svc(['sandbox', 'journal'])).stdout).toBe(text);
  });
});

describe('svc sandbox replay into a fresh sandbox', () => {
  beforeAll(async () => {
    const r = await runSvc(['sandbox', 'replay', journal, '--port', '0', '--json'], { home: homeB });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    b = r.json;
    expect(b.replay).toMatchObject({ mismatched: [] });
    expect(b.replay.matched).toBe(b.replay.entries);
  }, 120_000);

  it('the rebuilt sandbox stays running in --home with new keys, the same tenant id and seed', () => {
    expect(b).toMatchObject({ seed: 9, tenant_id: a.info.tenant_id, home: homeB });
    expect(b.api_key).not.toBe(a.info.api_key);
    expect(existsSync(join(homeB, 'daemon.json'))).toBe(true);
  });

  it('every read of the final state is byte for byte the same (ledger, orders, fills, KYC, desk, clock)', async () => {
    for (const url of finalReads(work).filter((u) => !u.startsWith('/admin/audit'))) {
      const ra = await readAs(a.info, url);
      const rb = await readAs(b, url);
      expect(ra.status, `${url}: ${ra.text}`).toBe(200);
      expect(rb.text, url).toBe(ra.text);
    }
  });

  it("B's audit chain is A's, truthfully: every replayed action names the replay, on behalf of A's actor", async () => {
    const rows = async (creds: any) =>
      JSON.parse((await readAs(creds, '/admin/audit?limit=200')).text).entries.reverse();
    const ra = await rows(a.info);
    const rb = await rows(b);
    const opened = rb.findIndex((r: any) => r.action === 'sandbox.replay_session_opened');
    expect(rb[opened]).toMatchObject({ actor: 'replay', on_behalf_of: null });
    const replayed = rb.filter((_r: any, i: number) => i !== opened);
    const shape = (r: any, actor: string) => ({
      at: r.at,
      action: r.action,
      subject: r.subject,
      tenant_id: r.tenant_id,
      detail: r.detail,
      actor,
    });
    expect(replayed.map((r: any) => shape(r, r.on_behalf_of ?? r.actor))).toEqual(
      ra.map((r: any) => shape(r, r.actor)),
    );
    for (const r of replayed)
      if (r.actor !== 'system') expect(r).toMatchObject({ actor: 'replay', on_behalf_of: expect.any(String) });
    expect(JSON.parse((await readAs(b, '/admin/audit/verify')).text)).toMatchObject({ ok: true });
  });

  it("B's journal is A's journal, entry for entry", async () => {
    expect((await runSvc(['sandbox', 'journal'], { home: homeB })).stdout).toBe(readFileSync(journal, 'utf8'));
  });

  it('the next writes on both create the same ids and answer the same', async () => {
    for (const s of [
      [
        'api',
        'POST',
        '/v1/orders',
        '-d',
        JSON.stringify({
          investor_id: work.investorId,
          symbol: 'COMI',
          side: 'buy',
          type: 'market',
          qty: 1,
          time_in_force: 'day',
        }),
        '--idempotency-key',
        'next-1',
      ],
      ['api', 'POST', '/admin/sandbox/clock-advance', '-d', '{"until":"next_open"}'],
      ['order', 'list', '--investor', work.investorId],
    ]) {
      // to both sandboxes at once: each answers its own steps in order, and neither waits for the other
      const [ra, rb] = await Promise.all([a.svc([...s, '--json']), runSvc([...s, '--json'], { home: homeB })]);
      expect(ra.code, ra.stderr).toBe(0);
      expect(rb.stdout, s.join(' ')).toBe(ra.stdout);
    }
  });

  it('an isolated replay (no --home) checks every entry and leaves nothing behind', async () => {
    const r = await runSvc(['sandbox', 'replay', journal]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/ok replayed \d+ entries from a\.ndjson: every one answered as recorded/);
  });
});

describe('a bad journal is refused, naming the line, and changes nothing', () => {
  let c: CliSandbox;
  beforeAll(async () => {
    c = await startSandbox(['--seed', '9']);
  });
  afterAll(() => c?.stop());

  const lines = () => readFileSync(journal, 'utf8').trimEnd().split('\n');
  const write = (name: string, rows: string[]) => {
    const f = join(dir, name);
    writeFileSync(f, `${rows.join('\n')}\n`);
    return f;
  };

  it('bad JSON, a bad field, an unknown route, a missing entry, a truncated file, not a journal: exit 2 and the place', async () => {
    const rows = lines();
    const entry3 = JSON.parse(rows[3]);
    const cases: Array<[string, string[], RegExp]> = [
      ['bad-json', [...rows.slice(0, 3), rows[3].slice(0, 40), ...rows.slice(4)], /bad-json\.ndjson:4: not valid JSON/],
      [
        'bad-field',
        [...rows.slice(0, 3), JSON.stringify({ ...entry3, principal: 'root' }), ...rows.slice(4)],
        /bad-field\.ndjson:4: principal: /,
      ],
      [
        'unknown-route',
        [
          ...rows.slice(0, 3),
          JSON.stringify({ ...entry3, path: '/v1/teleport', route: `${entry3.method} /v1/teleport` }),
          ...rows.slice(4),
        ],
        /unknown-route\.ndjson:4: unknown route [A-Z]+ \/v1\/teleport/,
      ],
      ['gap', [...rows.slice(0, 3), ...rows.slice(4)], /gap\.ndjson:4: seq 4 follows 2: an entry is missing/],
      ['truncated', rows.slice(0, 5), /holds 4 of the journal's \d+ entries: it is truncated/],
      ['not-journal', ['{"hello":"world"}', ...rows.slice(1)], /not-journal\.ndjson:1: not an svc journal/],
    ];
    const before = (await c.svc(['sandbox', 'journal'])).stdout;
    // The isolated replays run at once: each has a temporary home of its own, and none reads another's file.
    const replays = await Promise.all(
      cases.map(([name, content]) => runSvc(['sandbox', 'replay', write(`${name}.ndjson`, content)])),
    );
    for (const [i, [name, , message]] of cases.entries()) {
      const r = replays[i];
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr, name).toMatch(message);
      expect(r.stderr, name).toContain('nothing was changed');
    }
    expect((await c.svc(['sandbox', 'journal'])).stdout).toBe(before);
  });

  it('a home that holds a sandbox (here a running one) is never replayed into: exit 2, its journal, clock and files unchanged', async () => {
    const before = (await c.svc(['sandbox', 'journal'])).stdout;
    const state = (await c.svc(['sandbox', 'status', '--json'])).stdout;
    const files = readdirSync(c.home).sort();
    const viaCli = await runSvc(['sandbox', 'replay', journal], { home: c.home });
    expect(viaCli.code).toBe(2);
    expect(viaCli.stderr).toContain('already holds a sandbox');
    // The daemon's replay mode refuses it too, before reading the journal or opening anything.
    const direct = spawnSync(process.execPath, ['dist/daemon/main.js', '--home', c.home, '--replay'], {
      input: readFileSync(journal),
      encoding: 'utf8',
    });
    expect(direct.status).toBe(2);
    expect(JSON.parse(direct.stdout)).toEqual({
      refused: { line: null, message: expect.stringContaining('already holds a sandbox') },
    });
    expect((await c.svc(['sandbox', 'journal'])).stdout).toBe(before);
    expect((await c.svc(['sandbox', 'status', '--json'])).stdout).toBe(state);
    expect(readdirSync(c.home).sort()).toEqual(files);
  });

  it('--against is gone: a journal is never sent to a running sandbox', async () => {
    const r = await runSvc(['sandbox', 'replay', journal, '--against', c.info.base_url], { home: c.home });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/unknown option '--against'/);
  });

  it('a journal crafted to show a secret (a replayed approval as approver, its recorded enrolment code edited) gets "[secret]" back, never the code', async () => {
    const d = await startSandbox(['--seed', '12']);
    try {
      const send = async (key: string, secret: string, path: string, body: unknown) => {
        const res = await fetch(d.info.base_url + path, {
          method: 'POST',
          headers: {
            'x-admin-key': key,
            'content-type': 'application/json',
            'x-step-up-code': stepUpCode(secret, { wallMs: Date.now() }),
          },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as { action_id: string } };
      };
      const p = await send(d.info.security_key, d.info.security_step_up, '/admin/actions', {
        action: 'console-users:manage',
        params: { name: 'mallory', role: 'approver' },
        reason: 'crafted',
      });
      expect(p.status).toBe(201);
      const a = await send(
        d.info.approver_key,
        d.info.approver_step_up,
        `/admin/actions/${p.body.action_id}/approve`,
        {},
      );
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      const rows = (await d.svc(['sandbox', 'journal'])).stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      const approval = rows.findIndex((e) => e.route === 'POST /admin/actions/:id/approve');
      const recorded = JSON.parse(rows[approval].response);
      expect(recorded.result.answered_once.enrolment_code).toBe('[secret]');
      recorded.result.answered_once.enrolment_code = 'show-me-the-code';
      rows[approval].response = JSON.stringify(recorded);
      const f = write(
        'crafted.ndjson',
        rows.map((r) => JSON.stringify(r)),
      );
      const r = await runSvc(['sandbox', 'replay', f, '--json']);
      expect(r.code).toBe(1);
      expect(r.json.mismatched).toEqual([
        expect.objectContaining({
          seq: rows[approval].seq,
          field: {
            path: 'body.result.answered_once.enrolment_code',
            recorded: 'show-me-the-code',
            replayed: '[secret]',
          },
        }),
      ]);
      const text = await runSvc(['sandbox', 'replay', f]);
      expect(text.stderr).toContain(
        'body.result.answered_once.enrolment_code: recorded "show-me-the-code", replayed "[secret]"',
      );
      for (const out of [r.stdout + r.stderr, text.stdout + text.stderr])
        expect(out).not.toMatch(/enrolment_code"?:\s*"(?!\[secret\]|show-me-the-code)/);
    } finally {
      await d.stop();
    }
  });
});
