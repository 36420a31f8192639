// Asset names of the ledger: cash per currency (`cash:EGP`), an equity by its symbol (`COMI`), a
// money-market fund's units (`fund:<code>`). The same shapes are CHECKed by migration 004.
export const CASH_EGP = 'cash:EGP';

export type AssetKind = 'cash' | 'security' | 'fund';

const CASH_RE = /^cash:[A-Z]{3}$/;
const FUND_RE = /^fund:[A-Z0-9_-]{1,35}$/;
const SECURITY_RE = /^[A-Z0-9]{1,16}$/;

export function fundAsset(fundCode: string): string {
  return `fund:${fundCode}`;
}

/** The kind of a valid asset name, or null when the name is not one. */
export function assetKind(asset: string): AssetKind | null {
  if (CASH_RE.test(asset)) return 'cash';
  if (FUND_RE.test(asset)) return 'fund';
  if (SECURITY_RE.test(asset)) return 'security';
  return null;
}
