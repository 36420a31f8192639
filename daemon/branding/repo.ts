// The SQL of branding (migration 013): one row per tenant, written at its first change, and the
// tenant's own name and creation time, which the defaults are made of.
import type { Db } from '../store/db.js';
import type { BrandingsRow, TenantsRow } from '../store/rows.js';

/** The theme columns: NULL means "the default" (daemon/branding/theme.ts). */
export type ThemeColumns = Pick<
  BrandingsRow,
  'display_name' | 'primary_color' | 'accent_color' | 'font' | 'footer_text'
>;

/** The logo's columns as a logo is written: all set together (the table's CHECK). */
export type LogoColumns = {
  [K in 'logo_content_type' | 'logo_sha256' | 'logo_bytes']: NonNullable<BrandingsRow[K]>;
};

/** A stored row without the sealed logo (every read but the logo's own). */
export type BrandingRow = Omit<BrandingsRow, 'tenant_id' | 'logo_sealed'>;

export type TenantRow = Pick<TenantsRow, 'name' | 'created_at'>;

export function createBrandingRepo(db: Db) {
  const q = {
    tenant: db.prepare<[string], TenantRow>('SELECT name, created_at FROM tenants WHERE id = ?'),
    row: db.prepare<[string], BrandingRow>(
      `SELECT display_name, primary_color, accent_color, font, footer_text, logo_content_type, logo_sha256,
        logo_bytes, updated_at
       FROM brandings WHERE tenant_id = ?`,
    ),
    logo: db.prepare<[string], { logo_sealed: Buffer | null }>('SELECT logo_sealed FROM brandings WHERE tenant_id = ?'),
    putTheme: db.prepare(
      `INSERT INTO brandings (tenant_id, display_name, primary_color, accent_color, font, footer_text, updated_at)
       VALUES (@tenant_id, @display_name, @primary_color, @accent_color, @font, @footer_text, @updated_at)
       ON CONFLICT (tenant_id) DO UPDATE SET display_name = excluded.display_name,
         primary_color = excluded.primary_color,
         accent_color = excluded.accent_color, font = excluded.font, footer_text = excluded.footer_text,
         updated_at = excluded.updated_at`,
    ),
    putLogo: db.prepare(
      `INSERT INTO brandings (tenant_id, logo_sealed, logo_content_type, logo_sha256, logo_bytes, updated_at)
       VALUES (@tenant_id, @logo_sealed, @logo_content_type, @logo_sha256, @logo_bytes, @updated_at)
       ON CONFLICT (tenant_id) DO UPDATE SET logo_sealed = excluded.logo_sealed,
         logo_content_type = excluded.logo_content_type,
         logo_sha256 = excluded.logo_sha256, logo_bytes = excluded.logo_bytes, updated_at = excluded.updated_at`,
    ),
  };
  return {
    tenant: (tenantId: string): TenantRow | undefined => q.tenant.get(tenantId),
    row: (tenantId: string): BrandingRow | undefined => q.row.get(tenantId),
    logoSealed: (tenantId: string): Buffer | null => q.logo.get(tenantId)?.logo_sealed ?? null,
    putTheme(tenantId: string, theme: ThemeColumns, at: string): void {
      q.putTheme.run({ tenant_id: tenantId, ...theme, updated_at: at });
    },
    putLogo(tenantId: string, logo: LogoColumns & { logo_sealed: Buffer }, at: string): void {
      q.putLogo.run({ tenant_id: tenantId, ...logo, updated_at: at });
    },
  };
}

export type BrandingRepo = ReturnType<typeof createBrandingRepo>;
