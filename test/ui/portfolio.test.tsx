import { describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { PortfolioScreen } from '../../cli/ui/portfolio.js';
import { portfolioText } from '../../cli/ui/portfolio-text.js';
import { valueChart } from '../../cli/ui/value-chart.js';
import type { PortfolioData } from '../../cli/ui/portfolio-model.js';

// The numbers of test/api/portfolio.test.ts: 60 COMI, 600 BMYBY units and cash, Wednesday 11:30.
const data: PortfolioData = {
  portfolio: {
    investor_id: 'inv_0123456789',
    as_of: '2026-11-25T11:30:00+02:00',
    total_value_micros: 50_457_895_000,
    cash_micros: 39_165_805_000,
    positions: [
      {
        asset: 'COMI',
        symbol: 'COMI',
        name: 'Commercial International Bank',
        kind: 'equity',
        qty: 60,
        price_micros: 88_000_000,
        value_micros: 5_280_000_000,
        cost_micros: 5_113_005_000,
        unrealized_micros: 166_995_000,
        unrealized_pct: 0.032661,
        weight_pct: 0.104642,
      },
      {
        asset: 'fund:BMYBY',
        symbol: 'BMYBY',
        name: 'Banque Misr Youm b Youm',
        kind: 'fund',
        qty: 600_000_000,
        price_micros: 10_020_150,
        value_micros: 6_012_090_000,
        cost_micros: 6_000_000_000,
        unrealized_micros: 12_090_000,
        unrealized_pct: 0.002015,
        weight_pct: 0.119151,
      },
      {
        asset: 'cash:EGP',
        symbol: 'EGP',
        name: 'Egyptian pound',
        kind: 'cash',
        qty: 39_165_805_000,
        price_micros: 1_000_000,
        value_micros: 39_165_805_000,
        cost_micros: 39_165_805_000,
        unrealized_micros: 0,
        unrealized_pct: 0,
        weight_pct: 0.776208,
      },
    ],
  },
  exposures: {
    sectors: [
      { sector: 'Banks', value_micros: 5_280_000_000, weight_pct: 0.104642 },
      { sector: 'Money market funds', value_micros: 6_012_090_000, weight_pct: 0.119151 },
    ],
    asset_classes: [
      { kind: 'cash', value_micros: 39_165_805_000, weight_pct: 0.776208 },
      { kind: 'equity', value_micros: 5_280_000_000, weight_pct: 0.104642 },
      { kind: 'fund', value_micros: 6_012_090_000, weight_pct: 0.119151 },
    ],
    hhi: 0.502102,
    top_holding: { symbol: 'BMYBY', value_micros: 6_012_090_000, weight_pct: 0.119151 },
    top_holding_pct: 0.119151,
  },
  performance: {
    days: 5,
    start_date: '2026-11-19',
    end_date: '2026-11-25',
    start_value_micros: 0,
    end_value_micros: 50_457_895_000,
    net_flow_micros: 50_000_000_000,
    twr_pct: 0.009158,
    series: [
      { date: '2026-11-19', value_micros: 0, net_flow_micros: 0, return_pct: null },
      { date: '2026-11-22', value_micros: 49_990_000_000, net_flow_micros: 50_000_000_000, return_pct: -0.0002 },
      { date: '2026-11-23', value_micros: 50_100_000_000, net_flow_micros: 0, return_pct: 0.0022 },
      { date: '2026-11-24', value_micros: 50_300_000_000, net_flow_micros: 0, return_pct: 0.003992 },
      { date: '2026-11-25', value_micros: 50_457_895_000, net_flow_micros: 0, return_pct: 0.003139 },
    ],
  },
  risk: {
    start_date: '2026-11-19',
    end_date: '2026-11-25',
    observations: 4,
    annualized_volatility_pct: 0.031234,
    max_drawdown_pct: 0.0002,
    var95_pct: 0.0002,
    var95_micros: 10_091_579,
    beta: 0.412345,
    beta_observations: 4,
  },
};

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const plain = (s: string | undefined) => (s ?? '').replace(ANSI, '');

describe('svc portfolio renders positions, exposures and performance as tables with a small chart of the value series', () => {
  it('the Ink screen shows every position with price, value, cost, unrealized and weight, right-aligned', () => {
    const { lastFrame, unmount } = render(<PortfolioScreen data={data} width={120} />);
    const frame = plain(lastFrame());
    unmount();
    expect(frame.split('\n').slice(0, 8)).toEqual([
      'Portfolio of inv_0123456789 as of 2026-11-25T11:30:00+02:00',
      // money with two decimals, rounded; the fund's price is its NAV with the six decimals funds state
      'Total 50,457.90 EGP, of which cash 39,165.81 EGP',
      '',
      'kind    symbol         qty  price EGP  value EGP   cost EGP  P/L EGP     P/L  weight',
      'equity  COMI            60      88.00   5,280.00   5,113.01   167.00  +3.27%  10.46%',
      'fund    BMYBY   600.000000  10.020150   6,012.09   6,000.00    12.09  +0.20%  11.92%',
      'cash    EGP              -          -  39,165.81  39,165.81     0.00   0.00%  77.62%',
      '',
    ]);
    expect(frame).toContain(
      [
        'Exposures',
        'sector              value EGP  weight',
        'Banks                5,280.00  10.46%',
        'Money market funds   6,012.09  11.92%',
      ].join('\n'),
    );
    expect(frame).toContain('HHI 0.5021  top holding BMYBY 11.92%  (cash 77.62%, equity 10.46%, fund 11.92%)');
    expect(frame).toContain(
      'Time-weighted return +0.92% over 5 trading days, 2026-11-19 to 2026-11-25\nValue 0.00 -> 50,457.90 EGP, ' +
        'net deposits 50,000.00 EGP',
    );
    // the chart starts on the first day with a value: 4 columns, 5 rows, rising to a full block
    const lines = frame.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Value 0.00'));
    const bars = valueChart([49_990_000_000, 50_100_000_000, 50_300_000_000, 50_457_895_000], 60, 5);
    expect(lines.slice(at + 1, at + 6).map((l) => l.slice(0, 6))).toEqual(bars.map((r) => `  ${r}`));
    expect(lines[at + 1]).toContain('█');
  });

  it('gains are green and losses red; an all-cash portfolio says so', () => {
    const level = chalk.level;
    chalk.level = 1;
    try {
      const gain = render(<PortfolioScreen data={data} />);
      expect(gain.lastFrame()).toMatch(/\x1b\[32m\s*167\.00/);
      gain.unmount();
      const loss: PortfolioData = {
        ...data,
        portfolio: {
          ...data.portfolio,
          positions: [{ ...data.portfolio.positions[0], unrealized_micros: -5_000_000, unrealized_pct: -0.01 }],
        },
        exposures: { sectors: [], asset_classes: [], hhi: null, top_holding: null, top_holding_pct: null },
      };
      const r = render(<PortfolioScreen data={loss} />);
      expect(r.lastFrame()).toMatch(/\x1b\[31m\s*-5\.00/);
      expect(plain(r.lastFrame())).toContain('No holdings: everything is cash.');
      expect(plain(r.lastFrame())).toContain('HHI -  no holdings');
      r.unmount();
    } finally {
      chalk.level = level;
    }
  });

  it('without a terminal the same tables and chart are plain text', () => {
    const text = portfolioText(data);
    expect(text).not.toMatch(ANSI);
    expect(text).toContain('COMI            60      88.00   5,280.00   5,113.01   167.00  +3.27%  10.46%');
    expect(text).toContain('Banks                5,280.00  10.46%');
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Value 0.00'));
    expect(lines.slice(at + 1, at + 6).map((l) => l.slice(0, 6))).toEqual(
      valueChart([49_990_000_000, 50_100_000_000, 50_300_000_000, 50_457_895_000], 60, 5).map((r) => `  ${r}`),
    );
  });

  it('at 80 columns no line of the screen or of the text is wider: no row wraps', () => {
    const { lastFrame, unmount } = render(<PortfolioScreen data={data} width={80} />);
    const frame = plain(lastFrame());
    unmount();
    for (const out of [frame, portfolioText(data, 80)]) {
      for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
      // every position is one row, its weight at the end
      expect(out).toMatch(/^COMI\s+60\s+88\.00\s+5,280\.00\s+5,113\.01\s+167\.00\s+\+3\.27%\s+10\.46%$/m);
      expect(out).toMatch(/^EGP\s+-\s+-\s+39,165\.81\s+39,165\.81\s+0\.00\s+0\.00%\s+77\.62%$/m);
    }
  });

  it('the value chart of a 1 % rise labels its axis with the lowest and highest values and the dates, not drawn as a rise from zero', () => {
    const text = portfolioText(data, 80);
    expect(text).toMatch(/^ {2}[^\d\n]+█ 50,457\.90 EGP$/m);
    expect(text).toMatch(/^ {2}[^\d\n]+█ 49,990\.00 EGP$/m);
    expect(text).toMatch(/^ {2}2026-11-22 +2026-11-25$/m);
  });

  it('shows the risk figures: volatility, max drawdown, VaR(95) in percent and EGP, beta vs EGX30', () => {
    for (const out of [
      portfolioText(data, 80),
      plain(render(<PortfolioScreen data={data} width={80} />).lastFrame()),
    ]) {
      expect(out).toContain('Risk over 4 daily returns, 2026-11-19 to 2026-11-25');
      expect(out.replace(/\s+/g, ' ')).toContain(
        'Volatility 3.12% a year, max drawdown 0.02%, 1-day VaR(95) 0.02% (10.09 EGP), beta vs EGX30 0.41 (4 days)',
      );
    }
  });
});

describe('valueChart: a value series as rows of eighth blocks (integer arithmetic)', () => {
  it('draws the lowest point as one eighth and the highest as a full column; resamples to the width', () => {
    expect(valueChart([0, 10], 2, 1)).toEqual(['▁█']);
    expect(valueChart([0, 5, 10], 3, 2)).toEqual(['  █', '▁██']);
    expect(valueChart([7, 7, 7], 3, 2)).toEqual(['   ', '███']);
    expect(valueChart([], 10, 3)).toEqual([]);
    const wide = valueChart(
      Array.from({ length: 365 }, (_, i) => i),
      50,
      4,
    );
    expect(wide.every((r) => r.length === 50)).toBe(true);
    expect(wide[0].endsWith('█')).toBe(true);
  });
});
