// A JPEG read marker by marker as the renderer's decoder (`zune-jpeg`, through Typst) reads it, to
// refuse at upload what it cannot decode (image-structure.ts, docs/branding.md "Logo"): one frame
// header, Huffman-coded baseline, extended or progressive (SOF0, SOF1, SOF2) at 8 bits, 1, 3 or 4
// components with sampling factors 1, 2 or 4, bounded dimensions; every table a scan uses defined
// before it; an Adobe segment naming a known colour transform; and the end-of-image marker. The
// entropy-coded data between the markers is skipped, not decoded: the decoder draws damaged scan data
// (as grey blocks) rather than refusing it.
import { sizeProblem } from './image-structure.js';

interface Frame {
  progressive: boolean;
  components: Map<number, number>;
}

interface Walk {
  frame: Frame | null;
  quant: Set<number>;
  dc: Set<number>;
  ac: Set<number>;
  scans: number;
}

const SAMPLING = new Set([1, 2, 4]);

/** Why a frame header (SOFn) is one the decoder cannot read, or null (it is recorded in the walk). */
function frameProblem(w: Walk, marker: number, data: Buffer): string | null {
  if (w.frame) return 'it has a second frame header';
  if (marker === 0xc3) return 'it is a lossless JPEG (SOF3)';
  if (marker >= 0xc5 && marker <= 0xc7) return `it is a hierarchical JPEG (SOF${marker - 0xc0})`;
  if (marker >= 0xc9)
    return `it is an arithmetic-coded JPEG (SOF${marker - 0xc0}); the renderer reads Huffman-coded JPEGs only`;
  if (data.length < 6) return 'its frame header is too short';
  if (data[0] !== 8) return `its samples are ${data[0]} bits; the renderer reads 8-bit JPEGs only`;
  const n = data[5];
  if (n !== 1 && n !== 3 && n !== 4)
    return `it has ${n} colour components; the renderer reads 1 (grey), 3 (colour) or 4 (CMYK)`;
  if (data.length !== 6 + 3 * n) return 'its frame header has the wrong length';
  const size = sizeProblem(data.readUInt16BE(3), data.readUInt16BE(1), 1);
  if (size) return size;
  const components = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const id = data[6 + 3 * i],
      sampling = data[7 + 3 * i],
      table = data[8 + 3 * i];
    if (components.has(id)) return 'two of its components have the same id';
    if (!SAMPLING.has(sampling >> 4) || !SAMPLING.has(sampling & 15))
      return `a component's sampling factors (${sampling >> 4} x ${sampling & 15}) are not 1, 2 or 4`;
    if (table > 3) return 'a component names a quantisation table past 3';
    components.set(id, table);
  }
  w.frame = { progressive: marker === 0xc2, components };
  return null;
}

/** DQT: one or more tables of 64 values, 8- or 16-bit. */
function quantProblem(w: Walk, data: Buffer): string | null {
  for (let at = 0; at < data.length; ) {
    const precision = data[at] >> 4,
      id = data[at] & 15;
    if (precision > 1 || id > 3) return 'a quantisation table has an unknown precision or id';
    at += 1 + 64 * (precision + 1);
    if (at > data.length) return 'a quantisation table runs past its segment';
    w.quant.add(id);
  }
  return null;
}

/**
 * The number of codes of a Huffman table from its 16 counts of codes per length, or null when they do
 * not fit: the canonical code of each length must stay below 2^length (libjpeg's and the renderer's
 * "bad Huffman table"), at most 256 codes.
 */
function huffmanCodes(counts: Buffer): number | null {
  let code = 0,
    total = 0;
  for (let length = 1; length <= 16; length++) {
    code += counts[length - 1];
    total += counts[length - 1];
    if (code >= 2 ** length) return null;
    code *= 2;
  }
  return total <= 256 ? total : null;
}

/** DHT: one or more Huffman tables, each 16 counts then that many values. */
function huffmanProblem(w: Walk, data: Buffer): string | null {
  for (let at = 0; at < data.length; ) {
    if (at + 17 > data.length) return 'a Huffman table runs past its segment';
    const cls = data[at] >> 4,
      id = data[at] & 15;
    if (cls > 1 || id > 3) return 'a Huffman table has an unknown class or id';
    const count = huffmanCodes(data.subarray(at + 1, at + 17));
    if (count === null) return 'a Huffman table has more codes than its code lengths allow';
    if (at + 17 + count > data.length) return 'a Huffman table runs past its segment';
    // a DC table's values are bit counts of a difference: the renderer refuses one over 15
    if (cls === 0 && data.subarray(at + 17, at + 17 + count).some((v) => v > 15))
      return 'a DC Huffman table has a value over 15';
    at += 17 + count;
    (cls === 0 ? w.dc : w.ac).add(id);
  }
  return null;
}

