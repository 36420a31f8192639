// A PNG read as the renderer's decoder (the Rust `png` crate, through Typst) reads it, to refuse at
// upload what it would refuse or crash on (image-structure.ts, docs/branding.md "Logo"): the signature,
// every chunk with its CRC, one sane IHDR first, the critical chunks only the decoder knows, a PLTE of
// 1..256 whole entries before the image data (required for a palette image, refused for greyscale),
// the IDAT chunks consecutive, no animation chunks, IEND; then, with the size bounded first, the image
// data inflated (never past the size its header announces) to exactly that size, every row's filter
// type 0-4, interlaced or not.
import { inflateSync } from 'node:zlib';
import { sizeProblem } from './image-structure.js';

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

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const ANIMATION = new Set(['acTL', 'fcTL', 'fdAT']);

interface Header {
  width: number;
  height: number;
  depth: number;
  colour: number;
  bitsPerPixel: number;
  interlaced: boolean;
}

/** What the chunks seen so far established. */
interface Walk {
  header: Header | null;
  paletteEntries: number;
  idat: Buffer[];
  idatClosed: boolean;
  ended: boolean;
}

function pngHeader(data: Buffer): Header | string {
  if (data.length !== 13) return 'its IHDR chunk has the wrong length';
  const width = data.readUInt32BE(0),
    height = data.readUInt32BE(4);
  const depth = data[8],
    colour = data[9];
  if (!DEPTHS[colour]?.includes(depth)) return 'its colour type and bit depth are not a valid pair';
  if (data[10] !== 0 || data[11] !== 0 || data[12] > 1) return 'its compression, filter or interlace method is unknown';
  const size = sizeProblem(width, height, depth === 16 ? 2 : 1);
  if (size) return size;
  return { width, height, depth, colour, bitsPerPixel: depth * CHANNELS[colour], interlaced: data[12] === 1 };
}

function paletteProblem(w: Walk, h: Header, length: number): string | null {
  if (w.paletteEntries > 0) return 'it has two PLTE chunks';
  if (w.idat.length > 0) return 'its PLTE chunk comes after its image data';
  if (h.colour === 0 || h.colour === 4) return 'it is a greyscale image with a PLTE chunk';
  if (length === 0 || length % 3 !== 0 || length > 256 * 3)
    return `its PLTE chunk is ${length} bytes; a palette is 1 to 256 entries of 3 bytes`;
  if (h.colour === 3 && length / 3 > 2 ** h.depth)
    return `its PLTE chunk has ${length / 3} entries; ${h.depth}-bit indices reach ${2 ** h.depth}`;
  w.paletteEntries = length / 3;
  return null;
}

/** Why the chunk after IHDR breaks the decoder's rules, or null (it is recorded in the walk). */
function chunkProblem(w: Walk, h: Header, type: string, data: Buffer): string | null {
  if (!/^[A-Za-z]{4}$/.test(type)) return 'a chunk type is not four letters';
  if (type !== 'IDAT' && w.idat.length > 0) w.idatClosed = true;
  if (ANIMATION.has(type)) return `it is an animated PNG (${type}); a logo is one still image`;
  switch (type) {
    case 'IHDR':
      return 'it has a second IHDR chunk';
    case 'PLTE':
      return paletteProblem(w, h, data.length);
    case 'IDAT':
      if (w.idatClosed) return 'its IDAT chunks are not consecutive';
      if (h.colour === 3 && w.paletteEntries === 0)
        return 'it is a palette image without its palette (no PLTE chunk before its image data)';
      w.idat.push(data);
      return null;
    case 'IEND':
      w.ended = true;
      return null;
    default:
      // a critical chunk (upper-case first letter) the decoder does not know is an error to it
      return type.charCodeAt(0) & 0x20 ? null : `it has a critical chunk the renderer does not know (${type})`;
  }
}

/** Walks the chunks up to IEND: the header, and the image data, or why not. */
function walkChunks(bytes: Buffer): Walk | string {
  let at = 8;
  const w: Walk = { header: null, paletteEntries: 0, idat: [], idatClosed: false, ended: false };
  while (at < bytes.length && !w.ended) {
    if (at + 12 > bytes.length) return 'it ends inside a chunk';
    const length = bytes.readUInt32BE(at),
      type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length) return `its ${type} chunk runs past the end of the file`;
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length))
      return `its ${type} chunk fails its checksum`;
    if (w.header === null) {
      if (type !== 'IHDR') return 'it does not start with an IHDR chunk';
      const h = pngHeader(data);
      if (typeof h === 'string') return h;
      w.header = h;
    } else {
      const problem = chunkProblem(w, w.header, type, data);
      if (problem) return problem;
    }
    at += 12 + length;
  }
  if (w.header === null || !w.ended) return 'it has no IEND chunk';
  if (w.idat.length === 0) return 'it has no image data';
  return w;
}

/** The byte offset of each row's filter byte in the inflated data: per Adam7 pass when interlaced. */
function rowStarts(h: Header): { starts: number[]; total: number } {
  const starts: number[] = [];
  let total = 0;
  const pass = (w: number, rows: number) => {
    if (w === 0 || rows === 0) return;
    const stride = 1 + Math.ceil((w * h.bitsPerPixel) / 8);
    for (let r = 0; r < rows; r++) starts.push(total + r * stride);
    total += rows * stride;
  };
  if (!h.interlaced) pass(h.width, h.height);
  else {
    for (const [x0, y0, dx, dy] of [
      [0, 0, 8, 8],
      [4, 0, 8, 8],
      [0, 4, 4, 8],
      [2, 0, 4, 4],
      [0, 2, 2, 4],
      [1, 0, 2, 2],
      [0, 1, 1, 2],
    ]) {
      pass(Math.ceil((h.width - x0) / dx), Math.ceil((h.height - y0) / dy));
    }
  }
  return { starts, total };
}

/** Why a PNG would not be drawn by the renderer, or null when it would. */
export function pngProblem(bytes: Buffer): string | null {
  const w = walkChunks(bytes);
  if (typeof w === 'string') return w;
  const { starts, total } = rowStarts(w.header!);
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(w.idat), { maxOutputLength: total + 1 });
  } catch {
    return 'its image data does not decompress to the size its header announces';
  }
  if (pixels.length !== total) return 'its image data does not match its size';
  return starts.every((at) => pixels[at] <= 4) ? null : 'a row names an unknown filter type';
}
