// `svc portfolio` without a terminal: the same tables and chart as the Ink screen, as plain text, laid
// out for `width` columns (80 unless the caller knows better): no line is wider.
import { table } from '../output.js';
import {
  chartRows,
  concentration,
  DEFAULT_WIDTH,
  exposureRows,
  headline,
  performanceLines,
  positionRows,
  riskLines,
  type PortfolioData,
} from './portfolio-model.js';

export function portfolioText(d: PortfolioData, width = DEFAULT_WIDTH): string {
  const pos = positionRows(d.portfolio, width);
  const exp = exposureRows(d.exposures);
  const lines = [
    ...headline(d.portfolio),
    '',
    table(pos.headers, pos.rows),
    '',
    exp.rows.length ? table(exp.headers, exp.rows) : 'No holdings: everything is cash.',
    ...concentration(d.exposures, width),
    '',
    ...performanceLines(d.performance, width),
    ...chartRows(d.performance, Math.min(60, width - 2)).map((r) => `  ${r}`),
    '',
    ...riskLines(d.risk, width),
  ];
  return `${lines.join('\n')}\n`;
}
