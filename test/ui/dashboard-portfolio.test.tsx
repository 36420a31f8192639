// The dashboard's account panel against the portfolio answer for the same state, on a real daemon:
// shares held for a resting sell, a partial fill, unsettled buys, cash reserved for a resting buy and
// fund units. Every figure the panel shows (each position's value, the shares' worth, each fund's
// value, the cash buckets and the total) is the one GET /v1/investors/{id}/portfolio answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { resolveProfile } from '../../cli/context.js';
import { apiSource } from '../../cli/live/api-source.js';
import { loadSnapshot, type Snapshot } from '../../cli/live/snapshot.js';
import { AccountPanel } from '../../cli/ui/dashboard/panels.js';
import { egp } from '../../cli/output.js';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { cliInvestor } from '../helpers/cli-investor.js';

let sbx: CliSandbox;
let inv: string;

async function svcOk(args: string[]) {
  const r = await sbx.svc(args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await cliInvestor(sbx, { depositEgp: '50000' });
  await svcOk(['clock', 'advance', '--until', 'next_open']);
  await svcOk(['order', 'buy', 'TMGH', '20', '--investor', inv]);
  // T+2: the 20 TMGH settle, so 13 of them can be held for a sell
  await svcOk(['clock', 'advance', '--days', '3']);
  await svcOk(['clock', 'advance', '--until', 'next_open']);
  const tmgh = (await svcOk(['market', 'quotes', 'TMGH', '--json'])).json.quotes[0];
  const above = ((Math.floor(tmgh.band.upper_micros / 10_000) * 10_000) / 1e6).toFixed(2);
  await svcOk(['order', 'sell', 'TMGH', '13', '--limit', above, '--tif', 'gtc', '--investor', inv]);
  // 13 shares at market: 7 now, 6 a minute later (the sandbox's partial fill), unsettled
  await svcOk(['order', 'buy', 'COMI', '13', '--investor', inv]);
  // a resting buy far below the tape: cash reserved, nothing bought
  const fwry = (await svcOk(['market', 'quotes', 'FWRY', '--json'])).json.quotes[0];
  const below = ((Math.ceil(fwry.band.lower_micros / 10_000) * 10_000) / 1e6).toFixed(2);
  await svcOk(['order', 'buy', 'FWRY', '50', '--limit', below, '--tif', 'gtc', '--investor', inv]);
  await svcOk(['fund', 'subscribe', 'BMYBY', '10000', '--investor', inv]);
});

afterAll(async () => {
  cleanup();
  await sbx?.stop();
});

function panel(snap: Snapshot, width: number, fit?: { positions: number; funds: number }): string {
  const app = render(
    <AccountPanel
      investorId={inv}
      account={snap.account ?? undefined}
      balances={snap.balances}
      quotes={snap.quotes}
      funds={snap.funds}
      width={width}
      fit={fit}
    />,
  );
  const frame = app.lastFrame() ?? '';
  app.unmount();
  return frame;
}

const re = (s: string) => s.replace(/[.,+]/g, (c) => `\\${c}`);

describe('the dashboard agrees with the portfolio', () => {
  it('every figure of the account panel is the portfolio answer for the same state, at 74 and 80 columns', async () => {
    const source = apiSource(resolveProfile({ home: sbx.home }));
    const snap = await loadSnapshot(source, { investorId: inv, symbols: [] });
    const p = (await svcOk(['portfolio', '--investor', inv, '--json'])).json.portfolio;
    // the state holds what the test is about
    const tmgh = snap.balances!.securities.find((s) => s.symbol === 'TMGH')!;
    expect(tmgh).toMatchObject({ settled: 7, reserved: 13 });
    const comi = snap.balances!.securities.find((s) => s.symbol === 'COMI')!;
    expect(comi).toMatchObject({ settled: 0, unsettled: 7, reserved: 0 });
    const cash = snap.balances!.cash.find((c) => c.asset === 'cash:EGP')!;
    expect(cash.reserved).toBeGreaterThan(0);
    for (const width of [74, 80]) {
      const f = panel(snap, width);
      for (const pos of p.positions.filter((x: { kind: string }) => x.kind === 'equity')) {
        expect(f, `${pos.symbol} at ${width}`).toMatch(
          new RegExp(`${pos.symbol}\\s+\\d+\\s+\\d+\\s+\\d+\\s+[\\d.]+\\s+${re(egp(pos.value_micros))}\\b`),
        );
      }
      const shares = p.positions
        .filter((x: { kind: string }) => x.kind === 'equity')
        .reduce((s: number, x: { value_micros: number }) => s + x.value_micros, 0);
      expect(f).toMatch(new RegExp(`shares worth\\s+${re(egp(shares))}\\b`));
      for (const fund of p.positions.filter((x: { kind: string }) => x.kind === 'fund')) {
        expect(f).toMatch(new RegExp(`${fund.symbol}\\s+[\\d,.]+\\s+[\\d.]+\\s+${re(egp(fund.value_micros))}\\b`));
      }
      expect(cash.settled + cash.reserved + cash.unsettled).toBe(p.cash_micros);
      expect(f).toContain(`of which cash ${egp(p.cash_micros)} EGP`);
      expect(f).toContain(`Total ${egp(p.total_value_micros)} EGP`);
    }
    // a short terminal shows one share row and no fund rows: the totals still count every holding
    const short = panel(snap, 80, { positions: 1, funds: 0 });
    expect(short).toContain('more holdings');
    const shares = p.positions
      .filter((x: { kind: string }) => x.kind === 'equity')
      .reduce((s: number, x: { value_micros: number }) => s + x.value_micros, 0);
    expect(short).toMatch(new RegExp(`shares worth\\s+${re(egp(shares))}\\b`));
    expect(short).toContain(`Total ${egp(p.total_value_micros)} EGP, of which cash ${egp(p.cash_micros)} EGP`);
  });
});
