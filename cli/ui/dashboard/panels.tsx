// The dashboard's panels: pure views of the data they are given.
import { Box, Text } from 'ink';
import { svc } from '../../hints.js';
import { egp, nav as navText } from '../../output.js';
import {
  isOpen,
  type Account,
  type Balances,
  type Clock,
  type Fund,
  type FundHolding,
  type Order,
  type Quote,
  type SharePosition,
} from '../../live/source.js';
import {
  fundValueMicros,
  hhmm,
  pad,
  priceText,
  quotePrice,
  signedPct,
  span,
  timeOrDate,
  unitsText,
  wallTime,
} from '../format.js';
import type { Move } from '../hooks.js';
import { reasonText, statusText } from './words.js';

/** Below this width the header leaves out the screen's name and the year of the next open. */
const HEADER_FULL_WIDTH = 110;

/** "10:00" on the same day as `now`, else "Mon 10:00" (within a week) or the date. */
function whenShort(iso: string, nowIso: string): string {
  if (iso.slice(0, 10) === nowIso.slice(0, 10)) return hhmm(iso);
  const days = (Date.parse(iso) - Date.parse(nowIso)) / 86_400_000;
  return days < 6 ? `${wallTime(iso).split(' ')[0]} ${hhmm(iso)}` : wallTime(iso, false);
}

/** One line at any width from 60 columns: the clock, the session, the clock's mode. */
export function Header(props: { clock: Clock | null; width: number }) {
  const c = props.clock;
  if (!c)
    return (
      <Text bold>
        svc dashboard <Text dimColor>· connecting…</Text>
      </Text>
    );
  const full = props.width >= HEADER_FULL_WIDTH;
  const session = c.is_open ? (
    <Text color="green" bold>
      market OPEN <Text dimColor>{`closes ${hhmm(c.next_close)} (in ${span(c.timestamp, c.next_close)})`}</Text>
    </Text>
  ) : (
    <Text color="yellow" bold>
      market CLOSED{' '}
      <Text dimColor>
        {`opens ${full ? wallTime(c.next_open, false) : whenShort(c.next_open, c.timestamp)} (in ` +
          `${span(c.timestamp, c.next_open)})`}
      </Text>
    </Text>
  );
  const mode = c.mode ? `clock ${c.mode}${c.mode === 'running' && c.speed && c.speed !== 1 ? ` x${c.speed}` : ''}` : '';
  return (
    <Box width={props.width} justifyContent="space-between">
      <Box flexShrink={1}>
        <Text wrap="truncate">
          {full ? <Text bold>{'svc dashboard  '}</Text> : null}
          <Text bold color="cyan">
            {wallTime(c.timestamp)}
          </Text>{' '}
          <Text dimColor>Cairo</Text>
          {'  '}
          {session}
        </Text>
      </Box>
      <Box flexShrink={0} marginLeft={1}>
        <Text dimColor>{mode}</Text>
      </Box>
    </Box>
  );
}

const BOARD_COLUMNS = { symbol: 6, last: 10, move: 2, change: 8, range: 19, band: 19 };

/** The board's lines besides its quotes: the border, the title and the column headings. */
export const BOARD_CHROME = 4;
/** Columns the board needs (a HALTED mark included), and the account panel beside it. */
export const BOARD_WIDTH = 80;
export const ACCOUNT_MIN_WIDTH = 74;

