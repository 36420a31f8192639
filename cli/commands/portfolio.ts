// svc portfolio: positions, exposures and performance of an investor (--investor or $SVC_INVESTOR_ID).
// With --json: the four raw responses as { portfolio, exposures, performance, risk }. With a terminal on
// stdout: the Ink screen (cli/ui/portfolio.tsx, imported only here). Otherwise: plain text tables.
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { ok, printJson, usage } from '../output.js';
import type { PortfolioData } from '../ui/portfolio-model.js';
import { portfolioText } from '../ui/portfolio-text.js';
import type { Exposures, Performance, Portfolio, Risk } from '../../daemon/contract/schemas/portfolio.js';

export interface PortfolioOptions {
  investor?: string;
  days?: string;
}

export async function show(opts: PortfolioOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const investorId = opts.investor ?? process.env.SVC_INVESTOR_ID;
  if (!investorId) usage('missing --investor INV (or set SVC_INVESTOR_ID)');
  const days = opts.days ?? '90';
  if (!/^\d{1,3}$/.test(days) || Number(days) < 1 || Number(days) > 365)
    usage(`--days ${days} must be a whole number of trading days from 1 to 365`);
  const profile = resolveProfile(g);
  const base = `/v1/investors/${encodeURIComponent(investorId)}/portfolio`;
  const [portfolio, exposures, performance, risk] = await Promise.all([
    api<Portfolio>(profile, 'GET', base),
    api<Exposures>(profile, 'GET', `${base}/exposures`),
    api<Performance>(profile, 'GET', `${base}/performance?days=${days}`),
    api<Risk>(profile, 'GET', `${base}/risk?days=${days}`),
  ]);
  const data: PortfolioData = {
    portfolio: ok(portfolio, json),
    exposures: ok(exposures, json),
    performance: ok(performance, json),
    risk: ok(risk, json),
  };
  if (json) printJson(data);
  else if (process.stdout.isTTY) await (await import('../ui/portfolio.js')).renderPortfolio(data);
  else process.stdout.write(portfolioText(data));
}
