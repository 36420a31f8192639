// The dashboard's order form: symbol (completed from the catalog), quantity, market or limit, time in
// force; the estimate (value, each fee, stamp duty, what the order reserves) updates as you type, and
// nothing is sent before you confirm it. A limit off the tick grid is refused as it is typed, naming the
// nearest prices on it; ioc and fok are not offered while the market is closed. Keys go through a reducer, so keys arriving together (a paste,
// a fast typist, tmux send-keys) each see the state the previous one left.
import { useEffect, useReducer } from 'react';
import { Box, Text, type Key } from 'ink';
import { estimateLines, estimateOrder } from '../../estimate.js';
import { limitPriceProblem, parseEgp } from '../../money.js';
import { egp, tick } from '../../output.js';
import type { Balances, Instrument, OrderRequest, Quote } from '../../live/source.js';
import { priceText, quotePrice } from '../format.js';
import { Field, useKeys } from '../inputs.js';

const TYPES = ['market', 'limit'] as const;
const TIFS = ['day', 'gtc', 'ioc', 'fok'] as const;
type Tif = (typeof TIFS)[number];
/** While the market is closed the daemon refuses ioc and fok (MARKET_CLOSED): only these are offered. */
const CLOSED_TIFS: readonly Tif[] = ['day', 'gtc'];
type FieldName = 'symbol' | 'qty' | 'type' | 'limit' | 'tif';

export interface OrderFormProps {
  side: 'buy' | 'sell';
  investorId: string;
  instruments: Instrument[] | null;
  balances: Balances | null;
  /** The session of the clock (null: not read yet); a symbol's quote says it for that symbol. */
  marketOpen: boolean | null;
  loadQuote(symbol: string): Promise<Quote>;
  onSubmit(request: OrderRequest): void;
  onCancel(): void;
}

interface FormState {
  symbol: string;
  qty: string;
  type: (typeof TYPES)[number];
  limit: string;
  tif: Tif;
  field: number;
  /** Fields whose problem is shown (after Enter left or tried to leave them). */
  shown: FieldName[];
  quote: Quote | null;
  step: 'editing' | 'confirming' | 'submitted' | 'cancelled';
}

type Action = { kind: 'key'; input: string; key: Key; instruments: Instrument[] | null; tifs: readonly Tif[] } | { kind: 'quote'; quote: Quote | null };

/** The times in force offered: all four in session, day and gtc while the market is closed. */
export function offeredTifs(open: boolean | null): readonly Tif[] {
  return open === false ? CLOSED_TIFS : TIFS;
}

function fieldsOf(s: FormState): FieldName[] {
  return s.type === 'limit' ? ['symbol', 'qty', 'type', 'limit', 'tif'] : ['symbol', 'qty', 'type', 'tif'];
}

function matchesOf(symbol: string, instruments: Instrument[] | null): Instrument[] {
  return symbol === '' ? [] : (instruments ?? []).filter((i) => i.symbol.startsWith(symbol));
}

function problemsOf(s: FormState, instruments: Instrument[] | null, tifs: readonly Tif[]): Record<FieldName, string | null> {
  const known = instruments?.some((i) => i.symbol === s.symbol);
  return {
    symbol: s.symbol === '' ? 'type a symbol' : instruments && !known ? 'no such equity (Tab completes)' : null,
    qty: /^[1-9]\d{0,9}$/.test(s.qty) ? null : 'whole shares, at least 1',
    type: null,
    limit: s.type === 'limit' ? limitPriceProblem(s.limit, s.quote?.band ?? null) : null,
    tif: tifs.includes(s.tif) ? null : `${s.tif} is refused while the market is closed: day or gtc`,
  };
}

function cycle<T>(list: readonly T[], value: T, by: number): T {
  return list[(list.indexOf(value) + by + list.length) % list.length];
}

