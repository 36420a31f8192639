// The Ink screen of `svc portfolio` (a terminal on stdout): positions, exposures and performance as
// aligned tables, gains in green and losses in red, and the value series as a small chart. Loaded
// only on that path (cli/commands/portfolio.ts imports it lazily), so scripted runs never load React.
import { Box, Text, render } from 'ink';
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
  type TableRows,
} from './portfolio-model.js';

const NUMERIC = /^[-+]?[\d,.]+%?$|^-$/;

function colorOf(cell: string, signed: boolean): string | undefined {
  if (!signed || cell === '-' || /^0(\.0+)?%?$/.test(cell.replace(/^[-+]/, ''))) return undefined;
  return cell.startsWith('-') ? 'red' : 'green';
}

/** An aligned table; numeric columns right-aligned; the columns named in `signed` coloured by sign. */
export function Table({ table, signed = [] }: { table: TableRows; signed?: string[] }) {
  const widths = table.headers.map((h, i) => Math.max(h.length, ...table.rows.map((r) => r[i].length)));
  const numeric = table.headers.map((_h, i) => table.rows.length > 0 && table.rows.every((r) => NUMERIC.test(r[i])));
  const pad = (cell: string, i: number) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]));
  return (
    <Box flexDirection="column">
      <Text bold>{table.headers.map(pad).join('  ').trimEnd()}</Text>
      {table.rows.map((row, r) => (
        <Text key={r}>
          {row.map((cell, i) => (
            <Text key={i} color={colorOf(cell, signed.includes(table.headers[i]))}>
              {pad(cell, i)}
              {i < row.length - 1 ? '  ' : ''}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}

/** The screen laid out for `width` columns: no row is wider, so the terminal never wraps one. */
export function PortfolioScreen({ data, width = DEFAULT_WIDTH }: { data: PortfolioData; width?: number }) {
  const exposures = exposureRows(data.exposures);
  const twr = data.performance.twr_pct;
  return (
    <Box flexDirection="column">
      {headline(data.portfolio).map((line, i) => (
        <Text key={i} bold={i === 0}>
          {line}
        </Text>
      ))}
      <Box marginTop={1}>
        <Table table={positionRows(data.portfolio, width)} signed={['P/L EGP', 'P/L']} />
      </Box>
      <Box marginTop={1} flexDirection="column">
        <Text bold>Exposures</Text>
        {exposures.rows.length ? <Table table={exposures} /> : <Text>No holdings: everything is cash.</Text>}
        {concentration(data.exposures, width).map((line, i) => (
          <Text key={i} dimColor>
            {line}
          </Text>
        ))}
      </Box>
      <Box marginTop={1} flexDirection="column">
        <Text bold>Performance</Text>
        {performanceLines(data.performance, width).map((line, i) => (
          <Text key={i}>{line}</Text>
        ))}
        {chartRows(data.performance, Math.min(60, width - 2)).map((row, i) => (
          <Text key={i} color={twr === null ? undefined : twr < 0 ? 'red' : 'green'}>
            {`  ${row}`}
          </Text>
        ))}
      </Box>
      <Box marginTop={1} flexDirection="column">
        <Text bold>Risk</Text>
        {riskLines(data.risk, width).map((line, i) => (
          <Text key={i}>{line}</Text>
        ))}
      </Box>
    </Box>
  );
}

/** Draws the screen once and returns (the data is a snapshot; nothing updates it). */
export async function renderPortfolio(data: PortfolioData): Promise<void> {
  const width = Math.max(40, (process.stdout.columns || DEFAULT_WIDTH) - 1);
  const app = render(<PortfolioScreen data={data} width={width} />);
  app.unmount();
  await app.waitUntilExit();
}
