// The audit checkpoint: the audit chain's head as the daemon last committed it, kept OUTSIDE the
// database, beside the key-encryption key (`$SVC_HOME/audit.checkpoint`, 0600), MACed with the audit
// seal key (derived from the KEK by `auditSealKeyOf`, daemon/store/kek-file.ts: the one function every
// holder of this key goes through, rotation included). Someone who can write svc.db and its WAL but
// not the key material can cut the chain short, rewrite it and re-chain it, and put back an older
// signed head copied from the database; none of that moves this file, so the chain no longer reaches
// the head it names (docs/reliability.md, "The audit chain against a database writer").
//
// Written after the COMMIT that moved the head (never before: a checkpoint ahead of the database
// would be a false alarm after a rollback). The record has a fixed length and is written over itself
// at offset 0 by one write(2) on a descriptor kept open: a killed process leaves the old record or
// the new one (7-47 µs a COMMIT measured here, where writing a new file and renaming it over the old one cost
// about 1 ms on ext4, which flushes a file renamed over another). A crash between the COMMIT and the
// write leaves it behind the database: the entries after it are then accepted only under a valid
// signed head that names exactly the chain's end (the database's audit_seal, MACed with the same key).
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { keyedHash } from './crypto.js';

export const AUDIT_CHECKPOINT_FILE = 'audit.checkpoint';

export interface Checkpoint {
  count: number;
  head: string;
}

const MAGIC = 'svc-audit-checkpoint v1';
/** The head of an empty chain, written so that every record has the same length. */
const NO_HEAD = '-'.repeat(64);
const macOf = (key: Buffer, c: Checkpoint) => keyedHash(key, `audit-checkpoint:v1:${c.count}:${c.head}`);

/** What the file says: absent, not written under this key (or damaged), or a checkpoint. */
export type CheckpointRead = { state: 'missing' } | { state: 'foreign' } | { state: 'ok'; checkpoint: Checkpoint };

/** Parses and authenticates the file's bytes under `key`. */
export function parseCheckpoint(text: string, key: Buffer): CheckpointRead {
  const m = /^svc-audit-checkpoint v1\ncount (\d{15})\nhead ([0-9a-f]{64}|-{64})\nmac ([0-9a-f]{64})\n$/.exec(text);
  if (!m) return { state: 'foreign' };
  const checkpoint = { count: Number(m[1]), head: m[2] === NO_HEAD ? '' : m[2] };
  if ((checkpoint.count === 0) !== (checkpoint.head === '')) return { state: 'foreign' };
  return macOf(key, checkpoint) === m[3] ? { state: 'ok', checkpoint } : { state: 'foreign' };
}

/** The record: always the same length (count zero-padded to 15 digits), so a new one covers the old one exactly. */
export const formatCheckpoint = (c: Checkpoint, key: Buffer): string =>
  `${MAGIC}\ncount ${String(c.count).padStart(15, '0')}\nhead ${c.head === '' ? NO_HEAD : c.head}\nmac ` +
  `${macOf(key, c)}\n`;

export function readCheckpoint(file: string, key: Buffer): CheckpointRead {
  if (!existsSync(file)) return { state: 'missing' };
  return parseCheckpoint(readFileSync(file, 'latin1'), key);
}

const RECORD_BYTES = formatCheckpoint({ count: 0, head: '' }, Buffer.alloc(32)).length;

/** Opens the file for writing records over each other (created 0600; emptied first unless it holds one record). */
const openForRecords = (file: string): number =>
  openSync(file, existsSync(file) && statSync(file).size === RECORD_BYTES ? 'r+' : 'w', 0o600);

/** Writes one checkpoint and makes it durable (a start, a key rotation: rare, so fsynced). */
export function writeCheckpoint(file: string, key: Buffer, c: Checkpoint): void {
  const fd = openForRecords(file);
  try {
    writeSync(fd, Buffer.from(formatCheckpoint(c, key), 'latin1'), 0, undefined, 0);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
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
  /**
   * Writes a record over the last one: one write(2) on a descriptor opened at the first write. Not
   * fsynced, like the database's own commits (synchronous = NORMAL): it survives a crash of the
   * process, not necessarily one of the operating system.
   */
  write(c: Checkpoint): void;
  /** Closes the descriptor (the app closes). */
  close(): void;
}

export function checkpointStore(file: string, key: Buffer): CheckpointStore {
  let fd: number | null = null;
  return {
    read: () => readCheckpoint(file, key),
    write(c) {
      fd ??= openForRecords(file);
      writeSync(fd, Buffer.from(formatCheckpoint(c, key), 'latin1'), 0, undefined, 0);
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
