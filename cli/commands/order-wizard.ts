// svc order buy|sell on a terminal with something missing: asks for it (the investor, the symbol from
// the catalog, the quantity, market or limit, the limit, the time in force), shows the estimate (value,
// each fee, stamp duty, what the order reserves, the cash or shares available) and places nothing
// unless confirmed. Loaded only on that path.
import { api } from '../client/http.js';
import type { Profile } from '../context.js';
import { estimateLines, estimateOrder } from '../estimate.js';
import { loadPrompts } from '../interactive.js';
import { svc } from '../hints.js';
import { limitPriceProblem, parseEgp, type BandMicros } from '../money.js';
import { chalk, egp, info, ok, price, usage } from '../output.js';
import type { Balances } from '../../daemon/contract/schemas/ledger.js';
import type { Instrument, Quote } from '../../daemon/contract/schemas/market.js';
import type { Account } from '../../daemon/contract/schemas/onboarding.js';

export interface Given {
  symbol?: string;
  qty?: string;
  /** Market or limit, when the command line already decided it (a limit price may still be asked). */
  type?: 'market' | 'limit';
  limit?: string;
  tif?: string;
  investor?: string;
}

const TIFS = [
  { value: 'day', name: 'day', description: 'works until the close of its session' },
  { value: 'gtc', name: 'gtc', description: 'good till cancelled: works across sessions' },
  { value: 'ioc', name: 'ioc', description: 'fills what it can now, cancels the rest' },
  { value: 'fok', name: 'fok', description: 'fills all of it now or nothing' },
];

/** The times in force an order can have now: ioc and fok need an open session (the daemon refuses them
 *  with MARKET_CLOSED otherwise), so they are not offered while the market is closed. */
export function tifChoices(sessionOpen: boolean): typeof TIFS {
  return sessionOpen ? TIFS : TIFS.filter((t) => t.value === 'day' || t.value === 'gtc');
}

/** The most accounts GET /v1/accounts returns at once; an older one is reached by typing its id. */
const ACCOUNTS_LISTED = 200;
const INVESTOR_ID = /^inv_[0-9a-z]+$/;

/** Why a typed id cannot place an order, or true. Checked before the estimate reads its balances. */
async function accountCheck(profile: Profile, id: string): Promise<true | string> {
  const res = await api<Account>(profile, 'GET', `/v1/accounts/${encodeURIComponent(id)}`);
  if (res.status === 404) return `no account ${id} at this tenant`;
  if (res.status !== 200) return `GET /v1/accounts/${id} answered HTTP ${res.status}`;
  return res.body.status === 'closed' ? `${id} is closed` : true;
}

/** The tenant's open accounts to pick from, newest first, filtered as you type; the only one is taken
 *  without asking. A full investor id typed in is offered too (for an account past the newest 200). */
async function chooseInvestor(profile: Profile): Promise<string> {
  const { search } = await loadPrompts();
  const listed = ok(
    await api<{ accounts: Account[] }>(profile, 'GET', `/v1/accounts?limit=${ACCOUNTS_LISTED}`),
    false,
  ).accounts;
  const accounts = listed.filter((a) => a.status !== 'closed');
  if (accounts.length === 0) usage(`no open account yet: open one with ${svc('kyc apply')}, then pass --investor`);
  if (accounts.length === 1) {
    info(chalk.dim(`investor ${accounts[0].id} (${accounts[0].name}), the only account`));
    return accounts[0].id;
  }
  return search({
    message: 'Investor (type a name, account number or id)',
    source: (term = '') => {
      const t = term.trim().toLowerCase();
      const choices = accounts
        .filter((a) => [a.id, a.name, a.account_number].some((field) => field.toLowerCase().includes(t)))
        .map((a) => ({ value: a.id, name: `${a.id}  ${a.name}`, description: `${a.account_number} · ${a.status}` }));
      // Named exactly as typed: search shows a failed validation only for a choice named like the term.
      if (INVESTOR_ID.test(t) && !accounts.some((a) => a.id === t))
        choices.push({ value: t, name: term, description: 'the id as typed: not among the accounts listed' });
      return choices;
    },
    validate: (id) => accounts.some((a) => a.id === id) || accountCheck(profile, id),
  });
}

async function chooseSymbol(profile: Profile): Promise<string> {
  const { search } = await loadPrompts();
  const instruments = ok(
    await api<{ instruments: Instrument[] }>(profile, 'GET', '/v1/instruments?security_type=equity'),
    false,
  ).instruments;
  return search({
    message: 'Symbol (type to filter)',
    source: (term) => {
      const t = (term ?? '').toUpperCase();
      return instruments
        .filter((i) => i.tradable !== false && (i.symbol.includes(t) || i.name.toUpperCase().includes(t)))
        .map((i) => ({ value: i.symbol, name: `${i.symbol.padEnd(6)} ${i.name}` }));
    },
  });
}

/** The limit prompt's validate: true, or why the price cannot be placed (off the tick: the nearest prices on it). */
export function limitCheck(text: string, q: { band: BandMicros }): true | string {
  return limitPriceProblem(text, q.band) ?? true;
}

/** The quote as the wizard shows it: price, band and whether the market is open. */
function quoteLine(symbol: string, quote: Quote): string {
  const market = quote.halted
    ? 'HALTED'
    : quote.session_open
      ? 'in session'
      : 'market closed: day and gtc orders queue for the open';
  return (
    `${symbol} ${price(quote.price_micros)} EGP, band ${price(quote.band.lower_micros)}-` +
    `${price(quote.band.upper_micros)}, ${market}`
  );
}

