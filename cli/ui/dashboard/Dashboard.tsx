// svc dashboard: the clock and session, a quote board ticking with the tape, the selected investor's
// balances, positions (shares and fund units) and orders, and keys to advance the clock, switch
// investor, place and cancel.
// It reads and acts only through a LiveSource, so tests give it a fake one.
import { useCallback, useEffect, useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { Box, useApp } from 'ink';
import {
  ApiFailure,
  ADVANCE_CHOICES,
  isOpen,
  type Account,
  type Balances,
  type Clock,
  type Instrument,
  type LiveSource,
  type Order,
  type OrderRequest,
} from '../../live/source.js';
import { loadSnapshot } from '../../live/snapshot.js';
import { priceText, wallTime } from '../format.js';
import { useMoves, usePolling, useTerminalSize } from '../hooks.js';
import { SelectList, useKeys } from '../inputs.js';
import { KeyRouter, useKeyQueue } from '../key-router.js';
import { OrderForm } from './order-form.js';
import {
  ACCOUNT_MIN_WIDTH,
  AccountPanel,
  BOARD_CHROME,
  BOARD_WIDTH,
  Header,
  InvestorLine,
  KeyBar,
  ORDERS_CHROME,
  OrdersPanel,
  QuoteBoard,
  STATUS_LINES,
  StatusLine,
  accountLines,
  fitHoldings,
  heldFunds,
  type HoldingRows,
  heldPositions,
  orderRows,
  type Tone,
} from './panels.js';
import { orderStatusText } from './words.js';

export interface DashboardProps {
  source: LiveSource;
  investorId: string | null;
  symbols: string[];
  intervalMs: number;
}

type Mode =
  | { kind: 'main' }
  | { kind: 'advance' }
  | { kind: 'investor' }
  | { kind: 'order'; side: 'buy' | 'sell' }
  | { kind: 'cancel'; order: Order };

interface Status {
  tone: Tone;
  lines: string[];
}

/**
 * An error as the status line shows it: the daemon's message first (its code after it, for searching
 * docs/errors.md), then what to do (the registry's hint) and the request id (for svc logs show).
 */
export function failureLines(err: unknown): string[] {
  if (err instanceof ApiFailure) {
    return [
      `${err.message} (${err.code})`,
      [err.hint ? `hint: ${err.hint}` : '', err.requestId ? `request ${err.requestId}` : ''].filter(Boolean).join('  '),
    ].filter(Boolean);
  }
  return [(err as Error)?.message ?? String(err)];
}

function orderLine(o: Order): string {
  return (
    `${o.order_id} ${o.side} ${o.qty} ${o.symbol} ` +
    `${o.type === 'limit' ? `limit ${priceText(o.limit_price_micros)}` : 'market'} ${o.time_in_force}: ` +
    `${orderStatusText(o)}`
  );
}

/** The investor shown, the accounts and equities to choose from, and the refreshed snapshot. */
function useDashboardData(props: DashboardProps, setStatus: (status: Status) => void) {
  const { source } = props;
  const [investorId, setInvestorId] = useState(props.investorId);
  const [accounts, setAccounts] = useState<Account[] | null>(null);
  const [instruments, setInstruments] = useState<Instrument[] | null>(null);
  const polled = usePolling(
    () => loadSnapshot(source, { investorId, symbols: props.symbols }),
    props.intervalMs,
    `${investorId}|${props.symbols.join(',')}`,
  );

  // setStatus is stable for the screen's life; the callback changes only with the source.
  // biome-ignore lint/correctness/useExhaustiveDependencies: as said above
  const loadAccounts = useCallback(() => {
    source.accounts().then(setAccounts, (err) => setStatus({ tone: 'error', lines: failureLines(err) }));
  }, [source]);
  // Loads once per source; loadAccounts is recreated only with it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: as said above
  useEffect(() => {
    loadAccounts();
    source.instruments().then(setInstruments, () => undefined);
  }, [source]);
  // With no investor given, the first account (if there is one) is shown.
  // Runs when the account list arrives; choosing an investor must not re-run it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: as said above
  useEffect(() => {
    if (investorId === null && accounts && accounts.length > 0) setInvestorId(accounts[0].id);
  }, [accounts]);
  return { investorId, setInvestorId, accounts, instruments, polled, loadAccounts };
}

type DashboardData = ReturnType<typeof useDashboardData>;

/** What the keys of the main screen and of the cancel question act on. */
interface KeyContext {
  data: DashboardData;
  mode: Mode;
  setMode: (mode: Mode) => void;
  busy: boolean;
  list: Order[];
  selected: Order | undefined;
  setSelectedId: Dispatch<SetStateAction<string | null>>;
  setStatus: (status: Status) => void;
  act: (label: string, work: () => Promise<Status>) => Promise<void>;
}

function useDashboardKeys(source: LiveSource, k: KeyContext): void {
  const { exit } = useApp();
  const { data, mode, setMode, list, setStatus } = k;
  useKeys(
    (input, key) => {
      if (input === 'q') return exit();
      const step = (by: number) =>
        k.setSelectedId((id) => {
          const at = Math.max(
            0,
            list.findIndex((o) => o.order_id === id),
          );
          return list[Math.max(0, Math.min(list.length - 1, at + by))]?.order_id ?? null;
        });
      if (key.upArrow) step(-1);
      else if (key.downArrow) step(1);
      else if (input === 'a') setMode({ kind: 'advance' });
      else if (input === 'i') {
        data.loadAccounts();
        setMode({ kind: 'investor' });
      } else if (input === 'b' || input === 's') {
        if (!data.investorId) setStatus({ tone: 'error', lines: ['Choose an investor first: press i.'] });
        else {
          // the account is read again at once: a gate lifted in another terminal shows as the form opens
          data.polled.refresh();
          setMode({ kind: 'order', side: input === 'b' ? 'buy' : 'sell' });
        }
      } else if (input === 'c') {
        const o = k.selected;
        if (!o) setStatus({ tone: 'error', lines: ['No order selected.'] });
        else if (!isOpen(o))
          setStatus({ tone: 'error', lines: [`${o.order_id} is ${o.status}: only open orders can be cancelled.`] });
        else setMode({ kind: 'cancel', order: o });
      } else if (input === 'r') data.polled.refresh();
    },
    { isActive: mode.kind === 'main' },
  );

  useKeys(
    (input, key) => {
      if (mode.kind !== 'cancel') return;
      const o = mode.order;
      if (input === 'y' || key.return) {
        void k.act(`cancelling ${o.order_id}`, async () => {
          const done = await source.cancelOrder(o.order_id);
          return {
            tone: 'ok',
            lines: [
              `Cancel requested: ${orderLine(done)}`,
              'It takes effect at the next simulated minute (a fill due by then comes first): a +1 minute ' +
                'advance shows it.',
            ],
          };
        });
      } else if (input === 'n' || key.escape) setMode({ kind: 'main' });
    },
    { isActive: mode.kind === 'cancel' },
  );
}

/**
 * Where the panels go: side by side on a wide terminal, stacked on a narrow one. Every panel keeps its
 * title on screen: the orders keep up to three rows (fewer when there are fewer orders), the board gives
 * up rows down to three, and the holdings give up rows (saying how many more there are). `spare` is
 * what is left below the panels.
 */
function layoutOf(columns: number, rows: number, quoteCount: number, orderCount: number, balances: Balances | null) {
  const width = Math.max(60, columns);
  const height = Math.max(20, rows - 1);
  const wide = width >= BOARD_WIDTH + ACCOUNT_MIN_WIDTH;
  const boardWidth = wide ? BOARD_WIDTH : width;
  // the header and the key bar take a line each
  const room = height - 2 - STATUS_LINES;
  const positions = heldPositions(balances).length;
  const funds = heldFunds(balances).length;
  // what each panel would like at least: three quotes, three orders (fewer when there are fewer)
  let boardMin = Math.min(3, Math.max(1, quoteCount));
  let ordersMin = Math.min(3, Math.max(1, orderCount));
  const below = () => ORDERS_CHROME + ordersMin + (wide ? 0 : BOARD_CHROME + boardMin);
  let fit = fitHoldings(positions, funds, room - below());
  const accountOf = (f: HoldingRows) => accountLines(f.positions, f.funds, positions - f.positions + funds - f.funds);
  // still too tall: the board, then the orders, give up rows down to one
  while (accountOf(fit) > room - below() && (boardMin > 1 || ordersMin > 1)) {
    if (boardMin > 1) boardMin--;
    else ordersMin--;
    fit = fitHoldings(positions, funds, room - below());
  }
  const account = accountOf(fit);
  const top = (n: number) => (wide ? Math.max(BOARD_CHROME + n, account) : BOARD_CHROME + n + account);
  let boardRows = Math.max(quoteCount, 1);
  while (boardRows > boardMin && room - top(boardRows) < ORDERS_CHROME + ordersMin) boardRows--;
  const ordersRows = Math.max(1, room - top(boardRows) - ORDERS_CHROME);
  return { width, height, wide, boardWidth, boardRows, ordersRows, fit, spare: room - top(boardRows) };
}

function advanceMenu(
  source: LiveSource,
  clock: Clock | undefined,
  setMode: (mode: Mode) => void,
  act: KeyContext['act'],
) {
  return (
    <SelectList
      title={`Advance the clock from ${clock ? wallTime(clock.timestamp) : 'now'}`}
      items={ADVANCE_CHOICES.map((c) => ({ label: c.label }))}
      onCancel={() => setMode({ kind: 'main' })}
      onSelect={(i) => {
        const choice = ADVANCE_CHOICES[i];
        void act(`advancing the clock ${choice.label}`, async () => {
          const c = await source.advance(choice.step);
          return { tone: 'ok', lines: [`Clock advanced ${choice.label} to ${wallTime(c.timestamp)}.`] };
        });
      }}
    />
  );
}

function investorMenu(k: Pick<KeyContext, 'data' | 'setMode' | 'setSelectedId' | 'setStatus'>) {
  const { accounts, investorId } = k.data;
  const items = (accounts ?? []).map((a) => ({ label: a.name, detail: `${a.id} · ${a.account_number} · ${a.status}` }));
  return (
    <SelectList
      title={accounts ? 'Switch investor' : 'Switch investor (loading accounts…)'}
      items={items}
      initial={Math.max(
        0,
        (accounts ?? []).findIndex((a) => a.id === investorId),
      )}
      onCancel={() => k.setMode({ kind: 'main' })}
      onSelect={(i) => {
        const a = accounts?.[i];
        if (a) {
          k.data.setInvestorId(a.id);
          k.setSelectedId(null);
          k.setStatus({ tone: 'info', lines: [`Showing ${a.name} (${a.id}).`] });
        }
        k.setMode({ kind: 'main' });
      }}
    />
  );
}

function orderForm(
  source: LiveSource,
  side: 'buy' | 'sell',
  investorId: string,
  k: Pick<KeyContext, 'data' | 'setMode' | 'setSelectedId' | 'act'>,
) {
  return (
    <OrderForm
      side={side}
      investorId={investorId}
      account={k.data.polled.value?.account ?? k.data.accounts?.find((a) => a.id === investorId) ?? null}
      instruments={k.data.instruments}
      balances={k.data.polled.value?.balances ?? null}
      marketOpen={k.data.polled.value?.clock.is_open ?? null}
      loadQuote={async (s) => (await source.quotes([s]))[0]}
      onCancel={() => k.setMode({ kind: 'main' })}
      onSubmit={(request: OrderRequest) => {
        void k.act(`placing ${request.side} ${request.qty} ${request.symbol}`, async () => {
          const o = await source.placeOrder(request);
          k.setSelectedId(o.order_id);
          return { tone: o.status === 'rejected' ? 'error' : 'ok', lines: [`Placed ${orderLine(o)}`] };
        });
      }}
    />
  );
}

/** The dashboard: every key goes through one queue, so none is lost while a form or menu opens. */
export function Dashboard(props: DashboardProps) {
  return (
    <KeyRouter>
      <DashboardScreen {...props} />
    </KeyRouter>
  );
}

/**
 * The screen's mode. Changing it holds the keys typed behind the key that changed it until the new
 * screen listens; opening a form or menu clears the last action's outcome, so an old refusal is never
 * read as the new form's.
 */
function useMode(setStatus: (status: Status) => void): [Mode, (mode: Mode) => void] {
  const keys = useKeyQueue();
  const [mode, setModeNow] = useState<Mode>({ kind: 'main' });
  const setMode = (next: Mode) => {
    keys?.hold();
    if (next.kind !== 'main' && next.kind !== 'cancel') setStatus({ tone: 'info', lines: [] });
    setModeNow(next);
  };
  return [mode, setMode];
}

/** The status line: the cancel question, else a failed refresh, else the last action's outcome. */
function shownStatus(mode: Mode, refreshError: unknown, status: Status): Status {
  if (mode.kind === 'cancel')
    return { tone: 'info', lines: [`Cancel ${orderLine(mode.order)}?  y/Enter cancel it · n/Esc keep it`] };
  // A failed refresh keeps the first line; the last action's outcome keeps the second.
  if (refreshError)
    return {
      tone: 'error',
      lines: [`Refresh failed: ${failureLines(refreshError).join('  ')}`, ...status.lines.slice(0, 1)],
    };
  return status;
}

/** The quote board beside (or above) the account panel. */
function TopPanels(
  p: Omit<Parameters<typeof AccountPanel>[0], 'width' | 'fit'> & {
    moves: Parameters<typeof QuoteBoard>[0]['moves'];
    layout: ReturnType<typeof layoutOf>;
  },
) {
  const { width, wide, boardWidth } = p.layout;
  return (
    <Box flexDirection={wide ? 'row' : 'column'}>
      <QuoteBoard quotes={p.quotes} moves={p.moves} width={boardWidth} rows={p.layout.boardRows} />
      <AccountPanel
        investorId={p.investorId}
        account={p.account}
        balances={p.balances}
        quotes={p.quotes}
        funds={p.funds}
        width={wide ? width - boardWidth : width}
        fit={p.layout.fit}
      />
    </Box>
  );
}

function DashboardScreen(props: DashboardProps) {
  const { source } = props;
  const { columns, rows } = useTerminalSize();
  const keys = useKeyQueue();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ tone: 'info', lines: [] });
  const [mode, setMode] = useMode(setStatus);
  const [busy, setBusy] = useState(false);
  const data = useDashboardData(props, setStatus);
  const { investorId, polled } = data;
  const snap = polled.value;
  const moves = useMoves(snap?.quotes);
  const list = useMemo(() => orderRows(snap?.orders ?? null), [snap?.orders]);
  // The selection: the chosen order while it is listed, else the first row.
  const selected = list.find((o) => o.order_id === selectedId) ?? list[0];

  /** Runs one action, with a busy line while it works, then refreshes the screen; keys typed meanwhile wait. */
  const act = async (label: string, work: () => Promise<Status>) => {
    setMode({ kind: 'main' });
    keys?.pause();
    setBusy(true);
    setStatus({ tone: 'info', lines: [`${label}…`] });
    try {
      setStatus(await work());
    } catch (err) {
      setStatus({ tone: 'error', lines: failureLines(err) });
    } finally {
      setBusy(false);
      keys?.resume();
      polled.refresh();
    }
  };
  const k: KeyContext = { data, mode, setMode, busy, list, selected, setSelectedId, setStatus, act };
  useDashboardKeys(source, k);

  const quotes = snap?.quotes ?? [];
  const layout = layoutOf(columns, rows, quotes.length, list.length, snap?.balances ?? null);
  const { width } = layout;
  const accountRow = snap?.account ?? data.accounts?.find((a) => a.id === investorId);
  let modal = null;
  if (mode.kind === 'advance') modal = advanceMenu(source, snap?.clock, setMode, act);
  else if (mode.kind === 'investor') modal = investorMenu(k);
  else if (mode.kind === 'order' && investorId) modal = orderForm(source, mode.side, investorId, k);

  // A form or menu needs about this many lines; on a short terminal the panels above make way for it.
  const hideTop = modal !== null && layout.spare < 20;
  return (
    <Box flexDirection="column" width={width} height={layout.height}>
      <Header clock={snap?.clock ?? null} width={width} />
      {hideTop ? (
        <InvestorLine investorId={investorId} account={accountRow} balances={snap?.balances ?? null} />
      ) : (
        <TopPanels
          quotes={quotes}
          moves={moves}
          layout={layout}
          investorId={investorId}
          account={accountRow}
          balances={snap?.balances ?? null}
          funds={snap?.funds ?? []}
        />
      )}
      {modal ?? (
        <OrdersPanel
          orders={snap?.orders ?? (investorId ? [] : null)}
          selectedId={selected?.order_id ?? null}
          rows={layout.ordersRows}
          width={width}
          now={snap?.clock.timestamp ?? null}
        />
      )}
      <Box flexGrow={1} />
      <StatusLine {...shownStatus(mode, polled.error, status)} />
      <KeyBar width={width} modal={modal !== null} />
    </Box>
  );
}
