// Does a logo decode? The magic bytes say PNG or JPEG; this reads the file's structure the way an
// image decoder would, so that a file which only starts like an image is refused at upload instead of
// failing every report later (docs/branding.md, "Logo"). PNG: the chunks in order with their CRCs,
// a sane IHDR, and IDAT data that inflates to exactly the pixels the header announces. JPEG: the
// segments up to the scan, a frame header with a size, and the end-of-image marker.
import { inflateSync } from 'node:zlib';

// CRC-32 (ISO 3309) as PNG chunks carry it; zlib.crc32 only exists from Node 20.15.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Logos wider or taller than this are refused (a report prints them a few centimetres wide). */
export const MAX_LOGO_SIDE = 4096;

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

interface Header { width: number; height: number; bitsPerPixel: number; interlaced: boolean }

function pngHeader(data: Buffer): Header | string {
  if (data.length !== 13) return 'its IHDR chunk has the wrong length';
  const width = data.readUInt32BE(0), height = data.readUInt32BE(4);
  const depth = data[8], colour = data[9];
  if (width === 0 || height === 0) return 'it has no pixels';
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE) return `it is ${width} x ${height} pixels; at most ${MAX_LOGO_SIDE} a side`;
  if (!DEPTHS[colour]?.includes(depth)) return 'its colour type and bit depth are not a valid pair';
  if (data[10] !== 0 || data[11] !== 0 || data[12] > 1) return 'its compression, filter or interlace method is unknown';
  return { width, height, bitsPerPixel: depth * CHANNELS[colour], interlaced: data[12] === 1 };
}

/** Bytes the inflated IDAT stream holds: one filter byte per row, per Adam7 pass when interlaced. */
function pixelBytes(h: Header): number {
  const rows = (w: number, n: number) => (w === 0 || n === 0 ? 0 : n * (1 + Math.ceil((w * h.bitsPerPixel) / 8)));
  if (!h.interlaced) return rows(h.width, h.height);
  const passes = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];
  return passes.reduce((sum, [x0, y0, dx, dy]) => sum + rows(Math.ceil((h.width - x0) / dx), Math.ceil((h.height - y0) / dy)), 0);
}

/** Every row of a non-interlaced image starts with a filter type 0-4. */
function filtersKnown(pixels: Buffer, h: Header): boolean {
  const stride = 1 + Math.ceil((h.width * h.bitsPerPixel) / 8);
  for (let at = 0; at < pixels.length; at += stride) if (pixels[at] > 4) return false;
  return true;
}

/** Why a PNG would not decode, or null when it would. */
export function pngProblem(bytes: Buffer): string | null {
  let at = 8, header: Header | null = null, ended = false;
  const idat: Buffer[] = [];
  while (at < bytes.length && !ended) {
    if (at + 12 > bytes.length) return 'it ends inside a chunk';
    const length = bytes.readUInt32BE(at), type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length) return `its ${type} chunk runs past the end of the file`;
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)) return `its ${type} chunk fails its checksum`;
    if (header === null) {
      if (type !== 'IHDR') return 'it does not start with an IHDR chunk';
      const h = pngHeader(data);
      if (typeof h === 'string') return h;
      header = h;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  if (header === null || !ended) return 'it has no IEND chunk';
  if (idat.length === 0) return 'it has no image data';
  const expected = pixelBytes(header);
  try {
    const pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
    if (pixels.length !== expected) return 'its image data does not match its size';
    return header.interlaced || filtersKnown(pixels, header) ? null : 'a row names an unknown filter';
  } catch {
    return 'its image data does not decompress';
  }
}

const isFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** Why a JPEG would not decode, or null when it would. */
export function jpegProblem(bytes: Buffer): string | null {
  let at = 2, frame = false;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return 'its segments are out of step';
    const marker = bytes[at + 1];
    if (marker === 0xff) { at += 1; continue; }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { at += 2; continue; }
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return 'a segment runs past the end of the file';
    if (isFrame(marker)) {
      if (length < 8) return 'its frame header is too short';
      const height = bytes.readUInt16BE(at + 5), width = bytes.readUInt16BE(at + 7);
      if (width === 0 || height === 0) return 'it has no pixels';
      if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE) return `it is ${width} x ${height} pixels; at most ${MAX_LOGO_SIDE} a side`;
      frame = true;
    }
    if (marker === 0xda) {
      if (!frame) return 'it has no frame header before its scan';
      const tail = bytes.subarray(at + 2 + length);
      return tail.lastIndexOf(Buffer.from([0xff, 0xd9])) >= 0 ? null : 'it has no end-of-image marker';
    }
    at += 2 + length;
  }
  return 'it ends before its image data';
}