/** Asks market or limit and, for a limit order, its price; undefined for a market order. */
async function askLimit(given: Given, quote: Quote): Promise<string | undefined> {
  const { input, select } = await loadPrompts();
  const type =
    given.type ??
    (await select({
      message: 'Order type',
      choices: [
        {
          value: 'market',
          name: 'market',
          description:
            `at the market price (now ${price(quote.price_micros)}); a buy reserves cash at the highest price ` +
            `allowed today`,
        },
        {
          value: 'limit',
          name: 'limit',
          description: 'never worse than your price; waits until the market reaches it',
        },
      ],
    }));
  if (type !== 'limit') return undefined;
  return (
    await input({
      message: 'Limit price (EGP)',
      default: price(quote.price_micros),
      validate: (v) => limitCheck(v.trim(), quote),
    })
  ).trim();
}

/** Says before the confirmation which refusals the daemon will answer the order with. */
function warnRefusals(w: {
  cashSettled: number | null;
  tif: string;
  quote: Quote;
  overShares: boolean;
  shares: number;
}) {
  if (w.cashSettled !== null)
    info(
      chalk.yellow(
        `  More than the settled cash (${egp(w.cashSettled)} EGP): the daemon will refuse it with ` +
          `INSUFFICIENT_SETTLED_CASH.`,
      ),
    );
  if (!w.quote.session_open && (w.tif === 'ioc' || w.tif === 'fok'))
    info(
      chalk.yellow(
        `  The market is closed: the daemon will refuse ${w.tif} with MARKET_CLOSED (day and gtc queue for the open).`,
      ),
    );
  if (w.overShares)
    info(
      chalk.yellow(
        `  More than the settled shares (${w.shares}): the daemon will refuse it with INSUFFICIENT_SETTLED_SECURITIES.`,
      ),
    );
}

/** The order body, or null when the user declined to place it. */
export async function askOrder(
  side: 'buy' | 'sell',
  profile: Profile,
  given: Given,
): Promise<Record<string, unknown> | null> {
  const { input, select, confirm } = await loadPrompts();
  info(
    chalk.bold(`${side === 'buy' ? 'Buy' : 'Sell'} an equity on XCAI`) +
      chalk.dim(' (Ctrl-C to stop; nothing is sent before you confirm)'),
  );
  const investorId = given.investor ?? (await chooseInvestor(profile));
  const symbol = (given.symbol ?? (await chooseSymbol(profile))).toUpperCase();
  const quote = ok(await api<Quote>(profile, 'GET', `/v1/instruments/${encodeURIComponent(symbol)}/quote`), false);
  const balances = ok(
    await api<Balances>(profile, 'GET', `/v1/investors/${encodeURIComponent(investorId)}/balances`),
    false,
  );
  const cash = balances.cash.find((c) => c.asset === 'cash:EGP');
  const shares = balances.securities.find((s) => (s.symbol ?? s.asset) === symbol)?.settled ?? 0;
  const holding = side === 'buy' ? `settled cash ${egp(cash?.settled ?? 0)} EGP` : `settled shares ${shares}`;
  info(chalk.dim(`${quoteLine(symbol, quote)}; ${holding}`));
  const qtyText =
    given.qty ??
    (
      await input({
        message: 'Quantity (whole shares)',
        validate: (v) => /^[1-9]\d{0,9}$/.test(v.trim()) || 'a whole number of shares, at least 1',
      })
    ).trim();
  if (!/^[1-9]\d{0,9}$/.test(qtyText)) usage(`QTY ${qtyText} must be a whole number of shares greater than 0`);
  const limitText = given.limit ?? (await askLimit(given, quote));
  let limitMicros: number | null = null;
  if (limitText !== undefined) {
    const problem = limitPriceProblem(limitText, quote.band);
    if (problem !== null) usage(`--limit: ${problem}`);
    limitMicros = parseEgp(limitText);
  }
  const tif =
    given.tif ??
    (await select({
      message: quote.session_open ? 'Time in force' : 'Time in force (ioc and fok need an open market)',
      choices: tifChoices(quote.session_open),
      default: 'day',
    }));

  const draft = { side, qty: Number(qtyText), limitPriceMicros: limitMicros };
  const estimate = estimateOrder(draft, quote);
  info('');
  info(
    chalk.bold(
      `${side} ${qtyText} ${symbol} ${limitMicros === null ? 'market' : `limit ${limitText}`} ${tif} for ${investorId}`,
    ),
  );
  if (estimate) for (const line of estimateLines(draft, estimate)) info(`  ${line}`);
  const overCash = estimate?.reservation && side === 'buy' && cash && estimate.reservation.cashMicros > cash.settled;
  warnRefusals({
    cashSettled: overCash && cash ? cash.settled : null,
    tif,
    quote,
    overShares: side === 'sell' && shares < draft.qty,
    shares,
  });
  if (!(await confirm({ message: 'Place this order?', default: true }))) return null;
  const body: Record<string, unknown> = {
    investor_id: investorId,
    symbol,
    side,
    type: limitMicros === null ? 'market' : 'limit',
    qty: draft.qty,
    time_in_force: tif,
  };
  if (limitMicros !== null) body.limit_price_micros = limitMicros;
  return body;
}