function reduce(s: FormState, a: Action): FormState {
  if (a.kind === 'quote') return { ...s, quote: a.quote };
  if (s.step === 'submitted' || s.step === 'cancelled') return s;
  const { input, key } = a;
  if (s.step === 'confirming') {
    if (key.return || input === 'y') return { ...s, step: 'submitted' };
    if (key.escape || input === 'n') return { ...s, step: 'editing' };
    return s;
  }
  const fields = fieldsOf(s);
  const current = fields[Math.min(s.field, fields.length - 1)];
  const go = (by: number): FormState => ({ ...s, field: Math.max(0, Math.min(fields.length - 1, s.field + by)) });
  if (key.escape) return { ...s, step: 'cancelled' };
  if (key.upArrow || (key.tab && key.shift)) return go(-1);
  if (key.tab && current === 'symbol') {
    const matches = matchesOf(s.symbol, a.instruments);
    if (matches.length > 0 && !matches.some((m) => m.symbol === s.symbol)) return { ...s, symbol: matches[0].symbol };
  }
  if (key.downArrow || key.tab) return go(1);
  if (key.return) {
    const problems = problemsOf(s, a.instruments, a.tifs);
    const shown = [...new Set([...s.shown, current])];
    if (problems[current] !== null) return { ...s, shown };
    if (s.field < fields.length - 1) return { ...go(1), shown };
    const firstBad = fields.findIndex((f) => problems[f] !== null);
    if (firstBad >= 0) return { ...s, shown: fields, field: firstBad };
    return { ...s, shown, step: 'confirming' };
  }
  const by = key.leftArrow ? -1 : 1;
  const choose = key.leftArrow || key.rightArrow || input === ' ';
  if (current === 'type' && choose) return { ...s, type: cycle(TYPES, s.type, by) };
  if (current === 'tif' && choose) return { ...s, tif: cycle(a.tifs, s.tif, by) };
  const edit = (value: string, allowed: RegExp, transform = (t: string) => t): string => {
    if (key.backspace || key.delete) return value.slice(0, -1);
    if (input && !key.ctrl && !key.meta && allowed.test(input)) return value + transform(input);
    return value;
  };
  if (current === 'symbol') return { ...s, symbol: edit(s.symbol, /^[A-Za-z0-9]+$/, (t) => t.toUpperCase()) };
  if (current === 'qty') return { ...s, qty: edit(s.qty, /^\d+$/) };
  if (current === 'limit') return { ...s, limit: edit(s.limit, /^[\d.]+$/) };
  return s;
}

