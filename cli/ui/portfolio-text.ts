// `svc portfolio` without a terminal: the same tables and chart as the Ink screen, as plain text.
import { table } from '../output.js';
import { chartRows, concentration, exposureRows, headline, performanceLines, positionRows, type PortfolioData } from './portfolio-model.js';

export function portfolioText(d: PortfolioData): string {
  const pos = positionRows(d.portfolio);
  const exp = exposureRows(d.exposures);
  const lines = [
    ...headline(d.portfolio),
    '',
    table(pos.headers, pos.rows),
    '',
    exp.rows.length ? table(exp.headers, exp.rows) : 'No holdings: everything is cash.',
    concentration(d.exposures),
    '',
    ...performanceLines(d.performance),
    ...chartRows(d.performance).map((r) => `  ${r}`),
  ];
  return lines.join('\n') + '\n';
}
