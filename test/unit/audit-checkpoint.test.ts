// The audit checkpoint's file (daemon/store/audit-checkpoint.ts) and its key: MACed under the audit seal
// key of the home's KEK, so a KEK rotation that a crash cut after its COMMIT (the checkpoint still under
// the old key, kek.next.key not yet renamed) leaves a checkpoint that verifies under the key the next
// start keeps.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { auditSealKeyOf, kekCheck, loadKek, KEK_FILE, KEK_NEXT_FILE } from '../../daemon/store/kek-file.js';
import { AUDIT_CHECKPOINT_FILE, readCheckpoint, writeCheckpoint } from '../../daemon/store/audit-checkpoint.js';
import { newKey } from '../../daemon/store/crypto.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** A home whose database is sealed under `sealedUnder` (key_state.kek_check), with kek.key and kek.next.key. */
function home(oldKek: Buffer, nextKek: Buffer, sealedUnder: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ckpt-'));
  homes.push(dir);
  const db = new Database(join(dir, 'svc.db'));
  db.exec('CREATE TABLE key_state (id INTEGER PRIMARY KEY, kek_check TEXT NOT NULL)');
  db.prepare('INSERT INTO key_state (id, kek_check) VALUES (1, ?)').run(kekCheck(sealedUnder));
  db.close();
  writeFileSync(join(dir, KEK_FILE), oldKek, { mode: 0o600 });
  writeFileSync(join(dir, KEK_NEXT_FILE), nextKek, { mode: 0o600 });
  return dir;
}

const cp = { count: 41, head: 'ab'.repeat(32) };

describe('the audit checkpoint across a KEK rotation cut by a crash', () => {
  it('a rotation that committed: the checkpoint left under the old key is MACed again under the new key the start keeps', () => {
    const [oldKek, nextKek] = [newKey(), newKey()];
    const dir = home(oldKek, nextKek, nextKek);
    writeCheckpoint(join(dir, AUDIT_CHECKPOINT_FILE), auditSealKeyOf(oldKek), cp);
    expect(loadKek(dir)).toEqual(nextKek);
    expect(readCheckpoint(join(dir, AUDIT_CHECKPOINT_FILE), auditSealKeyOf(nextKek))).toEqual({
      state: 'ok',
      checkpoint: cp,
    });
  });

  it('a rotation that committed with the checkpoint already written under the new key: left as it is', () => {
    const [oldKek, nextKek] = [newKey(), newKey()];
    const dir = home(oldKek, nextKek, nextKek);
    writeCheckpoint(join(dir, AUDIT_CHECKPOINT_FILE), auditSealKeyOf(nextKek), cp);
    const before = readFileSync(join(dir, AUDIT_CHECKPOINT_FILE));
    expect(loadKek(dir)).toEqual(nextKek);
    expect(readFileSync(join(dir, AUDIT_CHECKPOINT_FILE))).toEqual(before);
  });

  it('a rotation that never committed: the checkpoint stays under the old key, which the start keeps', () => {
    const [oldKek, nextKek] = [newKey(), newKey()];
    const dir = home(oldKek, nextKek, oldKek);
    writeCheckpoint(join(dir, AUDIT_CHECKPOINT_FILE), auditSealKeyOf(oldKek), cp);
    expect(loadKek(dir)).toEqual(oldKek);
    expect(readCheckpoint(join(dir, AUDIT_CHECKPOINT_FILE), auditSealKeyOf(oldKek))).toEqual({
      state: 'ok',
      checkpoint: cp,
    });
  });
});

describe('the checkpoint file', () => {
  it('one changed character, or another count or head with the old MAC, is not a checkpoint of this key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ckpt-'));
    homes.push(dir);
    const file = join(dir, AUDIT_CHECKPOINT_FILE);
    const key = auditSealKeyOf(newKey());
    writeCheckpoint(file, key, cp);
    const text = readFileSync(file, 'latin1');
    writeFileSync(file, text.replace('count 000000000000041', 'count 000000000000040'));
    expect(readCheckpoint(file, key)).toEqual({ state: 'foreign' });
    writeFileSync(file, text.replace(/head a/, 'head b'));
    expect(readCheckpoint(file, key)).toEqual({ state: 'foreign' });
    writeFileSync(file, text);
    expect(readCheckpoint(file, key)).toEqual({ state: 'ok', checkpoint: cp });
    expect(readCheckpoint(file, auditSealKeyOf(newKey()))).toEqual({ state: 'foreign' });
  });
});