export function OrderForm(props: OrderFormProps) {
  const [s, dispatch] = useReducer(reduce, undefined, (): FormState => ({
    symbol: '', qty: '', type: 'market', limit: '', tif: 'day', field: 0, shown: [], quote: null, step: 'editing',
  }));
  const fields = fieldsOf(s);
  const current = fields[Math.min(s.field, fields.length - 1)];
  const known = props.instruments?.find((i) => i.symbol === s.symbol);
  const matches = matchesOf(s.symbol, props.instruments).map((i) => i.symbol);
  const quote = s.quote?.symbol === s.symbol ? s.quote : null;
  const tifs = offeredTifs(quote ? quote.session_open : props.marketOpen);
  const problems = problemsOf(s, props.instruments, tifs);
  const limitMicros = s.type === 'limit' && problems.limit === null ? parseEgp(s.limit) : null;
  const draft = { side: props.side, qty: Number(s.qty), limitPriceMicros: limitMicros };
  const estimate = quote && problems.qty === null && (s.type === 'market' || limitMicros !== null) ? estimateOrder(draft, quote) : null;

  useKeys((input, key) => dispatch({ kind: 'key', input, key, instruments: props.instruments, tifs }));

  useEffect(() => {
    dispatch({ kind: 'quote', quote: null });
    if (!known) return;
    let live = true;
    props.loadQuote(known.symbol).then((q) => live && dispatch({ kind: 'quote', quote: q }), () => undefined);
    return () => {
      live = false;
    };
  }, [known?.symbol]);

  useEffect(() => {
    if (s.step === 'cancelled') props.onCancel();
    if (s.step !== 'submitted') return;
    const request: OrderRequest = { investor_id: props.investorId, symbol: s.symbol, side: props.side, type: s.type, qty: Number(s.qty), time_in_force: s.tif };
    if (limitMicros !== null) request.limit_price_micros = limitMicros;
    props.onSubmit(request);
  }, [s.step]);

  const cash = props.balances?.cash.find((c) => c.asset === 'cash:EGP');
  const held = props.balances?.securities.find((x) => (x.symbol ?? x.asset) === s.symbol);
  const short = estimate?.reservation && (props.side === 'buy' ? cash !== undefined && estimate.reservation.cashMicros > cash.settled : (held?.settled ?? 0) < draft.qty);
  // A limit off the tick shows at once: typing more digits cannot bring it back on the grid.
  const problemOf = (f: FieldName) => (s.shown.includes(f) || (f === 'limit' && / tick: use /.test(problems.limit ?? '')) ? problems[f] : null);
  const editing = s.step === 'editing';
  const color = props.side === 'buy' ? 'green' : 'red';

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color} paddingX={1}>
      <Text bold color={color}>
        {props.side === 'buy' ? 'Buy' : 'Sell'} <Text dimColor>{`for ${props.investorId}`}</Text>
      </Text>
      <Field label="symbol" value={s.symbol} active={editing && current === 'symbol'} note={known ? known.name : matches.length ? `Tab: ${matches.slice(0, 8).join(' ')}` : undefined} invalid={problemOf('symbol')} />
      <Field label="qty" value={s.qty} active={editing && current === 'qty'} invalid={problemOf('qty')} />
      <Field label="type" value={s.type} choices={TYPES} active={editing && current === 'type'} />
      {s.type === 'limit' ? <Field label="limit" value={s.limit} active={editing && current === 'limit'} note="EGP" invalid={problemOf('limit')} /> : null}
      <Field label="tif" value={s.tif} choices={tifs} active={editing && current === 'tif'} note={tifs === CLOSED_TIFS ? 'ioc and fok need an open market' : undefined} invalid={problemOf('tif')} />
      {quote ? (
        <Text dimColor>
          {`${quote.symbol} ${quotePrice(quote)}  band ${priceText(quote.band.lower_micros)}-${priceText(quote.band.upper_micros)}  tick ${tick(quote.tick_micros)}  ${quote.halted ? 'HALTED' : quote.session_open ? 'in session' : 'market closed: day and gtc orders queue for the open'}`}
        </Text>
      ) : null}
      {estimate ? estimateLines(draft, estimate).map((l, i) => <Text key={i}>{l}</Text>) : <Text dimColor>The estimate shows once the symbol and quantity are set.</Text>}
      {props.side === 'buy' && cash ? <Text dimColor>{`Settled cash available ${egp(cash.settled)} EGP`}</Text> : null}
      {props.side === 'sell' && known ? <Text dimColor>{`Settled ${s.symbol} shares available ${held?.settled ?? 0}`}</Text> : null}
      {short ? <Text color="yellow">{props.side === 'buy' ? 'More than the settled cash: the daemon will refuse it (INSUFFICIENT_SETTLED_CASH).' : 'More than the settled shares: the daemon will refuse it (INSUFFICIENT_SETTLED_SECURITIES).'}</Text> : null}
      {s.step === 'confirming' ? (
        <Text bold>
          {`Place ${props.side} ${s.qty} ${s.symbol} ${s.type === 'limit' ? `limit ${s.limit}` : 'market'} ${s.tif}?`} <Text color="cyan">y/Enter place · n/Esc back</Text>
        </Text>
      ) : (
        <Text dimColor>Enter next · ↑↓ move · ←→ change · Tab complete · Esc cancel</Text>
      )}
    </Box>
  );
}