export function QuoteBoard(props: { quotes: Quote[]; moves: Map<string, Move>; width: number; rows: number }) {
  const w = BOARD_COLUMNS;
  const shown = props.quotes.slice(0, props.rows);
  const hidden = props.quotes.length - shown.length;
  // between sessions the band is the next session's, the one an order placed now is checked against
  const limits =
    props.quotes.length > 0 && props.quotes.every((q) => !q.session_open) ? 'next session limits' : 'limits today';
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={props.width}>
      <Text bold color="cyan" wrap="truncate">
        Quotes{' '}
        <Text dimColor>
          {`${props.quotes[0] ? `as of ${hhmm(props.quotes[0].as_of)}` : ''}` +
            `${hidden > 0 ? ` · ${hidden} more below (a taller terminal shows them)` : ''}`}
        </Text>
      </Text>
      <Text dimColor wrap="truncate">
        {`${pad('symbol', w.symbol)} ${pad('last', w.last, true)} ${pad('', w.move)}` +
          `${pad('change', w.change, true)}  ${pad('day low-high', w.range)} ${pad(limits, w.band)}`}
      </Text>
      {shown.map((q) => {
        const move = props.moves.get(q.symbol);
        const arrow = move ? (move.direction === 'up' ? '▲' : '▼') : ' ';
        const color = q.change_pct > 0 ? 'green' : q.change_pct < 0 ? 'red' : undefined;
        const range = q.day ? `${priceText(q.day.low_micros)}-${priceText(q.day.high_micros)}` : '-';
        const band = `${priceText(q.band.lower_micros)}-${priceText(q.band.upper_micros)}`;
        return (
          <Text key={q.symbol} wrap="truncate">
            <Text bold>{pad(q.symbol, w.symbol)}</Text>{' '}
            <Text inverse={move?.fresh}>{pad(quotePrice(q), w.last, true)}</Text>{' '}
            <Text color={move?.direction === 'up' ? 'green' : 'red'}>{arrow}</Text>
            <Text color={color}>{pad(signedPct(q.change_pct), w.change, true)}</Text>{' '}
            <Text dimColor>
              {pad(range, w.range)} {pad(band, w.band)}
            </Text>
            {q.halted ? (
              <Text color="red" bold>
                {' '}
                HALTED
              </Text>
            ) : null}
          </Text>
        );
      })}
    </Box>
  );
}

/**
 * The account panel's lines for this many share positions and fund holdings: border, title, cash,
 * the total, headings, share rows, their worth, then (with any fund) the fund headings and rows.
 */
export function accountLines(positions: number, funds: number, hidden = 0): number {
  return 6 + Math.max(1, positions) + (positions > 0 ? 1 : 0) + (funds > 0 ? 1 + funds : 0) + (hidden > 0 ? 1 : 0);
}

/** Rows of holdings shown. */
export interface HoldingRows {
  positions: number;
  funds: number;
}

/**
 * How many of `positions` share rows and `funds` fund rows fit in `budget` lines (one line then says
 * how many more there are): fund rows give way first, then share rows, down to one.
 */
export function fitHoldings(positions: number, funds: number, budget: number): HoldingRows {
  const fit = { positions, funds };
  const lines = () => accountLines(fit.positions, fit.funds, positions - fit.positions + funds - fit.funds);
  while (lines() > budget && fit.funds > 0) fit.funds--;
  while (lines() > budget && fit.positions > 1) fit.positions--;
  return fit;
}

/** Shares owned: settled, unsettled (bought, before T+2) and reserved (held for an open sell) alike. */
export function ownedShares(s: SharePosition): number {
  return s.settled + s.unsettled + s.reserved;
}

/**
 * What the investor owns, valued as the portfolio read values it (docs/portfolio.md): every bucket of
 * shares at the quote's price, fund units (reserved ones too) at the NAV floored to the micro, cash in
 * all its buckets. Null where a price or a NAV is not known yet.
 */
