// The sandbox snapshot container, shared by the daemon (GET /admin/sandbox/export packs it) and the
// CLI (`svc sandbox import` unpacks and checks it before touching anything). One file:
//
//   SVCSNAP1\n                  magic, 9 bytes
//   <manifest JSON>\n           one line of UTF-8 JSON (format, versions, seed, clock, files, checksums)
//   <payload>                   gzip of the files' bytes, concatenated in manifest order
//
// The manifest names each file with its size and SHA-256, and the payload with its size and SHA-256,
// so a truncated or altered snapshot is refused with a message naming what is wrong.
// docs/snapshots.md describes the format and what it holds (secrets included).
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

export const SNAPSHOT_MAGIC = 'SVCSNAP1\n';
export const SNAPSHOT_FORMAT = 'svc-snapshot';
export const SNAPSHOT_FORMAT_VERSION = 1;
const MAX_MANIFEST_BYTES = 64 * 1024;
/**
 * The most a snapshot may hold, decompressed. Decompression is bounded by the sizes the manifest
 * declares, so a small file cannot expand into gigabytes of memory; a manifest declaring more than
 * this is refused before anything is decompressed. A sandbox's database is tens of megabytes.
 */
export const MAX_SNAPSHOT_BYTES = 1024 * 1024 * 1024;
/** The largest snapshot file: gzip never grows its input by more than a fraction, plus the manifest. */
export const MAX_SNAPSHOT_FILE_BYTES = MAX_SNAPSHOT_BYTES + 16 * 1024 * 1024;
/** Files a snapshot may hold, each with its largest size (kek.key is exactly 32 bytes). */
export const SNAPSHOT_FILE_LIMITS: ReadonlyMap<string, number> = new Map([
  ['svc.db', MAX_SNAPSHOT_BYTES],
  ['kek.key', 32],
  ['credentials.json', 64 * 1024],
]);

export interface SnapshotFile {
  name: string;
  bytes: number;
  sha256: string;
}

export interface SnapshotManifest {
  format: typeof SNAPSHOT_FORMAT;
  format_version: number;
  svc_version: string;
  /** PRAGMA user_version of the database (its migration level). */
  schema_version: number;
  /** Wall-clock time of the export (UTC). */
  created_at: string;
  seed: number;
  start: string;
  generation: number;
  clock: { timestamp: string; mode: 'frozen' | 'running'; speed: number };
  journal_entries: number;
  files: SnapshotFile[];
  payload: { encoding: 'gzip'; bytes: number; sha256: string };
}

export type ManifestInfo = Omit<SnapshotManifest, 'format' | 'format_version' | 'files' | 'payload'>;

/** A snapshot that cannot be used; the message names the problem. */
export class SnapshotError extends Error {}

