// The audit checkpoint: the audit chain's head as the daemon last committed it, kept OUTSIDE the
// database, beside the key-encryption key (`$SVC_HOME/audit.checkpoint`, 0600), MACed with the audit
// seal key (derived from the KEK by `auditSealKeyOf`, daemon/store/kek-file.ts: the one function every
// holder of this key goes through, rotation included). Someone who can write svc.db and its WAL but
// not the key material can cut the chain short, rewrite it and re-chain it, and put back an older
// signed head copied from the database; none of that moves this file, so the chain no longer reaches
// the head it names (docs/reliability.md, "The audit chain against a database writer").
//
// Written after the COMMIT that moved the head (never before: a checkpoint ahead of the database
// would be a false alarm after a rollback), by replacing the file with a new one (write, rename), so
// a crash leaves the old checkpoint or the new one. A crash between the COMMIT and the write leaves
// it behind the database: the entries after it are then accepted only under a valid signed head
// that names exactly the chain's end (the database's audit_seal, MACed with the same key).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { keyedHash } from './crypto.js';

export const AUDIT_CHECKPOINT_FILE = 'audit.checkpoint';

export interface Checkpoint {
  count: number;
  head: string;
}

const MAGIC = 'svc-audit-checkpoint v1';
const macOf = (key: Buffer, c: Checkpoint) => keyedHash(key, `audit-checkpoint:v1:${c.count}:${c.head}`);

/** What the file says: absent, not written under this key (or damaged), or a checkpoint. */
export type CheckpointRead = { state: 'missing' } | { state: 'foreign' } | { state: 'ok'; checkpoint: Checkpoint };

/** Parses and authenticates the file's bytes under `key`. */
export function parseCheckpoint(text: string, key: Buffer): CheckpointRead {
  const m = /^svc-audit-checkpoint v1\ncount (\d{1,15})\nhead ([0-9a-f]{64}|)\nmac ([0-9a-f]{64})\n$/.exec(text);
  if (!m) return { state: 'foreign' };
  const checkpoint = { count: Number(m[1]), head: m[2] };
  if ((checkpoint.count === 0) !== (checkpoint.head === '')) return { state: 'foreign' };
  return macOf(key, checkpoint) === m[3] ? { state: 'ok', checkpoint } : { state: 'foreign' };
}

export const formatCheckpoint = (c: Checkpoint, key: Buffer): string => `${MAGIC}\ncount ${c.count}\nhead ${c.head}\nmac ${macOf(key, c)}\n`;

export function readCheckpoint(file: string, key: Buffer): CheckpointRead {
  if (!existsSync(file)) return { state: 'missing' };
  return parseCheckpoint(readFileSync(file, 'latin1'), key);
}

/**
 * Replaces the file (0600) by a rename, so a reader or a crash sees the old checkpoint or the new
 * one. Not fsynced, like the database's own commits (synchronous = NORMAL): it survives a crash of
 * the process, not of the operating system.
 */
export function writeCheckpoint(file: string, key: Buffer, c: Checkpoint): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, formatCheckpoint(c, key), { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * The KEK changed (a rotation): the checkpoint MACed under the key of `from` is MACed again under the
 * key of `to`. Nothing when it is missing or already under `to`; a checkpoint under neither is left as
 * it is (verification reports it). Keys are the audit seal keys of the two KEKs.
 */
export function rekeyCheckpoint(file: string, from: Buffer, to: Buffer): void {
  const read = readCheckpoint(file, from);
  if (read.state === 'ok') writeCheckpoint(file, to, read.checkpoint);
}

/** A checkpoint file bound to one key (the daemon's audit seal key buffer, rotated in place). */
export interface CheckpointStore {
  read(): CheckpointRead;
  write(c: Checkpoint): void;
}

export const checkpointStore = (file: string, key: Buffer): CheckpointStore => ({
  read: () => readCheckpoint(file, key),
  write: (c) => writeCheckpoint(file, key, c),
});
