// Generated logos: a rounded square in a hue hashed from the name with its first four letters, so every
// instrument and every fund has a stable image without shipping image files.
import { hash32 } from '../sim/prng.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { MarketReader } from './service.js';

function logoSvg(symbol: string): string {
  const hue = hash32('logo', symbol) % 360;
  const text = symbol.slice(0, 4);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" ` +
    `height="64" rx="12" fill="hsl(${hue},55%,38%)"/><text x="32" y="38" font-family="sans-serif" font-size="` +
    `${text.length > 3 ? 15 : 18}" font-weight="700" fill="#fff" text-anchor="middle">${text}</text></svg>`
  );
}

/**
 * GET /assets/logos/{NAME}.svg: the image of a catalog instrument (any case, as the catalog finds it)
 * or of one of `others` (the fund codes, exactly), or UNKNOWN_SYMBOL.
 */
export function catalogLogo(
  deps: Pick<MarketReader, 'market'>,
  others: ReadonlySet<string>,
  file: string,
): Outcome<{ bytes: Buffer; contentType: 'image/svg+xml' }> {
  const name = file.replace(/\.svg$/, '');
  const known = deps.market.instrument(name).ok || others.has(name);
  return known
    ? ok({ bytes: Buffer.from(logoSvg(name)), contentType: 'image/svg+xml' })
    : refuse('UNKNOWN_SYMBOL', `No instrument or fund ${name}.`);
}