/** SOS: the components it codes are the frame's, and every table it uses is defined. */
function scanProblem(w: Walk, data: Buffer): string | null {
  const frame = w.frame;
  if (!frame) return 'it has no frame header before its scan';
  const n = data[0];
  if (n < 1 || n > 4 || data.length !== 4 + 2 * n) return 'its scan header has the wrong length';
  const spectralStart = data[1 + 2 * n],
    spectralEnd = data[2 + 2 * n],
    approxHigh = data[3 + 2 * n] >> 4,
    approxLow = data[3 + 2 * n] & 15;
  if (
    frame.progressive
      ? spectralStart > spectralEnd || spectralEnd > 63 || approxHigh > 13 || approxLow > 13
      : spectralStart !== 0 || spectralEnd !== 63
  ) {
    return 'its scan header names a spectral selection or approximation out of range';
  }
  const needsDc = !frame.progressive || (spectralStart === 0 && approxHigh === 0);
  const needsAc = !frame.progressive || spectralStart > 0;
  for (let i = 0; i < n; i++) {
    const quant = frame.components.get(data[1 + 2 * i]);
    if (quant === undefined) return 'its scan names a component its frame does not have';
    if (!w.quant.has(quant)) return 'a component uses a quantisation table the file never defines';
    const tables = data[2 + 2 * i];
    if ((needsDc && !w.dc.has(tables >> 4)) || (needsAc && !w.ac.has(tables & 15)))
      return 'a scan uses a Huffman table the file never defines';
  }
  w.scans += 1;
  return null;
}

/** APP14 "Adobe": its colour transform is 0 (none), 1 (YCbCr) or 2 (YCCK). */
function adobeProblem(data: Buffer): string | null {
  if (data.length < 12 || data.toString('latin1', 0, 5) !== 'Adobe') return null;
  return data[11] <= 2 ? null : `its Adobe segment names an unknown colour transform (${data[11]})`;
}

/** Why the segment with this marker is one the decoder refuses, or null. */
function segmentProblem(w: Walk, marker: number, data: Buffer): string | null {
  if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
    return frameProblem(w, marker, data);
  if (marker === 0xdb) return quantProblem(w, data);
  if (marker === 0xc4) return huffmanProblem(w, data);
  if (marker === 0xda) return scanProblem(w, data);
  if (marker === 0xcc)
    return 'it is arithmetic-coded (it has a DAC segment); the renderer reads Huffman-coded JPEGs only';
  if (marker === 0xee) return adobeProblem(data);
  if (marker === 0xdd) return data.length === 2 ? null : 'its restart interval segment has the wrong length';
  if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) return null;
  return `it has a marker the renderer does not read (0x${marker.toString(16).toUpperCase()})`;
}

/** The offset of the next marker after entropy-coded data at `at` (stuffed 0xFF00 and restarts skipped). */
function afterEntropyData(bytes: Buffer, at: number): number {
  for (let i = bytes.indexOf(0xff, at); i >= 0; i = bytes.indexOf(0xff, i + 1)) {
    let j = i + 1;
    while (bytes[j] === 0xff) j++;
    if (j >= bytes.length) return bytes.length;
    const m = bytes[j];
    if (m !== 0x00 && (m < 0xd0 || m > 0xd7)) return j - 1;
    i = j;
  }
  return bytes.length;
}

/** Why a JPEG would not be drawn by the renderer, or null when it would. */
export function jpegProblem(bytes: Buffer): string | null {
  const w: Walk = { frame: null, quant: new Set(), dc: new Set(), ac: new Set(), scans: 0 };
  let at = 2;
  while (at + 2 <= bytes.length) {
    if (bytes[at] !== 0xff) return 'its segments are out of step';
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd9) return w.scans > 0 ? null : 'it ends before its image data';
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd8) return 'it has a second start-of-image marker';
    if (at + 4 > bytes.length) break;
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return 'a segment runs past the end of the file';
    const problem = segmentProblem(w, marker, bytes.subarray(at + 4, at + 2 + length));
    if (problem) return problem;
    at += 2 + length;
    if (marker === 0xda) at = afterEntropyData(bytes, at);
  }
  return w.scans > 0 ? 'it has no end-of-image marker' : 'it ends before its image data';
}
