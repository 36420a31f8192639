// Wire schemas of the portfolio reads. Every *_pct is a FRACTION (0.05 = 5%), rounded to 6 decimals;
// money is integer EGP micros; a fund position's qty is unit-micros (docs/portfolio.md).
import { z } from 'zod';
import { timestamp, calendarDate } from './formats.js';

const pct = (what: string) => z.number().nullable().describe(`${what}; a fraction (0.05 = 5%), 6 decimals`);
const micros = (what: string) => z.int().describe(`${what}; EGP micros`);

export const InvestorParams = z.strictObject({ id: z.string().min(1).max(64) });
export const PerformanceQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(365).default(90).describe('trading days of the series, 1-365'),
});
export const RiskQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(365).default(60).describe('daily returns used, 1-365'),
});

export const PositionSchema = z
  .object({
    asset: z.string().describe('cash:EGP, an equity symbol, or fund:<code>'),
    symbol: z.string().describe('the equity symbol, the fund code, or EGP'),
    name: z.string(),
    kind: z.enum(['equity', 'fund', 'cash']),
    qty: z
      .int()
      .describe(
        'whole shares (equity), unit-micros (fund: 1 unit = 1,000,000), micros (cash); settled, reserved and ' +
          'unsettled together',
      ),
    price_micros: micros('last tape price per share (equity), NAV per whole unit (fund), 1,000,000 (cash)'),
    value_micros: micros('market value: qty x price (equity); qty x price / 1,000,000 floored (fund, cash)'),
    cost_micros: micros('cost basis by average cost (fees and stamp duty included); cash: its amount'),
    unrealized_micros: micros('value - cost'),
    unrealized_pct: pct('unrealized / cost; null when the cost is 0'),
    weight_pct: pct('value / total portfolio value (cash included); null when the total is 0'),
  })
  .meta({ id: 'Position' });

export const PortfolioSchema = z
  .object({
    investor_id: z.string(),
    as_of: timestamp(),
    currency: z.literal('EGP'),
    total_value_micros: micros('cash plus the market value of every position'),
    cash_micros: micros('cash: settled, reserved and unsettled'),
    positions: z.array(PositionSchema).describe('equities, then funds, then cash; alphabetical within a kind'),
    ordering: z.literal('kind_then_symbol'),
  })
  .meta({ id: 'Portfolio' });

const Exposure = {
  value_micros: micros('market value'),
  weight_pct: pct('value / total portfolio value (cash included)'),
};

export const ExposuresSchema = z
  .object({
    investor_id: z.string(),
    as_of: timestamp(),
    total_value_micros: micros('cash included'),
    sectors: z
      .array(z.object({ sector: z.string(), ...Exposure }))
      .describe(`equity sectors and "Money market funds"; alphabetical, never by size; cash is not a sector`),
    asset_classes: z
      .array(z.object({ kind: z.enum(['cash', 'equity', 'fund']), ...Exposure }))
      .describe('alphabetical'),
    hhi: pct(
      'Herfindahl-Hirschman index: sum of squared weights of the equity and fund positions among themselves; 1 ' +
        '= one holding; null when nothing is held',
    ).describe('a fraction 0..1, 6 decimals; null when nothing is held'),
    top_holding: z.object({ asset: z.string(), symbol: z.string(), ...Exposure }).nullable(),
    top_holding_pct: pct('largest equity or fund position / total portfolio value; null when nothing is held'),
    ordering: z.literal('alphabetical'),
  })
  .meta({ id: 'Exposures' });

export const PerformanceSchema = z
  .object({
    investor_id: z.string(),
    as_of: timestamp(),
    days: z.int(),
    start_date: calendarDate(),
    end_date: calendarDate(),
    start_value_micros: micros('value at the first point'),
    end_value_micros: micros("value at the last point (now while today's session is open)"),
    net_flow_micros: micros('deposits - withdrawals (and journals) after the first point'),
    twr_pct: pct(
      'time-weighted return over the series, flows neutralised (they count at the start of their day); null ' +
        'with fewer than two points or no capital',
    ),
    series: z.array(
      z.object({
        date: calendarDate().describe('a trading day (YYYY-MM-DD)'),
        value_micros: micros('closing value: cash + equities at the close + funds at the NAV'),
        net_flow_micros: micros('external flows since the previous point'),
        return_pct: pct(
          "the day's flow-neutral return V_t / (V_t-1 + F_t) - 1; null for the first point and days without capital",
        ),
      }),
    ),
  })
  .meta({ id: 'Performance' });

export const RiskSchema = z
  .object({
    investor_id: z.string(),
    as_of: timestamp(),
    days: z.int(),
    benchmark: z.literal('EGX30'),
    start_date: calendarDate(),
    end_date: calendarDate(),
    observations: z.int().describe('daily returns used'),
    value_micros: micros('current portfolio value (the VaR base)'),
    annualized_volatility_pct: pct('sample standard deviation of the daily returns x sqrt(252); null below 2 returns'),
    max_drawdown_pct: pct('largest fall of the flow-neutral wealth index below its running peak, positive'),
    var95_pct: pct(
      '1-day historical VaR(95), nearest-rank 5th percentile of the daily returns, as a positive loss; null ' +
        'with no returns',
    ),
    var95_micros: z.int().nullable().describe('var95_pct x value_micros, half up; EGP micros'),
    beta: z
      .number()
      .nullable()
      .describe(
        'cov(portfolio, EGX30) / var(EGX30) on the shared days; a ratio, 6 decimals; null below 2 pairs or a ' +
          'flat index',
      ),
    beta_observations: z.int(),
    periods_per_year: z.int().describe('annualization factor of the volatility'),
  })
  .meta({ id: 'Risk' });

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type Position = z.infer<typeof PositionSchema>;
export type Portfolio = z.infer<typeof PortfolioSchema>;
export type Exposures = z.infer<typeof ExposuresSchema>;
export type Performance = z.infer<typeof PerformanceSchema>;
export type Risk = z.infer<typeof RiskSchema>;
