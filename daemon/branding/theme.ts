// The theme as a tenant sees it: stored fields over the defaults, and a partial update merged into
// the stored fields (docs/branding.md, "Defaults" and "Updating").
import { DEFAULT_BRAND_FONT, isBrandFont, type BrandFont } from '../contract/brand-fonts.js';
import { undrawable } from '../contract/font-coverage.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import {
  DEFAULT_ACCENT_COLOR,
  DEFAULT_PRIMARY_COLOR,
  DISPLAY_NAME_MAX,
  LOGO_PATH,
  type Branding,
  type BrandingPatch,
} from '../contract/schemas/branding.js';
import type { BrandingRow, TenantRow, ThemeColumns } from './repo.js';

export const THEME_FIELDS = ['display_name', 'primary_color', 'accent_color', 'font', 'footer_text'] as const;

/** The tenant's name as a display name: its first 80 characters, so it is always a value PUT accepts. */
function defaultDisplayName(tenant: TenantRow): string {
  return [...tenant.name].slice(0, DISPLAY_NAME_MAX).join('');
}

/** Every field: the stored value, else its default; updated_at is the tenant's creation before any change. */
export function resolveTheme(tenant: TenantRow, row: BrandingRow | undefined): Branding {
  const font = row?.font ?? DEFAULT_BRAND_FONT;
  return {
    display_name: row?.display_name ?? defaultDisplayName(tenant),
    primary_color: row?.primary_color ?? DEFAULT_PRIMARY_COLOR,
    accent_color: row?.accent_color ?? DEFAULT_ACCENT_COLOR,
    // a stored font the embedded set no longer has falls back to the default rather than break reports
    font: isBrandFont(font) ? font : DEFAULT_BRAND_FONT,
    footer_text: row?.footer_text ?? '',
    logo_url: row?.logo_sha256 ? LOGO_PATH : null,
    updated_at: row?.updated_at ?? tenant.created_at,
  };
}

/**
 * The stored theme after a partial update, and the fields whose value it changes (as the tenant sees
 * them: setting a field to the value it already shows is no change).
 */
export function mergeTheme(
  tenant: TenantRow,
  row: BrandingRow | undefined,
  patch: BrandingPatch,
): { next: ThemeColumns; changed: string[] } {
  const shown = resolveTheme(tenant, row);
  const next: ThemeColumns = {
    display_name: row?.display_name ?? null,
    primary_color: row?.primary_color ?? null,
    accent_color: row?.accent_color ?? null,
    font: row?.font ?? null,
    footer_text: row?.footer_text ?? null,
  };
  const changed: string[] = [];
  for (const field of THEME_FIELDS) {
    const value = patch[field];
    if (value === undefined || value === shown[field]) continue;
    next[field] = value;
    changed.push(field);
  }
  return { next, changed };
}

/**
 * Whether the statement fonts draw the theme as it would read after a patch (its display name and
 * footer in its font, with Amiri): a refusal names the field sent (body.font when only the font
 * changed and it cannot draw the text already stored) and the character (docs/reports.md, "Fonts").
 */
export function themeDrawable(tenant: TenantRow, next: ThemeColumns, patch: BrandingPatch): Outcome<null> {
  const theme = resolveTheme(tenant, {
    ...next,
    logo_content_type: null,
    logo_sha256: null,
    logo_bytes: null,
    updated_at: tenant.created_at,
  });
  const font = theme.font as BrandFont;
  for (const field of ['display_name', 'footer_text'] as const) {
    const bad = undrawable(theme[field], font);
    if (!bad) continue;
    const where = patch[field] !== undefined ? `body.${field}` : 'body.font';
    const what =
      where === 'body.font'
        ? `${font} cannot draw ${bad} of the stored ${field}`
        : `${bad} is drawn by neither ${font} nor Amiri`;
    return refuse('UNDRAWABLE_TEXT', `${where}: ${what}; statements embed their fonts and would drop it.`);
  }
  return ok(null);
}
