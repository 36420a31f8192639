// Image files for tests: a real PNG from a pixel function, and a real image of an exact byte size
// whose bulk is incompressible random bytes (a private ancillary chunk that decoders skip), so that
// any 32-byte window of it identifies it on disk.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function crc32(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function parts(
  w: number,
  h: number,
  pixel: (x: number, y: number) => [number, number, number],
): [Buffer, Buffer, Buffer] {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) raw.set(pixel(x, y), y * (w * 3 + 1) + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return [pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))];
}

/** An 8-bit RGB PNG, w x h, each pixel from `pixel`. */
export function makePng(w: number, h: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  return Buffer.concat([SIGNATURE, ...parts(w, h, pixel)]);
}

/** A decodable 4 x 4 PNG of exactly `size` bytes (at least 100), padded with random bytes. */
export function paddedPng(size: number): Buffer {
  const [ihdr, idat, iend] = parts(4, 4, (x, y) => [x * 60, y * 60, 128]);
  const pad = size - SIGNATURE.length - ihdr.length - idat.length - iend.length - 12;
  if (pad < 0) throw new Error(`paddedPng: ${size} bytes is too small`);
  const png = Buffer.concat([SIGNATURE, ihdr, idat, pngChunk('paDd', randomBytes(pad)), iend]);
  if (png.length !== size) throw new Error('paddedPng: size arithmetic');
  return png;
}

/** A small real JPEG (a page rendered by pdftoppm, 48 pixels tall). */
export const JPEG_LOGO = readFileSync(new URL('../fixtures/logo.jpg', import.meta.url));

/** The JPEG above with a comment segment of `noise` random bytes after its SOI marker. */
export function noisyJpeg(noise: number): Buffer {
  const len = Buffer.alloc(2);
  len.writeUInt16BE(noise + 2);
  return Buffer.concat([
    JPEG_LOGO.subarray(0, 2),
    Buffer.from([0xff, 0xfe]),
    len,
    randomBytes(noise),
    JPEG_LOGO.subarray(2),
  ]);
}

export interface PngSpec {
  width: number;
  height: number;
  depth: number;
  /** PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colour: number;
  interlace?: 0 | 1;
  /** The filtered scanlines to deflate; default all zeros (filter 0, black) of the right size. */
  rows?: Buffer;
  /** Chunks between IHDR and IDAT (PLTE, tRNS, ...). */
  before?: Buffer[];
  /** Chunks between IDAT and IEND. */
  after?: Buffer[];
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** A PNG built chunk by chunk as `spec` says, valid or not: the way an attacker would write one. */
export function pngOf(spec: PngSpec): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(spec.width, 0);
  ihdr.writeUInt32BE(spec.height, 4);
  ihdr[8] = spec.depth;
  ihdr[9] = spec.colour;
  ihdr[12] = spec.interlace ?? 0;
  const stride = 1 + Math.ceil((spec.width * spec.depth * (CHANNELS[spec.colour] ?? 1)) / 8);
  const rows = spec.rows ?? Buffer.alloc(stride * spec.height);
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', ihdr),
    ...(spec.before ?? []),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    ...(spec.after ?? []),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** JPEG_LOGO with its frame header (SOF0) changed: another marker (0xC9 arithmetic, 0xC1 extended...), another
 * precision. */
export function jpegWithFrame(opts: {
  marker?: number;
  precision?: number;
  width?: number;
  height?: number;
  sampling?: number;
}): Buffer {
  const bytes = Buffer.from(JPEG_LOGO);
  const at = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  if (opts.marker !== undefined) bytes[at + 1] = opts.marker;
  if (opts.precision !== undefined) bytes[at + 4] = opts.precision;
  if (opts.height !== undefined) bytes.writeUInt16BE(opts.height, at + 5);
  if (opts.width !== undefined) bytes.writeUInt16BE(opts.width, at + 7);
  if (opts.sampling !== undefined) bytes[at + 11] = opts.sampling;
  return bytes;
}

/** JPEG_LOGO with `segment` (marker and payload; the length is computed) inserted after its SOI. */
export function jpegWithSegment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([JPEG_LOGO.subarray(0, 2), head, payload, JPEG_LOGO.subarray(2)]);
}
