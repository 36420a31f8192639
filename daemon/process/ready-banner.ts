// The start banner's data for the ready pipe (daemon/contract/ready.ts): the same functions the routes answer from.
import { BANNER_SYMBOLS, type ReadyBanner } from '../contract/ready.js';
import type { LiveQuote } from '../contract/schemas/market.js';
import type { Deps } from '../deps.js';
import { marketQuote } from '../market/market-data.js';
import { sandboxState } from '../sandbox/service.js';

export function readyBanner(deps: Deps): ReadyBanner {
  const quotes: LiveQuote[] = [];
  for (const symbol of BANNER_SYMBOLS) {
    const q = marketQuote(deps, 'XCAI', symbol);
    if (q.ok) quotes.push(q.value);
  }
  return { state: sandboxState(deps), quotes };
}
