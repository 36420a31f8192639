// svc sandbox export / import on the real binary (docs/snapshots.md): a sandbox moved into a fresh home
// answers every read, and the next writes, exactly as the original; a corrupt, truncated or foreign
// file is refused with a message naming the problem, exit 2, and the running sandbox untouched; an
// import over a running sandbox replaces it on the same port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { finalReads, mixedWorkload, readAs, type Workload } from '../helpers/cli-workload.js';
import Database from 'better-sqlite3';
import { packSnapshot, unpackSnapshot } from '../../daemon/contract/snapshot.js';

let a: CliSandbox;
let work: Workload;
const dir = mkdtempSync(join(tmpdir(), 'svc-snap-'));
const snap = join(dir, 'a.svcsnap');
const homeB = join(dir, 'b');

const inB = (args: string[]) => runSvc(args, { home: homeB });
/** The imported sandbox's connection (the original's keys, its own base_url). */
let b: { base_url: string; api_key: string; dealer_key: string; admin_key: string };

beforeAll(async () => {
  a = await startSandbox(['--seed', '31']);
  work = await mixedWorkload(a);
}, 120_000);

afterAll(async () => {
  await runSvc(['sandbox', 'stop'], { home: homeB });
  await a?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A response's JSON with request_id removed where it is a fresh request id (a per-boot counter). */
function withoutFreshRequestId(stdout: string): string {
  return stdout.replace(/"request_id": "req_[0-9a-z]+"/g, '"request_id": "<fresh>"');
}

describe('svc sandbox export', () => {
  it('writes one file, readable only by its owner, whose manifest names the seed, clock and contents', async () => {
    const r = await a.svc(['sandbox', 'export', snap, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.file).toBe(snap);
    expect(statSync(snap).mode & 0o777).toBe(0o600);
    const { manifest, files } = unpackSnapshot(readFileSync(snap));
    expect(manifest).toMatchObject({
      format: 'svc-snapshot',
      format_version: 1,
      seed: 31,
      svc_version: '0.1.0',
      clock: { mode: 'frozen', speed: 1 },
    });
    expect(manifest.clock.timestamp).toBe((await a.svc(['clock', 'show', '--json'])).json.timestamp);
    expect(manifest.journal_entries).toBeGreaterThan(15);
    expect([...files.keys()]).toEqual(['svc.db', 'kek.key', 'credentials.json']);
    expect(JSON.parse(files.get('credentials.json')!.toString()).api_key).toBe(a.info.api_key);
    const human = await a.svc(['sandbox', 'export', join(dir, 'again.svcsnap')]);
    expect(human.stderr).toMatch(/keep it as secret/);
  });
});

describe('svc sandbox import into a fresh home', () => {
  beforeAll(async () => {
    const r = await inB(['sandbox', 'import', snap, '--port', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      seed: 31,
      api_key: a.info.api_key,
      admin_key: a.info.admin_key,
      tenant_id: a.info.tenant_id,
    });
    expect(r.json.base_url).not.toBe(a.info.base_url);
    b = r.json;
  }, 60_000);

  it('every read answers byte for byte as the original, the clock included', async () => {
    for (const url of finalReads(work)) {
      const ra = await readAs(a.info, url);
      const rb = await readAs(b, url);
      expect(ra.status, `${url}: ${ra.text}`).toBe(200);
      expect(rb.text, url).toBe(ra.text);
    }
    const journal = async (home: string) => (await runSvc(['sandbox', 'journal'], { home })).stdout;
    expect(await journal(homeB)).toBe(await journal(a.home));
  });

  it('the next writes answer the same on both: new ids, fills, the clock, refusals (request ids are a per-boot counter)', async () => {
    const steps: string[][] = [
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
          qty: 2,
          time_in_force: 'day',
        }),
        '--idempotency-key',
        'after-import-1',
      ],
      ['api', 'POST', '/admin/sandbox/clock-advance', '-d', '{"until":"next_open"}'],
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
          qty: 3,
          time_in_force: 'day',
        }),
        '--idempotency-key',
        'after-import-2',
      ],
      ['api', 'POST', '/admin/sandbox/clock-advance', '-d', '{"minutes":30}'],
      [
        'api',
        'POST',
        '/v1/orders',
        '-d',
        JSON.stringify({
          investor_id: work.investorId,
          symbol: 'FWRY',
          side: 'sell',
          type: 'market',
          qty: 999,
          time_in_force: 'day',
        }),
        '--idempotency-key',
        'after-import-3',
      ],
      ['api', 'GET', `/v1/investors/${work.investorId}/balances`],
      ['api', 'GET', `/v1/orders?investor_id=${work.investorId}`],
    ];
    // Each step goes to both sandboxes at once: each answers its own steps in order, and neither waits for the other.
    for (const s of steps) {
      const [ra, rb] = await Promise.all([a.svc([...s, '--json']), inB([...s, '--json'])]);
      expect(rb.code, s.join(' ')).toBe(ra.code);
      expect(withoutFreshRequestId(rb.stdout), s.join(' ')).toBe(withoutFreshRequestId(ra.stdout));
    }
  });
});

