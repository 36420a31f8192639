// The statement fonts' character maps are looked up a character at a time (daemon/contract/font-coverage.ts:
// only the cmap table is read, and a code point is found by binary search in its subtables) instead of
// listing every character of six fonts on a daemon's first name. The lookup must say exactly what the
// listing said: here the listing is written again, independently (every segment of every Unicode
// subtable walked, from the whole file), and the two agree on every code point of every embedded font.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cmapOf, embeddedFontFiles, mapped, undrawable } from '../../daemon/contract/font-coverage.js';

/** Every code point a TTF's Unicode subtables (formats 4 and 12) map to a glyph other than .notdef. */
function listed(file: string): Set<number> {
  const b = readFileSync(file);
  let cmap = -1;
  for (let i = 0; i < b.readUInt16BE(4); i++)
    if (b.toString('latin1', 12 + i * 16, 16 + i * 16) === 'cmap') cmap = b.readUInt32BE(20 + i * 16);
  const out = new Set<number>();
  for (let i = 0; i < b.readUInt16BE(cmap + 2); i++) {
    const rec = cmap + 4 + i * 8;
    const [platform, encoding] = [b.readUInt16BE(rec), b.readUInt16BE(rec + 2)];
    if (!(platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10)))) continue;
    const at = cmap + b.readUInt32BE(rec + 4);
    if (b.readUInt16BE(at) === 4) {
      const segs = b.readUInt16BE(at + 6) / 2;
      const [ends, starts] = [at + 14, at + 14 + segs * 2 + 2];
      const [deltas, offsets] = [starts + segs * 2, starts + segs * 4];
      for (let s = 0; s < segs; s++) {
        const [end, start, ro] = [
          b.readUInt16BE(ends + s * 2),
          b.readUInt16BE(starts + s * 2),
          b.readUInt16BE(offsets + s * 2),
        ];
        for (let c = start; c <= end && c !== 0xffff; c++) {
          let g = ro === 0 ? c : b.readUInt16BE(offsets + s * 2 + ro + (c - start) * 2);
          if (g !== 0) g = (g + b.readInt16BE(deltas + s * 2)) & 0xffff;
          if (g !== 0) out.add(c);
        }
      }
    } else if (b.readUInt16BE(at) === 12) {
      for (let g = 0; g < b.readUInt32BE(at + 12); g++) {
        const [start, end, glyph] = [0, 4, 8].map((o) => b.readUInt32BE(at + 16 + g * 12 + o));
        for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) out.add(c);
      }
    }
  }
  return out;
}

describe('the statement fonts, looked up a character at a time', () => {
  it.each(embeddedFontFiles().map((f) => [f.split('/').pop()!, f]))(
    '%s: a code point is mapped exactly when walking every subtable of the whole file lists it',
    (_name, file) => {
      const all = listed(file);
      expect(all.size).toBeGreaterThan(200);
      const m = cmapOf(file);
      const differ: number[] = [];
      for (let c = 0; c <= 0x10ffff && differ.length < 5; c++) if (mapped(m, c) !== all.has(c)) differ.push(c);
      expect(differ.map((c) => `U+${c.toString(16).toUpperCase()}`)).toEqual([]);
    },
  );

  it('a name in Latin and Arabic letters is drawable, and the first character of a script none has is named', () => {
    expect(undrawable('Omar Hassan عمر حسن')).toBeNull();
    expect(undrawable('Nile தமிழ்')).toBe('U+0BA4 "த"');
    expect(undrawable('Licensed 😀', 'Noto Serif')).toBe('U+1F600 "😀"');
  });
});
