// The fonts a tenant's branding may name (docs/reports.md, "Fonts"). Each is embedded in the daemon
// (an OFL TTF from npm, never a system font); Arabic text is always set in Amiri, whose text layer
// gives the words back in logical order, with the brand font for Latin letters, digits and punctuation.
export const BRAND_FONTS = ['Noto Sans', 'Noto Serif', 'Amiri'] as const;
export type BrandFont = (typeof BRAND_FONTS)[number];
export const DEFAULT_BRAND_FONT: BrandFont = 'Noto Sans';

export function isBrandFont(name: string): name is BrandFont {
  return (BRAND_FONTS as readonly string[]).includes(name);
}
