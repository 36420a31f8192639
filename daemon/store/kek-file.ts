// The key-encryption key's file in the home (docs/backoffice.md "Key rotation"). `kek.key` (0600) is
// the KEK the database is sealed under; the database never holds it, only `key_state.kek_check`, an
// HMAC of a fixed label under it, which names the right key without revealing it.
//
// A rotation (keys:rotate-kek) writes the new key to `kek.next.key` (fsynced) BEFORE the transaction
// that re-wraps everything under it commits, and renames it over `kek.key` only AFTER that commit. A
// crash can therefore leave both files, never neither, and the database says which one it is sealed
// under: on start, `loadKek` keeps `kek.next.key` when the database's kek_check names it (the commit
// happened: finish the rename) and deletes it otherwise (the rotation never committed).
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openSqlite } from './sqlite.js';
import { keyedHash } from './crypto.js';
import { AUDIT_CHECKPOINT_FILE, rekeyCheckpoint } from './audit-checkpoint.js';

export const KEK_FILE = 'kek.key';
export const KEK_NEXT_FILE = 'kek.next.key';

/** What key_state.kek_check holds for this KEK. */
export const kekCheck = (kek: Buffer): string => keyedHash(kek, 'svc kek check v1');

/**
 * The audit seal's key (daemon/store/audit.ts), derived from the KEK: it MACs the signed head in the
 * database and the checkpoint beside the key (daemon/store/audit-checkpoint.ts). Whatever changes the
 * KEK goes through this function for both, and re-MACs the checkpoint with `rekeyAuditCheckpoint`.
 */
export const auditSealKeyOf = (kek: Buffer): Buffer => Buffer.from(keyedHash(kek, 'svc audit seal v1'), 'hex');

function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `bytes` to home/name, 0600, and makes it durable (file and directory entry). */
function writeDurable(home: string, name: string, bytes: Buffer): void {
  const file = join(home, name);
  const fd = openSync(file, 'w', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncDir(home);
}

/** The KEK of `home` changes from `from` to `to`: the audit checkpoint beside it is MACed again under the new key. */
export function rekeyAuditCheckpoint(home: string, from: Buffer, to: Buffer): void {
  rekeyCheckpoint(join(home, AUDIT_CHECKPOINT_FILE), auditSealKeyOf(from), auditSealKeyOf(to));
}

export function writeNextKek(home: string, kek: Buffer): void {
  writeDurable(home, KEK_NEXT_FILE, kek);
}

/** The rotation committed: the next key becomes the key (an atomic rename, made durable). */
export function promoteNextKek(home: string): void {
  renameSync(join(home, KEK_NEXT_FILE), join(home, KEK_FILE));
  fsyncDir(home);
}

/** The rotation did not commit: the next key is dropped. */
export function dropNextKek(home: string): void {
  rmSync(join(home, KEK_NEXT_FILE), { force: true });
}

export const hasNextKek = (home: string): boolean => existsSync(join(home, KEK_NEXT_FILE));

/** The database's kek_check and kek_next_check (a rotation re-sealing in slices), or nulls. */
function storedChecks(dbFile: string): { current: string | null; next: string | null } {
  if (!existsSync(dbFile)) return { current: null, next: null };
  const db = openSqlite(dbFile, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'key_state'").get();
    if (!table) return { current: null, next: null };
    const hasNext = db.prepare("SELECT 1 FROM pragma_table_info('key_state') WHERE name = 'kek_next_check'").get();
    const row = db
      .prepare(
        `SELECT kek_check${hasNext ? ', kek_next_check' : ', NULL AS kek_next_check'} FROM key_state WHERE id = 1`,
      )
      .get() as { kek_check: string; kek_next_check: string | null } | undefined;
    return { current: row?.kek_check ?? null, next: row?.kek_next_check ?? null };
  } finally {
    db.close();
  }
}

/**
 * Settles what a crash left of a rotation, then answers the KEK of the home (made on first start) and,
 * while a KEK rotation is re-sealing in slices (key_state.kek_next_check names kek.next.key), the next
 * KEK: both are needed until its switch-over commits. kek.next.key is promoted when kek_check names
 * it (the switch-over committed), kept when kek_next_check does, and deleted otherwise (the approval
 * never committed).
 */
export function loadKekRing(home: string, dbFile = join(home, 'svc.db')): { kek: Buffer; next: Buffer | null } {
  const file = join(home, KEK_FILE);
  let next: Buffer | null = null;
  if (hasNextKek(home)) {
    const candidate = readFileSync(join(home, KEK_NEXT_FILE));
    const checks = storedChecks(dbFile);
    if (candidate.length === 32 && checks.current === kekCheck(candidate)) {
      // A crash after the switch-over's COMMIT may have left the audit checkpoint under the old key.
      if (existsSync(file)) rekeyAuditCheckpoint(home, readFileSync(file), candidate);
      promoteNextKek(home);
    } else if (candidate.length === 32 && checks.next === kekCheck(candidate)) next = candidate;
    else dropNextKek(home);
  }
  if (!existsSync(file)) writeDurable(home, KEK_FILE, randomBytes(32));
  return { kek: readFileSync(file), next };
}

/** The KEK of the home (loadKekRing without a rotation in progress). */
export function loadKek(home: string, dbFile = join(home, 'svc.db')): Buffer {
  return loadKekRing(home, dbFile).kek;
}
