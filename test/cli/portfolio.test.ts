// svc fund list|subscribe|redeem and svc portfolio against a real daemon, without a TTY: amounts typed
// in EGP and units as decimals sent as exact micros, --json the raw responses, plain text otherwise,
// exit codes 0 ok / 1 API error / 2 usage (nothing sent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;
let inv: string;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await onboardViaCli(sbx, { fullName: 'Nour Adel', documents: false, depositEgp: '50000' });
});

afterAll(async () => sbx?.stop());

describe('svc fund', () => {
  it('list shows every fund alphabetically with its NAV; --shariah narrows; --json is the raw response', async () => {
    const json = await sbx.svc(['fund', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(json.json.funds.map((f: any) => f.fund_code)).toEqual(['BMYBY', 'NILLQ', 'NILSK', 'UBRKH']);
    const plain = await sbx.svc(['fund', 'list', '--shariah']);
    expect(plain.stdout).toMatch(
      new RegExp(
        String.raw`UBRKH\s+United Bank Rakhaa Shariah Money Market Fund\s+341\.275413\s+2026-11-21\s+23\.00%\s+` +
          String.raw`5,000\.00\s+yes\s+12:00`,
      ),
    );
    expect(plain.stdout).not.toContain('BMYBY');
  });

  it('subscribe takes EGP, redeem takes units with up to 6 decimals; both exact', async () => {
    const sub = await sbx.svc(['fund', 'subscribe', 'ubrkh', '10000', '--investor', inv, '--json']);
    expect(sub.code, sub.stderr).toBe(0);
    expect(sub.json).toMatchObject({
      side: 'subscribe',
      fund_code: 'UBRKH',
      amount_micros: 10_000_000_000,
      state: 'settled',
      result_units_micros: 29_301_847,
      result_amount_micros: 9_999_999_937,
    });
    const red = await sbx.svc(['fund', 'redeem', 'UBRKH', '9.301847'], { SVC_INVESTOR_ID: inv });
    expect(red.code, red.stderr).toBe(0);
    expect(red.stdout).toMatch(
      /^fo_\S+ {2}redeem UBRKH {2}9\.301847 units -> 3,174\.49 EGP at NAV 341\.275413 \(2026-11-21\) {2}settled\n$/,
    );
    const bal = await sbx.svc(['api', 'GET', `/v1/investors/${inv}/balances`]);
    expect(JSON.parse(bal.stdout).funds).toEqual([
      { asset: 'fund:UBRKH', fund_code: 'UBRKH', settled: 20_000_000, reserved: 0, unsettled: 0 },
    ]);
  });

  it('refusals exit 1 with the code; bad amounts and units are usage errors (exit 2) and send nothing', async () => {
    const below = await sbx.svc(['fund', 'subscribe', 'BMYBY', '100', '--investor', inv]);
    expect(below.code).toBe(1);
    expect(below.stderr).toContain('BELOW_MINIMUM_SUBSCRIPTION');
    const unknown = await sbx.svc(['fund', 'redeem', 'NOPE', '1', '--investor', inv, '--json']);
    expect(unknown.code).toBe(1);
    expect(unknown.json.error.code).toBe('UNKNOWN_FUND');
    for (const args of [
      ['subscribe', 'BMYBY', '1e4'],
      ['subscribe', 'BMYBY', '-5'],
      ['subscribe', 'BMYBY', '0'],
      ['redeem', 'BMYBY', '1.0000001'],
      ['redeem', 'BMYBY', '0'],
    ]) {
      const res = await sbx.svc(['fund', ...args, '--investor', inv]);
      expect(res.code, args.join(' ')).toBe(2);
    }
    expect((await sbx.svc(['fund', 'subscribe', 'BMYBY', '10000'])).stderr).toContain('missing --investor');
  });
});

describe('svc portfolio', () => {
  it('--json prints the portfolio, exposures and performance responses; plain text shows the tables and a chart', async () => {
    await sbx.svc(['clock', 'advance', '--days', '2']);
    const json = await sbx.svc(['portfolio', '--investor', inv, '--days', '5', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(Object.keys(json.json)).toEqual(['portfolio', 'exposures', 'performance', 'risk']);
    expect(json.json.risk).toMatchObject({ investor_id: inv, benchmark: 'EGX30', days: 5 });
    expect(json.json.portfolio.positions.map((p: any) => p.asset)).toEqual(['fund:UBRKH', 'cash:EGP']);
    expect(json.json.performance.series).toHaveLength(5);
    const plain = await sbx.svc(['portfolio'], { SVC_INVESTOR_ID: inv });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(`Portfolio of ${inv} as of`);
    // laid out for 80 columns without a terminal: no line wider, each position one row
    for (const line of plain.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(plain.stdout).toMatch(/^UBRKH\s+20\.000000\s+341\.\d+/m);
    expect(plain.stdout).toMatch(/^Risk over \d+ daily returns/m);
    expect(plain.stdout).toContain('Money market funds');
    expect(plain.stdout).toMatch(/Time-weighted return [+-]?\d+\.\d\d% over 90 trading days/);
    expect(plain.stdout).toMatch(/[▁▂▃▄▅▆▇█]/);
    for (const days of ['0', '366', 'x'])
      expect((await sbx.svc(['portfolio', '--investor', inv, '--days', days])).code).toBe(2);
    const unknown = await sbx.svc(['portfolio', '--investor', 'inv_unknown', '--json']);
    expect(unknown.code).toBe(1);
    expect(unknown.json.error.code).toBe('NOT_FOUND');
  });
});
