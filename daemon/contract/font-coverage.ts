// Which characters the statement's embedded fonts can draw (docs/reports.md, "Fonts"), read from the
// fonts' own character maps (the TTF `cmap` table), so the answer is exact for the files the renderer
// embeds. Typst sets statement text in (brand font, Amiri) with fallback off: a character neither has
// would be dropped from the PDF without an error. So text that reaches a statement is refused where it
// is written (a tenant's branding, an investor's name, a broker's names: 422 UNDRAWABLE_TEXT naming the
// field), and the renderer checks the whole document again before it draws (a report that would drop a
// glyph fails with RENDER_FAILED instead of becoming ready).
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { BRAND_FONTS, type BrandFont } from './brand-fonts.js';

const require = createRequire(import.meta.url);

const PACKAGES: Record<BrandFont, [string, string]> = {
  'Noto Sans': ['noto-sans', 'NotoSans'],
  'Noto Serif': ['noto-serif', 'NotoSerif'],
  Amiri: ['amiri', 'Amiri'],
};

/** The regular and bold TTF of a brand font (an OFL font from npm, never a system font). */
export function fontFiles(font: BrandFont): string[] {
  const [pkg, stem] = PACKAGES[font];
  const dir = dirname(require.resolve(`@expo-google-fonts/${pkg}/package.json`));
  return [join(dir, `400Regular/${stem}_400Regular.ttf`), join(dir, `700Bold/${stem}_700Bold.ttf`)];
}

/** Every TTF the statement renderer embeds. */
export const embeddedFontFiles = (): string[] => BRAND_FONTS.flatMap(fontFiles);

/** Whether a format 4 subtable (at `at` in `b`) maps c to a glyph other than .notdef: the segment that
 * holds c, found by binary search over the segments' end codes. */
function inFormat4(b: Buffer, at: number, c: number): boolean {
  if (c >= 0xffff) return false;
  const segs = b.readUInt16BE(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segs * 2 + 2;
  const deltas = starts + segs * 2;
  const offsets = deltas + segs * 2;
  let lo = 0;
  let hi = segs - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (b.readUInt16BE(ends + mid * 2) < c) lo = mid + 1;
    else hi = mid;
  }
  const i = lo;
  if (segs === 0 || b.readUInt16BE(ends + i * 2) < c) return false;
  const start = b.readUInt16BE(starts + i * 2);
  if (c < start) return false;
  const ro = b.readUInt16BE(offsets + i * 2);
  let g = ro === 0 ? c : b.readUInt16BE(offsets + i * 2 + ro + (c - start) * 2);
  if (g !== 0) g = (g + b.readInt16BE(deltas + i * 2)) & 0xffff;
  return g !== 0;
}

/** Whether a format 12 subtable maps c: the group of consecutive characters that holds it, by binary search. */
function inFormat12(b: Buffer, at: number, c: number): boolean {
  let lo = 0;
  let hi = b.readUInt32BE(at + 12) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const g = at + 16 + mid * 12;
    if (b.readUInt32BE(g + 4) < c) lo = mid + 1;
    else if (b.readUInt32BE(g) > c) hi = mid - 1;
    else return b.readUInt32BE(g + 8) + (c - b.readUInt32BE(g)) !== 0;
  }
  return false;
}

/** A TTF's `cmap` table and where its Unicode subtables are in it (formats 4 and 12). */
export interface Cmap {
  table: Buffer;
  subtables: Array<{ format: 4 | 12; at: number }>;
}

/**
 * A TTF's character map: only its `cmap` table is read (a few kilobytes of a file of hundreds), and
 * characters are looked up in it when asked, never listed: a request with a name pays for the few
 * characters of that name, not for every character of six fonts.
 */
export function cmapOf(file: string): Cmap {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(12);
    readSync(fd, head, 0, 12, 0);
    const tables = head.readUInt16BE(4);
    const dir = Buffer.alloc(tables * 16);
    readSync(fd, dir, 0, dir.length, 12);
    let table: Buffer | undefined;
    for (let i = 0; i < tables; i++) {
      if (dir.toString('latin1', i * 16, i * 16 + 4) !== 'cmap') continue;
      table = Buffer.alloc(dir.readUInt32BE(i * 16 + 12));
      readSync(fd, table, 0, table.length, dir.readUInt32BE(i * 16 + 8));
    }
    if (!table) throw new Error(`${file}: no cmap table`);
    const subtables: Cmap['subtables'] = [];
    for (let i = 0; i < table.readUInt16BE(2); i++) {
      const rec = 4 + i * 8;
      const platform = table.readUInt16BE(rec);
      const encoding = table.readUInt16BE(rec + 2);
      if (!(platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10)))) continue;
      const at = table.readUInt32BE(rec + 4);
      const format = table.readUInt16BE(at);
      if (format === 4 || format === 12) subtables.push({ format, at });
    }
    return { table, subtables };
  } finally {
    closeSync(fd);
  }
}

/** Whether a character map maps c to a glyph (in any of its Unicode subtables). */
export function mapped(m: Cmap, c: number): boolean {
  return m.subtables.some((s) => (s.format === 4 ? inFormat4(m.table, s.at, c) : inFormat12(m.table, s.at, c)));
}

const cache = new Map<BrandFont, Cmap[]>();

/** Whether a brand font draws c in both weights (statement text is set in regular and bold). */
function drawnBy(font: BrandFont, c: number): boolean {
  let maps = cache.get(font);
  if (!maps) {
    maps = fontFiles(font).map(cmapOf);
    cache.set(font, maps);
  }
  return maps.every((m) => mapped(m, c));
}

/**
 * Characters that are laid out without a glyph: line feed and tab (a line break, a space), and the
 * default-ignorable format characters a statement uses or a name may carry (bidi marks and isolates,
 * joiners, variation selectors), which the shaper hides.
 */
function needsNoGlyph(c: number): boolean {
  return (
    c === 0x0a ||
    c === 0x09 ||
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x2069) ||
    (c >= 0xfe00 && c <= 0xfe0f) ||
    c === 0xfeff ||
    c === 0x00ad
  );
}

/** Whether a statement set in `font` (with Amiri, as the template sets every statement) draws c. */
export function drawable(c: number, font: BrandFont): boolean {
  return needsNoGlyph(c) || drawnBy(font, c) || drawnBy('Amiri', c);
}

/**
 * The first character of a text that a statement in `font` could not draw, as "U+XXXX 'x'", or null.
 * With no font given, the text must be drawable in every brand font (a name that may reach the
 * statement of any tenant, whichever font its branding names).
 */
export function undrawable(text: string, font?: BrandFont): string | null {
  const fonts = font ? [font] : BRAND_FONTS;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (!fonts.every((f) => drawable(c, f)))
      return `U+${c.toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(ch)}`;
  }
  return null;
}

/**
 * A zod check for text that reaches every tenant's statements (a name): drawable in every brand font.
 * Its issue carries the code UNDRAWABLE_TEXT (params.error_code), which the pipeline answers unless
 * the route maps the field to a code of its own.
 */
export function drawableText<T extends z.ZodType<string>>(schema: T) {
  return schema.superRefine((s, ctx) => {
    const bad = undrawable(s);
    if (bad)
      ctx.addIssue({
        code: 'custom',
        message: `${bad} is drawn by none of the statement fonts (${BRAND_FONTS.join(', ')})`,
        params: { error_code: 'UNDRAWABLE_TEXT' },
      });
  });
}