export function accountWorth(
  b: Balances,
  quotes: Quote[],
  funds: Fund[],
): { shares: number; total: number | null; cash: number } {
  const price = new Map(quotes.map((q) => [q.symbol, q.price_micros]));
  const nav = new Map(funds.map((f) => [f.fund_code, f.nav_micros]));
  const cash = b.cash
    .filter((c) => c.asset === 'cash:EGP')
    .reduce((sum, c) => sum + c.settled + c.reserved + c.unsettled, 0);
  let shares = 0;
  let known = true;
  for (const s of heldPositions(b)) {
    const p = price.get(s.symbol ?? s.asset);
    if (p === undefined) known = false;
    else shares += ownedShares(s) * p;
  }
  let fundsWorth = 0;
  for (const f of heldFunds(b)) {
    const n = nav.get(f.fund_code ?? f.asset.slice('fund:'.length));
    if (n === undefined) known = false;
    else fundsWorth += fundValueMicros(f.settled + f.unsettled + f.reserved, n);
  }
  return { shares, cash, total: known ? cash + shares + fundsWorth : null };
}

export function heldPositions(b: Balances | null): SharePosition[] {
  return (b?.securities ?? []).filter((s) => s.settled + s.unsettled + s.reserved > 0);
}

export function heldFunds(b: Balances | null): FundHolding[] {
  return (b?.funds ?? []).filter((f) => f.settled + f.unsettled + f.reserved > 0);
}

function NoInvestorPanel({ width }: { width: number }) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={width}>
      <Text bold color="cyan">
        Investor
      </Text>
      <Text>
        No investor selected: press <Text bold>i</Text> to choose one.
      </Text>
      <Text dimColor>{`None yet? Open an account with ${svc('kyc apply')}.`}</Text>
    </Box>
  );
}

/** A position's row: symbol, settled, unsettled, reserved, last price and value (q: the symbol's quote). */
function positionLine(s: SharePosition, q: Quote | undefined): string {
  const value = q ? ownedShares(s) * q.price_micros : null;
  return (
    `${pad(s.symbol ?? s.asset, 8)} ${pad(String(s.settled), 9, true)} ${pad(String(s.unsettled), 9, true)} ` +
    `${pad(String(s.reserved), 9, true)} ${pad(q ? quotePrice(q) : '-', 9, true)} ` +
    `${pad(value === null ? '-' : egp(value), 13, true)}`
  );
}

const fundCodeOf = (f: FundHolding) => f.fund_code ?? f.asset.slice('fund:'.length);

/** A fund holding's row: code, units, NAV and value (navMicros: the fund's NAV, when known). */
function fundLine(f: FundHolding, navMicros: number | undefined): string {
  const unitMicros = f.settled + f.unsettled + f.reserved;
  const navShown = navMicros === undefined ? '-' : navText(navMicros);
  const valueText = navMicros === undefined ? '-' : egp(fundValueMicros(unitMicros, navMicros));
  return (
    `${pad(fundCodeOf(f), 8)} ${pad(unitsText(unitMicros), 19, true)} ${pad(navShown, 13, true)} ` +
    `${pad(valueText, 19, true)}`
  );
}

