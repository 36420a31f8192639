// Branding: one theme per tenant (docs/branding.md), the look of the tenant's reports and statements.
// The tenant reads every field (defaults until it changes one), updates any subset of the theme
// fields, and uploads a logo; reports take the branding current when they are generated (brandingOf).
//
// Guarantees:
//  1. Tenant-scoped: every read and write names the caller's tenant; another tenant's branding is
//     neither seen nor changed.
//  2. A refused update changes nothing: the wire schema refuses a bad field before the handler runs
//     (INVALID_COLOR, UNSUPPORTED_FONT, VALIDATION_FAILED), text the statement fonts cannot draw in the
//     merged theme's font is a refusal value (UNDRAWABLE_TEXT), a bad logo is a refusal value
//     (UNSUPPORTED_MEDIA_TYPE, PAYLOAD_TOO_LARGE), and the table's constraints check the rules again.
//  3. The logo is stored only sealed under the tenant's data key (sealed.ts), and opened only to be
//     served to its tenant or embedded in its reports.
//  4. Every change is audited: the pipeline audits each successful request, and a change of value adds
//     branding.updated (the fields changed) or branding.logo_uploaded (type, size, digest).
import type { Deps } from '../deps.js';
import type { Db } from '../store/db.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { BytesReply } from '../contract/route.js';
import {
  LOGO_PATH,
  type Branding,
  type BrandingForReport,
  type BrandingLogo,
  type BrandingPatch,
  type LogoType,
} from '../contract/schemas/branding.js';
import { sha256 } from '../store/crypto.js';
import { createBrandingRepo, type BrandingRepo, type TenantRow } from './repo.js';
import { mergeTheme, resolveTheme, themeDrawable } from './theme.js';
import { checkLogo } from './validate.js';
import { openLogo, sealLogo } from './sealed.js';

export type BrandingDeps = Pick<Deps, 'db' | 'keys' | 'audit' | 'nowIso'>;

interface BrandingCtx extends BrandingDeps {
  repo: BrandingRepo;
}

/** The caller's tenant row; a tenant that authenticated exists, so its absence is a bug. */
function tenantOf(ctx: Pick<BrandingCtx, 'repo'>, tenantId: string): TenantRow {
  const tenant = ctx.repo.tenant(tenantId);
  if (!tenant) throw new Error(`unknown tenant ${tenantId}`);
  return tenant;
}

export function viewBranding(ctx: Pick<BrandingCtx, 'repo'>, tenantId: string): Branding {
  return resolveTheme(tenantOf(ctx, tenantId), ctx.repo.row(tenantId));
}

/** Merges the fields sent into the theme; {} and values equal to the current ones change nothing. */
export function updateBranding(
  ctx: BrandingCtx,
  tenantId: string,
  patch: BrandingPatch,
  actor: string,
): Outcome<Branding> {
  const tenant = tenantOf(ctx, tenantId);
  const { next, changed } = mergeTheme(tenant, ctx.repo.row(tenantId), patch);
  const drawable = themeDrawable(tenant, next, patch);
  if (!drawable.ok) return drawable;
  if (changed.length > 0) {
    ctx.repo.putTheme(tenantId, next, ctx.nowIso());
    ctx.audit.append({ actor, action: 'branding.updated', subject: tenantId, tenantId, detail: { fields: changed } });
  }
  return ok(viewBranding(ctx, tenantId));
}

/** Replaces the logo: PNG or JPEG by magic bytes, at most 512 KiB, sealed before it is stored. */
export function putLogo(ctx: BrandingCtx, tenantId: string, bytes: Buffer, actor: string): Outcome<BrandingLogo> {
  const checked = checkLogo(bytes);
  if (!checked.ok) return checked;
  tenantOf(ctx, tenantId);
  const logo = { logo_content_type: checked.value, logo_sha256: sha256(bytes), logo_bytes: bytes.length };
  ctx.repo.putLogo(
    tenantId,
    { ...logo, logo_sealed: sealLogo(ctx.keys.tenantDek(tenantId), tenantId, bytes) },
    ctx.nowIso(),
  );
  const answer = {
    logo_url: LOGO_PATH,
    content_type: logo.logo_content_type,
    bytes: logo.logo_bytes,
    sha256: logo.logo_sha256,
  };
  ctx.audit.append({
    actor,
    action: 'branding.logo_uploaded',
    subject: tenantId,
    tenantId,
    detail: { content_type: answer.content_type, bytes: answer.bytes, sha256: answer.sha256 },
  });
  return ok(answer);
}

/** The tenant's logo, opened, with its type and digest; null when none was uploaded. */
function openedLogo(ctx: Pick<BrandingCtx, 'repo' | 'keys'>, tenantId: string): BrandingForReport['logo'] {
  const row = ctx.repo.row(tenantId);
  const sealed = ctx.repo.logoSealed(tenantId);
  if (!row?.logo_content_type || !row.logo_sha256 || !sealed) return null;
  return {
    bytes: openLogo(ctx.keys.tenantDek(tenantId), tenantId, sealed),
    contentType: row.logo_content_type,
    sha256: row.logo_sha256,
  };
}

/** GET logo_url: the bytes with their type (ETag: the digest), or NOT_FOUND before any upload. */
export function serveLogo(ctx: Pick<BrandingCtx, 'repo' | 'keys'>, tenantId: string): Outcome<BytesReply<LogoType>> {
  const logo = openedLogo(ctx, tenantId);
  if (!logo) return refuse('NOT_FOUND', 'No logo has been uploaded: PUT /v1/branding/logo first.');
  return ok({
    status: 200,
    raw: logo.bytes,
    contentType: logo.contentType,
    headers: { etag: `"${logo.sha256}"`, 'cache-control': 'private, no-cache' },
  });
}

export function createBrandingService(deps: BrandingDeps) {
  const { db, keys, audit, nowIso } = deps;
  const ctx: BrandingCtx = { db, keys, audit, nowIso, repo: repoOf(db) };
  return {
    view: (tenantId: string) => viewBranding(ctx, tenantId),
    update: (tenantId: string, patch: BrandingPatch, actor: string) => updateBranding(ctx, tenantId, patch, actor),
    putLogo: (tenantId: string, bytes: Buffer, actor: string) => putLogo(ctx, tenantId, bytes, actor),
    serveLogo: (tenantId: string) => serveLogo(ctx, tenantId),
  };
}

export type BrandingService = ReturnType<typeof createBrandingService>;

// One repository (its prepared statements) per database, shared by the routes and brandingOf.
const repos = new WeakMap<Db, BrandingRepo>();
function repoOf(db: Db): BrandingRepo {
  let repo = repos.get(db);
  if (!repo) {
    repo = createBrandingRepo(db);
    repos.set(db, repo);
  }
  return repo;
}

/**
 * The branding a report is set in, read when the report is generated: every field as GET /v1/branding
 * answers it, and the logo opened from its seal (null when none was uploaded). Synchronous; call it
 * inside the report's own transaction or read. Throws for a tenant that does not exist (a bug).
 */
export function brandingOf(deps: Pick<Deps, 'db' | 'keys'>, tenantId: string): BrandingForReport {
  const ctx = { repo: repoOf(deps.db), keys: deps.keys };
  return { ...viewBranding(ctx, tenantId), logo: openedLogo(ctx, tenantId) };
}
