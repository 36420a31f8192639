// svc balances [--investor ID]: an investor's cash, shares and fund units in their three buckets
// (settled = available to trade or withdraw, reserved = held by open orders and pending withdrawals,
// unsettled = waiting for T+2). Cash in EGP with two decimals, shares whole, fund units with six;
// --json prints GET /v1/investors/{id}/balances as it is (integer micros).
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { egp, ok, printJson, table, units, usage } from '../output.js';
import type { Balances } from '../../daemon/contract/schemas/ledger.js';

export interface BalancesOptions {
  investor?: string;
}

/** --investor, else $SVC_INVESTOR_ID (as svc portfolio picks it); a usage error without either. */
export function investorOf(opts: { investor?: string }): string {
  const id = opts.investor || process.env.SVC_INVESTOR_ID;
  if (!id) usage('missing --investor INV (or set SVC_INVESTOR_ID)');
  return id;
}

/** The cash line of svc investor show and the head of svc balances: "48,831.91 EGP available (settled), ...". */
export function cashLine(b: Balances): string {
  const cash = b.cash.find((c) => c.asset === 'cash:EGP') ?? { settled: 0, reserved: 0, unsettled: 0 };
  const available = `${egp(cash.settled)} EGP available (settled)`;
  return `${available}, ${egp(cash.reserved)} reserved, ${egp(cash.unsettled)} unsettled`;
}

export function balancesText(b: Balances): string {
  const lines = [
    `Balances of ${b.investor_id} as of ${b.as_of}`,
    '',
    table(
      ['cash', 'settled EGP', 'reserved EGP', 'unsettled EGP'],
      b.cash.map((c) => [c.asset, egp(c.settled), egp(c.reserved), egp(c.unsettled)]),
    ),
  ];
  lines.push(
    '',
    b.securities.length === 0
      ? 'No shares.'
      : table(
          ['shares', 'settled', 'reserved', 'unsettled'],
          b.securities.map((s) => [s.symbol, s.settled, s.reserved, s.unsettled]),
        ),
  );
  if (b.funds.length > 0)
    lines.push(
      '',
      table(
        ['fund', 'settled units', 'reserved units', 'unsettled units'],
        b.funds.map((f) => [f.fund_code, units(f.settled), units(f.reserved), units(f.unsettled)]),
      ),
    );
  return `${lines.join('\n')}\n`;
}

export async function show(opts: BalancesOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const investorId = investorOf(opts);
  const b = ok(
    await api<Balances>(resolveProfile(g), 'GET', `/v1/investors/${encodeURIComponent(investorId)}/balances`),
    json,
  );
  if (json) printJson(b);
  else process.stdout.write(balancesText(b));
}