describe('a bad snapshot changes nothing', () => {
  it('truncated, altered, foreign, empty or with a broken manifest: a clear message, exit 2, the running sandbox untouched', async () => {
    const good = readFileSync(snap);
    const before = await inB(['sandbox', 'status', '--json']);
    const journalBefore = (await inB(['sandbox', 'journal'])).stdout;
    const flipped = Buffer.from(good);
    flipped[flipped.length - 200] ^= 0xff;
    const nl = good.indexOf(0x0a, 9);
    const manifest = JSON.parse(good.subarray(9, nl).toString());
    const cases: Array<[string, Buffer, RegExp]> = [
      ['truncated', good.subarray(0, good.length - 1000), /truncated: the payload has \d+ of its \d+ bytes/],
      ['altered', flipped, /checksum does not match.*corrupt/],
      ['foreign', Buffer.from('PK\x03\x04 not a snapshot at all'), /not an svc snapshot/],
      ['empty', Buffer.alloc(0), /the file is empty/],
      [
        'manifest',
        Buffer.concat([good.subarray(0, 9), Buffer.from('{"format":"svc-snapshot"\n'), good.subarray(nl + 1)]),
        /manifest is not valid JSON/,
      ],
      [
        'newer',
        Buffer.concat([
          good.subarray(0, 9),
          Buffer.from(`${JSON.stringify({ ...manifest, format_version: 9 })}\n`),
          good.subarray(nl + 1),
        ]),
        /format_version 9 is newer than this svc understands/,
      ],
    ];
    for (const [name, bytes, message] of cases) {
      const file = join(dir, `${name}.svcsnap`);
      writeFileSync(file, bytes);
      const r = await inB(['sandbox', 'import', file]);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(message);
      expect(r.stderr, name).toContain(file);
      expect(r.stderr, name).toContain('nothing was changed');
    }
    const missing = await inB(['sandbox', 'import', join(dir, 'nope.svcsnap')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('no such file')]);
    const after = await inB(['sandbox', 'status', '--json']);
    expect(after.json.pid).toBe(before.json.pid);
    expect(after.stdout).toBe(before.stdout);
    expect((await inB(['sandbox', 'journal'])).stdout).toBe(journalBefore);
  });
});

describe('an imported sandbox that cannot start', () => {
  it('a snapshot from a newer svc (schema 99): refused before anything is touched (exit 2)', async () => {
    const { manifest, files } = unpackSnapshot(readFileSync(snap));
    const dbFile = join(dir, 'newer.db');
    writeFileSync(dbFile, files.get('svc.db')!);
    const db = new Database(dbFile);
    db.pragma('user_version = 99');
    db.close();
    const { format: _f, format_version: _v, files: _files, payload: _p, ...info } = manifest;
    const { container } = packSnapshot({ ...info, schema_version: 99 }, [
      { name: 'svc.db', data: readFileSync(dbFile) },
      { name: 'kek.key', data: files.get('kek.key')! },
      { name: 'credentials.json', data: files.get('credentials.json')! },
    ]);
    const file = join(dir, 'newer.svcsnap');
    writeFileSync(file, container);
    const before = await inB(['sandbox', 'status', '--json']);
    const r = await inB(['sandbox', 'import', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/schema version 99, newer than this svc knows/);
    expect(r.stderr).toContain('nothing was changed');
    expect((await inB(['sandbox', 'status', '--json'])).json.pid).toBe(before.json.pid);
  }, 60_000);

  it('a port already taken: the daemon does not start, the previous sandbox is put back and running', async () => {
    const journalBefore = (await inB(['sandbox', 'journal'])).stdout;
    const taken = new URL(a.info.base_url).port;
    const r = await inB(['sandbox', 'import', snap, '--port', taken]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/did not start/);
    expect(r.stderr).toMatch(/previous sandbox is running again/);
    expect((await inB(['sandbox', 'status', '--json'])).json).toMatchObject({ running: true, seed: 31 });
    expect((await inB(['sandbox', 'journal'])).stdout).toBe(journalBefore);
    expect(readdirSync(homeB).filter((n) => n.startsWith('.'))).toEqual([]);
  }, 60_000);
});

describe('svc sandbox import over a running sandbox', () => {
  it('stops it, swaps the files and starts the imported sandbox on the same port', async () => {
    const c = await startSandbox(['--seed', '5']);
    try {
      const r = await c.svc(['sandbox', 'import', snap, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json.base_url).toBe(c.info.base_url);
      expect(r.json.pid).not.toBe(c.info.pid);
      expect(r.json).toMatchObject({ seed: 31, api_key: a.info.api_key });
      const status = await c.svc(['sandbox', 'status', '--json']);
      expect(status.json).toMatchObject({ running: true, seed: 31 });
      const inv = await c.svc(['api', 'GET', `/v1/investors/${work.investorId}`, '--json']);
      expect(inv.stdout).toBe((await a.svc(['api', 'GET', `/v1/investors/${work.investorId}`, '--json'])).stdout);
    } finally {
      await c.stop();
    }
  }, 60_000);
});
