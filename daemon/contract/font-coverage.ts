// Which characters the statement's embedded fonts can draw (docs/reports.md, "Fonts"), read from the
// fonts' own character maps (the TTF `cmap` table), so the answer is exact for the files the renderer
// embeds. Typst sets statement text in (brand font, Amiri) with fallback off: a character neither has
// would be dropped from the PDF without an error. So text that reaches a statement is refused where it
// is written (a tenant's branding, an investor's name, a broker's names: 422 UNDRAWABLE_TEXT naming the
// field), and the renderer checks the whole document again before it draws (a report that would drop a
// glyph fails with RENDER_FAILED instead of becoming ready).
import { readFileSync } from 'node:fs';
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

/** The code points a format 4 subtable maps to a glyph other than .notdef. */
function format4(b: Buffer, at: number, out: Set<number>): void {
  const segs = b.readUInt16BE(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segs * 2 + 2;
  const deltas = starts + segs * 2;
  const offsets = deltas + segs * 2;
  for (let i = 0; i < segs; i++) {
    const end = b.readUInt16BE(ends + i * 2);
    const start = b.readUInt16BE(starts + i * 2);
    const delta = b.readInt16BE(deltas + i * 2);
    const ro = b.readUInt16BE(offsets + i * 2);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let g = ro === 0 ? c : b.readUInt16BE(offsets + i * 2 + ro + (c - start) * 2);
      if (g !== 0) g = (g + delta) & 0xffff;
      if (g !== 0) out.add(c);
    }
  }
}

/** The code points a format 12 subtable maps (groups of consecutive characters). */
function format12(b: Buffer, at: number, out: Set<number>): void {
  const groups = b.readUInt32BE(at + 12);
  for (let i = 0; i < groups; i++) {
    const g = at + 16 + i * 12;
    const start = b.readUInt32BE(g);
    const end = b.readUInt32BE(g + 4);
    const glyph = b.readUInt32BE(g + 8);
    for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) out.add(c);
  }
}

/** The characters one TTF maps to a glyph, from its Unicode cmap subtables. */
export function cmapOf(file: string): Set<number> {
  const b = readFileSync(file);
  const tables = b.readUInt16BE(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++)
    if (b.toString('latin1', 12 + i * 16, 16 + i * 16) === 'cmap') cmap = b.readUInt32BE(20 + i * 16);
  if (cmap < 0) throw new Error(`${file}: no cmap table`);
  const out = new Set<number>();
  const subtables = b.readUInt16BE(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const rec = cmap + 4 + i * 8;
    const platform = b.readUInt16BE(rec);
    const encoding = b.readUInt16BE(rec + 2);
    if (!(platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10)))) continue;
    const at = cmap + b.readUInt32BE(rec + 4);
    const format = b.readUInt16BE(at);
    if (format === 4) format4(b, at, out);
    else if (format === 12) format12(b, at, out);
  }
  return out;
}

const cache = new Map<BrandFont, Set<number>>();

/** What a brand font draws in both weights (statement text is set in regular and bold). */
function drawnBy(font: BrandFont): Set<number> {
  let set = cache.get(font);
  if (!set) {
    const [regular, bold] = fontFiles(font).map(cmapOf);
    set = new Set([...regular].filter((c) => bold.has(c)));
    cache.set(font, set);
  }
  return set;
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
  return needsNoGlyph(c) || drawnBy(font).has(c) || drawnBy('Amiri').has(c);
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
