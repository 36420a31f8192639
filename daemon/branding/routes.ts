// Branding routes (tenant, bearer key): read the theme, merge an update into it, upload and read the
// logo. Parse and delegate to branding/service.ts.
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import {
  BrandingLogoResponse,
  BrandingPatchBody,
  BrandingSchema,
  LOGO_TYPES,
  MAX_LOGO_BYTES,
  brandingIssueCode,
} from '../contract/schemas/branding.js';
import { createBrandingService } from './service.js';

const tags = ['branding'];

export function brandingRoutes(deps: Deps): RouteDef[] {
  const svc = createBrandingService(deps);
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/branding',
      auth: 'B',
      tags,
      summary:
        "The tenant's branding, every field: the defaults (the tenant's name, #1F3A5F, #C8102E, Noto Sans, no " +
        'footer, no logo) until a field is changed.',
      response: BrandingSchema,
      handler: ({ tenantId }) => svc.view(tenantId!),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v1/branding',
      auth: 'B',
      tags,
      summary:
        'Merge any subset of display_name, primary_color, accent_color, font and footer_text into the ' +
        'branding; answers the whole branding. {} changes nothing. A refused field changes nothing.',
      body: BrandingPatchBody,
      response: BrandingSchema,
      issueCode: brandingIssueCode,
      errors: ['INVALID_COLOR', 'UNSUPPORTED_FONT', 'UNDRAWABLE_TEXT'],
      handler: ({ tenantId, body, actor }) => svc.update(tenantId!, body, actor),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v1/branding/logo',
      auth: 'B',
      tags,
      summary:
        'Upload the logo: the raw PNG or JPEG bytes (judged by magic bytes, whatever the Content-Type; SVG is ' +
        'refused), at most 512 KiB, that the statement renderer can draw (at most 2048 pixels a side and 16 ' +
        'MiB decoded; else 422 LOGO_NOT_RENDERABLE naming why); stored encrypted under the tenant key. ' +
        'Replaces any previous logo.',
      rawBody: { maxBytes: MAX_LOGO_BYTES },
      response: BrandingLogoResponse,
      errors: ['UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'LOGO_NOT_RENDERABLE'],
      handler: ({ tenantId, raw, actor }) => svc.putLogo(tenantId!, raw ?? Buffer.alloc(0), actor),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/branding/logo',
      auth: 'B',
      tags,
      summary:
        "The tenant's logo (logo_url), byte for byte, with its content type and its sha256 as ETag. 404 " +
        'NOT_FOUND before any upload.',
      errors: ['NOT_FOUND'],
      produces: [...LOGO_TYPES],
      handler: ({ tenantId }) => svc.serveLogo(tenantId!),
    }),
  ];
}