export function AccountPanel(props: {
  investorId: string | null;
  account: Account | undefined;
  balances: Balances | null;
  quotes: Quote[];
  funds: Fund[];
  width: number;
  fit?: HoldingRows;
}) {
  if (!props.investorId) return <NoInvestorPanel width={props.width} />;
  const a = props.account;
  const b = props.balances;
  const cash = b?.cash.find((c) => c.asset === 'cash:EGP');
  const price = new Map(props.quotes.map((q) => [q.symbol, q]));
  const allPositions = heldPositions(b);
  const allFunds = heldFunds(b);
  const positions = allPositions.slice(0, props.fit?.positions ?? allPositions.length);
  const funds = allFunds.slice(0, props.fit?.funds ?? allFunds.length);
  const hidden = allPositions.length - positions.length + allFunds.length - funds.length;
  const nav = new Map(props.funds.map((f) => [f.fund_code, f.nav_micros]));
  const worth = b ? accountWorth(b, props.quotes, props.funds) : null;
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={props.width}>
      <Text bold color="cyan" wrap="truncate">
        {a ? `${a.name} ` : ''}
        <Text dimColor>{`${props.investorId}${a ? ` · ${a.account_number} · ${a.status}` : ''}`}</Text>
      </Text>
      {cash ? (
        <Text wrap="truncate">
          {'Cash EGP  settled '}
          <Text bold>{egp(cash.settled)}</Text>
          {'  reserved '}
          {egp(cash.reserved)}
          {'  unsettled '}
          {egp(cash.unsettled)}
        </Text>
      ) : (
        <Text dimColor>loading balances…</Text>
      )}
      <Text wrap="truncate">
        {worth
          ? `Total ${worth.total === null ? '-' : egp(worth.total)} EGP, of which cash ${egp(worth.cash)} EGP`
          : ' '}
      </Text>
      <Text dimColor wrap="truncate">
        {`${pad('position', 8)} ${pad('settled', 9, true)} ${pad('unsettled', 9, true)} ` +
          `${pad('reserved', 9, true)} ${pad('last', 9, true)} ${pad('value EGP', 13, true)}`}
      </Text>
      {positions.length === 0 ? <Text dimColor>no shares yet</Text> : null}
      {positions.map((s) => (
        <Text key={s.symbol ?? s.asset} wrap="truncate">
          {positionLine(s, price.get(s.symbol ?? s.asset))}
        </Text>
      ))}
      {positions.length > 0 ? (
        <Text dimColor wrap="truncate">{`${pad('shares worth', 49)} ${pad(egp(worth?.shares ?? 0), 13, true)}`}</Text>
      ) : null}
      {funds.length > 0 ? (
        <Text
          dimColor
          wrap="truncate"
        >{`${pad('fund', 8)} ${pad('units', 19, true)} ${pad('NAV', 13, true)} ${pad('value EGP', 19, true)}`}</Text>
      ) : null}
      {funds.map((f) => (
        <Text key={fundCodeOf(f)} wrap="truncate">
          {fundLine(f, nav.get(fundCodeOf(f)))}
        </Text>
      ))}
      {hidden > 0 ? (
        <Text dimColor wrap="truncate">
          {`+${hidden} more holding${hidden === 1 ? '' : 's'}: ` + `a taller terminal or ${svc('balances')} shows them`}
        </Text>
      ) : null}
    </Box>
  );
}

/** Open orders first, then the rest; each group newest first (the API's order). */
export function orderRows(orders: Order[] | null): Order[] {
  const list = orders ?? [];
  return [...list.filter(isOpen), ...list.filter((o) => !isOpen(o))];
}

function statusColor(o: Order): string | undefined {
  if (o.status === 'filled') return 'green';
  if (o.status === 'rejected') return 'red';
  if (o.status === 'canceled' || o.status === 'expired') return 'yellow';
  return isOpen(o) ? 'cyan' : undefined;
}

/** The orders panel's lines besides its rows: the border and the title. */
export const ORDERS_CHROME = 3;

