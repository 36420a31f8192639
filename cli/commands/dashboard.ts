// svc dashboard: the live Ink screen. It needs a terminal (and no CI, no --json); scripts get a clear
// refusal (exit 2) pointing at the commands that answer the same questions.
import { resolveProfile, type GlobalOptions } from '../context.js';
import { canPrompt } from '../interactive.js';
import { apiSource } from '../live/api-source.js';
import { DEFAULT_BOARD } from '../live/snapshot.js';
import { usage } from '../output.js';
import { svc } from '../hints.js';

export interface DashboardCommandOptions {
  investor?: string;
  symbols?: string;
  interval?: string;
}

/** The refusal without a terminal, naming the commands to use instead (with the --home in use). */
export function needsTerminal(): string {
  return `svc dashboard needs a terminal; use ${svc('order list')} / ${svc('market quotes --json')} instead`;
}

export function symbolsOf(text: string | undefined): string[] {
  if (text === undefined) return DEFAULT_BOARD;
  const list = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => s.toUpperCase());
  if (list.length === 0) usage('--symbols needs at least one symbol, e.g. --symbols COMI,TMGH');
  return list;
}

export function intervalOf(text: string | undefined): number {
  const s = Number(text ?? '1');
  if (!Number.isFinite(s) || s < 0.2 || s > 3600)
    usage(`--interval ${text} must be a number of seconds from 0.2 to 3600`);
  return Math.round(s * 1000);
}

export async function dashboard(opts: DashboardCommandOptions, g: GlobalOptions): Promise<void> {
  if (!canPrompt(Boolean(g.json))) usage(needsTerminal());
  const symbols = symbolsOf(opts.symbols);
  const intervalMs = intervalOf(opts.interval);
  const profile = resolveProfile(g);
  const { renderDashboard } = await import('../ui/dashboard/render.js');
  await renderDashboard(apiSource(profile), {
    investorId: opts.investor ?? process.env.SVC_INVESTOR_ID ?? null,
    symbols,
    intervalMs,
  });
}
