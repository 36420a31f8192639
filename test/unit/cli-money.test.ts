// How the CLI shows and checks money: amounts with two decimals and thousands separators, prices at
// their tick's decimals (averages rounded), NAVs and units with six; a limit off the tick refused with
// the nearest prices on it; ioc and fok not offered while closed; hints as svc commands with --home.
import { afterEach, describe, expect, it } from 'vitest';
import { formatMoney, formatNav, formatPrice, formatUnits, offTickMessage } from '../../daemon/contract/money.js';
import { isOnTick, roundToTick, tickNeighbours, tickSize } from '../../daemon/contract/tick.js';
import * as marketTicks from '../../daemon/market/ticks.js';
import { limitPriceProblem } from '../../cli/money.js';
import { limitCheck, tifChoices } from '../../cli/commands/order-wizard.js';
import { cliHint, svc, useHome } from '../../cli/hints.js';
import { ERROR_CODES } from '../../daemon/contract/errors.js';

const band = { lower_micros: 68_510_000, upper_micros: 102_750_000 };

describe('money for people: two decimals, thousands separated, rounded half away from zero', () => {
  it('formats amounts as "1,234,567.50"', () => {
    expect(formatMoney(1_234_567_500_000)).toBe('1,234,567.50');
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(48_831_907_735)).toBe('48,831.91');
    expect(formatMoney(425_000)).toBe('0.43');
    expect(formatMoney(424_999)).toBe('0.42');
    expect(formatMoney(-7_115_000)).toBe('-7.12');
    expect(formatMoney(-4_999)).toBe('0.00');
    expect(formatMoney(Number.MAX_SAFE_INTEGER)).toBe('9,007,199,254.74');
  });

  it("prices show their tick's decimals: an average of 85.641538 is 85.64, one below 2 EGP keeps three", () => {
    expect(formatPrice(85_641_538)).toBe('85.64');
    expect(formatPrice(85_645_000)).toBe('85.65');
    expect(formatPrice(85_600_000)).toBe('85.60');
    expect(formatPrice(1_234_500)).toBe('1.235');
    expect(formatPrice(1_999_000)).toBe('1.999');
    expect(formatPrice(2_000_000)).toBe('2.00');
    expect(formatPrice(1_234_567_890_000)).toBe('1,234,567.89');
  });

  it('NAVs and fund units keep the six decimals funds state', () => {
    expect(formatNav(10_000_000)).toBe('10.000000');
    expect(formatNav(341_275_413)).toBe('341.275413');
    expect(formatUnits(1_234_567_891)).toBe('1,234.567891');
  });
});

describe('the tick grid lives in daemon/contract/tick.ts and the daemon uses the same functions', () => {
  it("market/ticks re-exports the contract's grid unchanged", () => {
    expect(marketTicks.tickSize).toBe(tickSize);
    expect(marketTicks.isOnTick).toBe(isOnTick);
    expect(marketTicks.roundToTick).toBe(roundToTick);
  });

  it('names the grid prices either side of an off-tick price', () => {
    expect(tickNeighbours(85_125_000)).toEqual({
      tickMicros: 10_000,
      belowMicros: 85_120_000,
      aboveMicros: 85_130_000,
    });
    expect(tickNeighbours(1_234_500)).toEqual({ tickMicros: 1_000, belowMicros: 1_234_000, aboveMicros: 1_235_000 });
  });
});

describe('a limit price typed in the order wizard or the dashboard form', () => {
  it('off the tick: refused naming the nearest valid prices', () => {
    expect(limitPriceProblem('85.125', band)).toBe('85.125 EGP is not on the 0.01 EGP tick: use 85.12 or 85.13 EGP');
    expect(limitPriceProblem('1.2345', null)).toBe('1.2345 EGP is not on the 0.001 EGP tick: use 1.234 or 1.235 EGP');
    expect(limitPriceProblem('0.0005', null)).toBe('0.0005 EGP is not on the 0.001 EGP tick: use 0.001 EGP');
    // the wizard's validate answers the same text, and true for a good price
    expect(limitCheck('85.125', { band })).toBe('85.125 EGP is not on the 0.01 EGP tick: use 85.12 or 85.13 EGP');
    expect(limitCheck('85.12', { band })).toBe(true);
  });

  it("one off-tick message in EGP naming the nearest valid prices: the daemon's refusal and the forms' check say the same words", () => {
    expect(offTickMessage(85_125_000)).toBe('85.125 EGP is not on the 0.01 EGP tick: use 85.12 or 85.13 EGP');
    expect(limitPriceProblem('85.125', band)).toBe(offTickMessage(85_125_000));
    expect(limitPriceProblem(' 1200.005', null)).toBe(offTickMessage(1_200_005_000));
    expect(offTickMessage(1_200_005_000)).toBe(
      '1,200.005 EGP is not on the 0.01 EGP tick: use 1,200.00 or 1,200.01 EGP',
    );
  });

  it('checks the tick before the band, as the daemon does; outside the band names it; not a price says why', () => {
    expect(limitPriceProblem('200.005', band)).toMatch(/not on the 0\.01 EGP tick: use 200\.00 or 200\.01 EGP/);
    expect(limitPriceProblem('200', band)).toBe("200 is outside today's band 68.51-102.75 EGP");
    expect(limitPriceProblem('0', band)).toBe('a limit above 0');
    expect(limitPriceProblem('abc', band)).toMatch(/not an amount in EGP/);
    expect(limitPriceProblem('85.1200', band)).toBeNull();
  });
});

describe('times in force offered by the order wizard', () => {
  it('ioc and fok only while the market is open', () => {
    expect(tifChoices(true).map((t) => t.value)).toEqual(['day', 'gtc', 'ioc', 'fok']);
    expect(tifChoices(false).map((t) => t.value)).toEqual(['day', 'gtc']);
  });
});

describe('hints name svc commands, not HTTP routes, and keep the --home in use', () => {
  afterEach(() => useHome(undefined));

  it('no hint names an HTTP route outside svc api', () => {
    for (const code of Object.keys(ERROR_CODES)) {
      const hint = cliHint(code) ?? '';
      expect(hint.replace(/svc api GET \/\S+/g, ''), code).not.toMatch(
        /\b(GET|POST|PUT|PATCH|DELETE) \/|\/(v1|admin|broker)\//,
      );
    }
  });

  it('POST /v1/transfers becomes svc transfer deposit, with --home when one was given (quoted when it needs it)', () => {
    expect(cliHint('INSUFFICIENT_SETTLED_CASH')).toContain('svc transfer deposit AMOUNT_EGP');
    expect(cliHint('UNKNOWN_SYMBOL')).toBe('List the symbols: svc market quotes');
    useHome('/tmp/sbx');
    expect(cliHint('UNKNOWN_SYMBOL')).toBe('List the symbols: svc --home /tmp/sbx market quotes');
    useHome('/tmp/my sandbox');
    expect(svc('balances')).toBe("svc --home '/tmp/my sandbox' balances");
  });
});
