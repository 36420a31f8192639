// Wire schemas of tenant branding (docs/branding.md): the theme a tenant's reports and statements are
// set in, the partial update that merges into it, and the logo upload's answer. The field rules live
// here, next to the codes they answer with, so the daemon, the documentation and the CLI agree.
import { z } from 'zod';
import { timestamp } from './formats.js';
import type { ErrorCode } from '../errors.js';
import { BRAND_FONTS, DEFAULT_BRAND_FONT } from '../brand-fonts.js';

export const DEFAULT_PRIMARY_COLOR = '#1F3A5F';
export const DEFAULT_ACCENT_COLOR = '#C8102E';
export const DISPLAY_NAME_MAX = 80;
export const FOOTER_TEXT_MAX = 300;
/** A logo is at most 512 KiB of PNG or JPEG. */
export const MAX_LOGO_BYTES = 512 * 1024;
/** Where a tenant's logo is served (bearer auth, like every tenant read). */
export const LOGO_PATH = '/v1/branding/logo';
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** Exactly `#rrggbb`: a hash and six hexadecimal digits (either case; stored in upper case). */
export const COLOR_RE = /^#[0-9A-Fa-f]{6}$/;
export const FONT_LIST = BRAND_FONTS.join(', ');
export { DEFAULT_BRAND_FONT };

/** Characters as people count them (code points, as SQLite's length() does), not UTF-16 units. */
export function charCount(s: string): number {
  return [...s].length;
}

/** A refused value as a message shows it: JSON, cut after 40 characters. */
function shown(input: unknown): string {
  const text = JSON.stringify(input) ?? String(input);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const color = (what: string) =>
  z
    .string()
    .regex(COLOR_RE, {
      error: (iss) =>
        `${shown(iss.input)} is not #rrggbb: a # and six hex digits, e.g. #1F3A5F (short forms such as #fff ` +
        `and names such as red are refused)`,
    })
    .toUpperCase()
    .describe(`${what}: #rrggbb (six hex digits; answered in upper case)`);

const NO_CONTROLS = /^[^\x00-\x1f\x7f]*$/;
const NO_CONTROLS_BUT_NEWLINE = /^[^\x00-\x09\x0b-\x1f\x7f]*$/;

export const BrandingPatchBody = z
  .strictObject({
    display_name: z
      .string()
      .trim()
      .refine(
        (s) => charCount(s) >= 1 && charCount(s) <= DISPLAY_NAME_MAX,
        `1-${DISPLAY_NAME_MAX} characters after trimming`,
      )
      .refine((s) => NO_CONTROLS.test(s), 'one line, no control characters')
      .optional()
      .describe(`the name reports show, 1-${DISPLAY_NAME_MAX} characters (trimmed), one line`),
    primary_color: color('headings and rules').optional(),
    accent_color: color('highlights').optional(),
    font: z
      .enum(BRAND_FONTS, { error: (iss) => `${shown(iss.input)} is not an embedded font; use one of: ${FONT_LIST}` })
      .optional()
      .describe(`the body font of reports, one of the embedded set (${FONT_LIST})`),
    footer_text: z
      .string()
      .trim()
      .refine((s) => charCount(s) <= FOOTER_TEXT_MAX, `at most ${FOOTER_TEXT_MAX} characters after trimming`)
      .refine((s) => NO_CONTROLS_BUT_NEWLINE.test(s), 'no control characters but line feeds')
      .optional()
      .describe(`printed at the foot of every report page, 0-${FOOTER_TEXT_MAX} characters (trimmed); "" for none`),
  })
  .describe('Any subset of the theme fields; what is sent replaces that field, the rest stays. {} changes nothing.')
  .meta({ id: 'BrandingUpdate' });
export type BrandingPatch = z.infer<typeof BrandingPatchBody>;

const PATCH_CODES: Record<string, ErrorCode> = {
  primary_color: 'INVALID_COLOR',
  accent_color: 'INVALID_COLOR',
  font: 'UNSUPPORTED_FONT',
};

/** A bad colour is INVALID_COLOR, a font outside the set UNSUPPORTED_FONT; anything else VALIDATION_FAILED. */
export function brandingIssueCode(path: readonly PropertyKey[], where: string): ErrorCode | undefined {
  const field = String(path[0]);
  return where === 'body' && Object.hasOwn(PATCH_CODES, field) ? PATCH_CODES[field] : undefined;
}

export const BrandingSchema = z
  .object({
    display_name: z.string().describe("the name reports show; the tenant's name until set"),
    primary_color: z.string().describe(`#RRGGBB; default ${DEFAULT_PRIMARY_COLOR}`),
    accent_color: z.string().describe(`#RRGGBB; default ${DEFAULT_ACCENT_COLOR}`),
    font: z.enum(BRAND_FONTS).describe(`one of the embedded fonts; default ${DEFAULT_BRAND_FONT}`),
    footer_text: z.string().describe('printed at the foot of every report page; default ""'),
    logo_url: z
      .string()
      .nullable()
      .describe(
        `${LOGO_PATH} (a path on the sandbox's base URL, bearer auth) once a logo is uploaded; null until then`,
      ),
    updated_at: timestamp().describe(
      "the last change of any field or the logo; the tenant's creation time before the first",
    ),
  })
  .meta({ id: 'Branding' });
export type Branding = z.infer<typeof BrandingSchema>;

export const BrandingLogoResponse = z
  .object({
    logo_url: z.string().describe(`${LOGO_PATH}: GET it with the tenant's bearer key`),
    content_type: z.enum(LOGO_TYPES).describe('judged by the magic bytes, whatever the Content-Type said'),
    bytes: z.int().describe('size of the logo in bytes'),
    sha256: z
      .string()
      .describe('SHA-256 of the logo bytes (64 lowercase hex characters); also the ETag of GET logo_url'),
  })
  .meta({ id: 'BrandingLogo' });
export type BrandingLogo = z.infer<typeof BrandingLogoResponse>;

/** The logo itself, opened from its seal: what a report embeds. */
export interface BrandLogo {
  bytes: Buffer;
  contentType: LogoType;
  sha256: string;
}

/**
 * The branding a report is set in (daemon/branding/service.ts, brandingOf): every wire field (`font`
 * is always one of BRAND_FONTS), and the logo's bytes (null when none was uploaded).
 */
export type BrandingForReport = Branding & { logo: BrandLogo | null };
