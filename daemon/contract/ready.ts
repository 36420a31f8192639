// What the daemon writes on its ready pipe (`--ready-fd`) once it listens, for `svc sandbox start`: its
// locator and what the start banner shows (the sandbox state and three quotes, the bodies
// GET /admin/sandbox/state and GET /v1/markets/XCAI/instruments/{symbol}/quote answer at that instant),
// so the CLI prints the banner without a request of its own (docs/cli.md, "Starting").
import type { LiveQuote } from './schemas/market.js';
import type { SandboxState } from './schemas/sandbox.js';

/** The instruments whose quotes the start banner shows. */
export const BANNER_SYMBOLS = ['COMI', 'TMGH', 'FWRY'] as const;

export interface ReadyBanner {
  state: SandboxState;
  quotes: LiveQuote[];
}