export function OrdersPanel(props: {
  orders: Order[] | null;
  selectedId: string | null;
  rows: number;
  width: number;
  now: string | null;
}) {
  const rows = orderRows(props.orders);
  const open = rows.filter(isOpen).length;
  const selected = Math.max(
    0,
    rows.findIndex((o) => o.order_id === props.selectedId),
  );
  const visible = Math.max(1, props.rows);
  const first = Math.min(Math.max(0, selected - visible + 1), Math.max(0, rows.length - visible));
  const shown = rows.slice(first, first + visible);
  // below 100 columns the time an order was placed makes way for its status and fill
  const narrow = props.width < 100;
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={props.width}>
      <Text bold color="cyan" wrap="truncate">
        Orders{' '}
        <Text dimColor>
          {props.orders
            ? `${open} open · ${rows.length - open} recent` +
              `${rows.length > shown.length ? ` · showing ${first + 1}-${first + shown.length} (↑↓ scroll)` : ''}`
            : ''}
        </Text>
      </Text>
      {props.orders === null ? (
        <Text dimColor>choose an investor to see orders</Text>
      ) : rows.length === 0 ? (
        <Text dimColor>no orders yet: b to buy, s to sell</Text>
      ) : null}
      {shown.map((o) => {
        const isSel = o.order_id === props.selectedId;
        const price = o.type === 'limit' ? `limit ${priceText(o.limit_price_micros)}` : 'market';
        const avg = o.avg_price_micros !== null ? ` @ ${priceText(o.avg_price_micros)}` : '';
        const fill = `${o.filled_qty}/${o.qty}${avg}`;
        return (
          <Text key={o.order_id} inverse={isSel} wrap="truncate">
            {`${isSel ? '›' : ' '} ` +
              `${narrow ? '' : `${pad(props.now ? timeOrDate(o.created_at, props.now) : hhmm(o.created_at), 6)} `}` +
              `${pad(o.order_id, 14)} ${pad(o.side, 4)} ${pad(String(o.qty), 6, true)} ${pad(o.symbol, 6)} ` +
              `${pad(price, 14)} ${pad(o.time_in_force, 3)} `}
            <Text color={isSel ? undefined : statusColor(o)}>{pad(statusText(o.status), 16)}</Text>
            {` ${pad(fill, 16)}`}
            {o.reason_code ? <Text dimColor={!isSel}>{` ${reasonText(o.reason_code)}`}</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}

export type Tone = 'info' | 'ok' | 'error';

/** Lines kept for the status (an outcome, or a refusal and its request id and hint). */
export const STATUS_LINES = 3;

/** The last action's outcome: its first line may wrap onto a second (a refusal's message), the hint follows. */
export function StatusLine(props: { tone: Tone; lines: string[] }) {
  const color = props.tone === 'error' ? 'red' : props.tone === 'ok' ? 'green' : undefined;
  return (
    <Box flexDirection="column" height={STATUS_LINES} overflow="hidden">
      {props.lines.slice(0, STATUS_LINES).map((l, i) => (
        <Text key={i} color={i === 0 ? color : undefined} dimColor={i > 0} wrap={i === 0 ? 'wrap' : 'truncate'}>
          {l}
        </Text>
      ))}
    </Box>
  );
}

/**
 * The keys of the screen on one line: the main keys (shorter words below 100 columns), or, while a form
 * or menu is open, how to leave it (its own keys are inside it).
 */
export function KeyBar(props: { width: number; modal: boolean }) {
  const short = props.width < 100;
  const keys: Array<[string, string]> = props.modal
    ? [
        ['Esc', 'close'],
        ['Ctrl-C', 'quit'],
      ]
    : [
        ['a', short ? 'clock' : 'advance clock'],
        ['i', 'investor'],
        ['b', 'buy'],
        ['s', 'sell'],
        ['c', short ? 'cancel' : 'cancel order'],
        ['↑↓', 'select'],
        ['r', 'refresh'],
        ['q', 'quit'],
      ];
  return (
    <Text wrap="truncate">
      {keys.map(([k, what], i) => (
        <Text key={k}>
          {i > 0 ? '  ' : ''}
          <Text bold color="cyan">
            {k}
          </Text>{' '}
          {what}
        </Text>
      ))}
    </Text>
  );
}

/** The investor on one line, for when a form or menu takes the room of the panels. */
export function InvestorLine(props: {
  investorId: string | null;
  account: Account | undefined;
  balances: Balances | null;
}) {
  if (!props.investorId) return <Text dimColor>No investor selected</Text>;
  const cash = props.balances?.cash.find((c) => c.asset === 'cash:EGP');
  return (
    <Text wrap="truncate">
      <Text bold color="cyan">
        {props.account ? props.account.name : props.investorId}
      </Text>
      <Text dimColor>
        {`${props.account ? ` ${props.investorId} · ${statusText(props.account.status)}` : ''}` +
          `${cash ? ` · settled cash ${egp(cash.settled)} EGP` : ''}`}
      </Text>
    </Text>
  );
}
