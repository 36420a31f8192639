// Generated instrument logos: a rounded square in a hue hashed from the symbol with its first four
// letters, so every instrument has a stable image without shipping image files.
import { hash32 } from '../sim/prng.js';
import { ok, type Outcome } from '../contract/outcome.js';
import type { MarketReader } from './service.js';

function logoSvg(symbol: string): string {
  const hue = hash32('logo', symbol) % 360;
  const text = symbol.slice(0, 4);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="hsl(${hue},55%,38%)"/><text x="32" y="38" font-family="sans-serif" font-size="${text.length > 3 ? 15 : 18}" font-weight="700" fill="#fff" text-anchor="middle">${text}</text></svg>`;
}

/** GET /assets/logos/{SYMBOL}.svg: the image of a catalog instrument, or UNKNOWN_SYMBOL. */
export function instrumentLogo(deps: Pick<MarketReader, 'market'>, file: string): Outcome<{ bytes: Buffer; contentType: string }> {
  const symbol = file.replace(/\.svg$/, '');
  const inst = deps.market.instrument(symbol);
  return inst.ok ? ok({ bytes: Buffer.from(logoSvg(symbol)), contentType: 'image/svg+xml' }) : inst;
}