export function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export function packSnapshot(
  info: ManifestInfo,
  files: Array<{ name: string; data: Buffer }>,
): { container: Buffer; manifest: SnapshotManifest } {
  const payload = gzipSync(Buffer.concat(files.map((f) => f.data)), { level: 6 });
  const manifest: SnapshotManifest = {
    format: SNAPSHOT_FORMAT,
    format_version: SNAPSHOT_FORMAT_VERSION,
    ...info,
    files: files.map((f) => ({ name: f.name, bytes: f.data.length, sha256: sha256Hex(f.data) })),
    payload: { encoding: 'gzip', bytes: payload.length, sha256: sha256Hex(payload) },
  };
  const container = Buffer.concat([
    Buffer.from(SNAPSHOT_MAGIC, 'utf8'),
    Buffer.from(`${JSON.stringify(manifest)}\n`, 'utf8'),
    payload,
  ]);
  return { container, manifest };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads only the manifest (checks the magic and the manifest's shape). */
export function readManifest(buf: Buffer): { manifest: SnapshotManifest; payloadOffset: number } {
  const magic = Buffer.from(SNAPSHOT_MAGIC, 'utf8');
  if (buf.length < magic.length || !buf.subarray(0, magic.length).equals(magic)) {
    if (buf.length === 0) throw new SnapshotError('the file is empty');
    throw new SnapshotError('not an svc snapshot (the file does not start with SVCSNAP1)');
  }
  const nl = buf.indexOf(0x0a, magic.length);
  if (nl < 0 || nl - magic.length > MAX_MANIFEST_BYTES)
    throw new SnapshotError('the manifest is truncated (no end of line after it)');
  let m: unknown;
  try {
    m = JSON.parse(buf.subarray(magic.length, nl).toString('utf8'));
  } catch (err) {
    throw new SnapshotError(`the manifest is not valid JSON (${(err as Error).message})`);
  }
  const bad = (what: string): never => {
    throw new SnapshotError(`the manifest is invalid: ${what}`);
  };
  if (!isObject(m)) bad('not a JSON object');
  const o = m as Record<string, unknown>;
  if (o.format !== SNAPSHOT_FORMAT) bad(`format is ${JSON.stringify(o.format)}, expected "${SNAPSHOT_FORMAT}"`);
  if (typeof o.format_version !== 'number') bad('format_version is missing');
  if ((o.format_version as number) > SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotError(
      `format_version ${o.format_version} is newer than this svc understands (${SNAPSHOT_FORMAT_VERSION}); upgrade svc`,
    );
  }
  if (o.format_version !== SNAPSHOT_FORMAT_VERSION) bad(`format_version ${o.format_version} is not supported`);
  for (const k of ['svc_version', 'created_at', 'start'] as const) if (typeof o[k] !== 'string') bad(`${k} is missing`);
  for (const k of ['schema_version', 'seed', 'generation', 'journal_entries'] as const)
    if (!Number.isInteger(o[k])) bad(`${k} is missing`);
  if (
    !isObject(o.clock) ||
    typeof o.clock.timestamp !== 'string' ||
    (o.clock.mode !== 'frozen' && o.clock.mode !== 'running') ||
    typeof o.clock.speed !== 'number'
  )
    bad('clock is missing or malformed');
  if (!Array.isArray(o.files) || o.files.length === 0) bad('files is missing');
  for (const [i, f] of (o.files as unknown[]).entries()) {
    if (
      !isObject(f) ||
      typeof f.name !== 'string' ||
      !/^[a-z0-9._-]{1,64}$/.test(f.name) ||
      !Number.isInteger(f.bytes) ||
      (f.bytes as number) < 0 ||
      typeof f.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(f.sha256)
    ) {
      bad(`files[${i}] is malformed`);
    }
  }
  const p = o.payload;
  if (
    !isObject(p) ||
    p.encoding !== 'gzip' ||
    !Number.isInteger(p.bytes) ||
    typeof p.sha256 !== 'string' ||
    !/^[0-9a-f]{64}$/.test(p.sha256)
  )
    bad('payload is missing or malformed');
  return { manifest: o as unknown as SnapshotManifest, payloadOffset: nl + 1 };
}

/** Refuses file lists that are not what an export writes: unknown or repeated names, sizes over their caps. */
function checkDeclaredSizes(files: SnapshotFile[]): number {
  const seen = new Set<string>();
  let total = 0;
  for (const f of files) {
    const limit = SNAPSHOT_FILE_LIMITS.get(f.name);
    if (limit === undefined) throw new SnapshotError(`the snapshot holds an unexpected file ${f.name}`);
    if (seen.has(f.name)) throw new SnapshotError(`the manifest lists ${f.name} twice`);
    seen.add(f.name);
    if (f.bytes > limit)
      throw new SnapshotError(`the manifest declares ${f.name} as ${f.bytes} bytes, over the limit of ${limit}`);
    total += f.bytes;
  }
  if (total > MAX_SNAPSHOT_BYTES)
    throw new SnapshotError(`the manifest declares ${total} bytes in all, over the limit of ${MAX_SNAPSHOT_BYTES}`);
  return total;
}

/** Decompresses the payload, never past the `total` bytes the manifest declares (a bomb stops there). */
function gunzipBounded(payload: Buffer, total: number): Buffer {
  try {
    // One byte more than declared, so a payload that holds more is seen as such rather than cut.
    return gunzipSync(payload, { maxOutputLength: total + 1 });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw new SnapshotError(`the payload decompresses to more than the ${total} bytes its manifest declares`);
    }
    throw new SnapshotError(`the payload does not decompress (${(err as Error).message})`);
  }
}

/** Checks the whole container (sizes and checksums) and returns the manifest and each file's bytes. */
export function unpackSnapshot(buf: Buffer): { manifest: SnapshotManifest; files: Map<string, Buffer> } {
  const { manifest, payloadOffset } = readManifest(buf);
  const payload = buf.subarray(payloadOffset);
  if (payload.length < manifest.payload.bytes) {
    throw new SnapshotError(
      `the snapshot is truncated: the payload has ${payload.length} of its ${manifest.payload.bytes} bytes`,
    );
  }
  if (payload.length > manifest.payload.bytes) {
    throw new SnapshotError(
      `the snapshot has ${payload.length - manifest.payload.bytes} unexpected bytes after its payload`,
    );
  }
  const digest = sha256Hex(payload);
  if (digest !== manifest.payload.sha256) {
    throw new SnapshotError(
      `the payload checksum does not match (sha256 ${digest.slice(0, 12)}..., manifest says ` +
        `${manifest.payload.sha256.slice(0, 12)}...): the file is corrupt`,
    );
  }
  const total = checkDeclaredSizes(manifest.files);
  const raw = gunzipBounded(payload, total);
  if (raw.length !== total)
    throw new SnapshotError(`the payload holds ${raw.length} bytes, the manifest lists ${total}`);
  const files = new Map<string, Buffer>();
  let at = 0;
  for (const f of manifest.files) {
    const data = raw.subarray(at, at + f.bytes);
    at += f.bytes;
    if (sha256Hex(data) !== f.sha256) throw new SnapshotError(`${f.name}: checksum does not match the manifest`);
    files.set(f.name, data);
  }
  return { manifest, files };
}
