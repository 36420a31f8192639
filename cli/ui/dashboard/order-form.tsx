// The dashboard's order form: symbol (completed from the catalog), quantity, market or limit, time in
// force; the estimate (value, each fee, stamp duty, what the order reserves) updates as you type, and
// nothing is sent before you confirm it. A limit off the tick grid is refused as it is typed, naming the
// nearest prices on it; ioc and fok are not offered while the market is closed. What stops every order
// of the account (suitability, risk disclosure, a closed or restricted account) is said when the form
// opens, and no field is offered then. Keys go through a reducer run at once on the latest state, so
// keys arriving together (a paste, a fast typist, tmux send-keys) each see the state the previous one
// left, and the key that confirms or cancels hands over at once.
import { useEffect, useRef, useState } from 'react';
import { Box, Text, type Key } from 'ink';
import { estimateLines, estimateOrder } from '../../estimate.js';
import { limitPriceProblem, parseEgp } from '../../money.js';
import { egp, tick } from '../../output.js';
import type { Account, Balances, Instrument, OrderRequest, Quote } from '../../live/source.js';
import { priceText, quotePrice } from '../format.js';
import { Field, useKeys } from '../inputs.js';
import { orderGate, orderNotes, type Gate } from './gates.js';

const TYPES = ['market', 'limit'] as const;
const TIFS = ['day', 'gtc', 'ioc', 'fok'] as const;
type Tif = (typeof TIFS)[number];
/** While the market is closed the daemon refuses ioc and fok (MARKET_CLOSED): only these are offered. */
const CLOSED_TIFS: readonly Tif[] = ['day', 'gtc'];
type FieldName = 'symbol' | 'qty' | 'type' | 'limit' | 'tif';

export interface OrderFormProps {
  side: 'buy' | 'sell';
  investorId: string;
  /** The investor's account as last read (null: not read yet); its gates are checked as the form opens. */
  account: Account | null;
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

/** What the fields are checked against: the catalog, the times in force offered, a shariah-only buyer. */
interface Rules {
  instruments: Instrument[] | null;
  tifs: readonly Tif[];
  shariahOnlyBuy: boolean;
}

type Action = { kind: 'key'; input: string; key: Key; rules: Rules } | { kind: 'quote'; quote: Quote | null };

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

function symbolProblem(symbol: string, rules: Rules): string | null {
  if (symbol === '') return 'type a symbol';
  const known = rules.instruments?.find((i) => i.symbol === symbol);
  if (rules.instruments && !known) return 'no such equity (Tab completes)';
  if (known && rules.shariahOnlyBuy && known.shariah_compliant === false)
    return 'not shariah-compliant: this investor buys only compliant shares';
  return null;
}

function problemsOf(s: FormState, rules: Rules): Record<FieldName, string | null> {
  const { tifs } = rules;
  return {
    symbol: symbolProblem(s.symbol, rules),
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
    const matches = matchesOf(s.symbol, a.rules.instruments);
    if (matches.length > 0 && !matches.some((m) => m.symbol === s.symbol)) return { ...s, symbol: matches[0].symbol };
  }
  if (key.downArrow || key.tab) return go(1);
  if (key.return) {
    const problems = problemsOf(s, a.rules);
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
  if (current === 'tif' && choose) return { ...s, tif: cycle(a.rules.tifs, s.tif, by) };
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

const TIF_MEANING: Record<Tif, string> = {
  day: 'until the close',
  gtc: 'good till cancelled',
  ioc: 'fill now, cancel the rest',
  fok: 'fill all now or nothing',
};

const EMPTY: FormState = {
  symbol: '',
  qty: '',
  type: 'market',
  limit: '',
  tif: 'day',
  field: 0,
  shown: [],
  quote: null,
  step: 'editing',
};

function requestOf(s: FormState, props: OrderFormProps): OrderRequest {
  const request: OrderRequest = {
    investor_id: props.investorId,
    symbol: s.symbol,
    side: props.side,
    type: s.type,
    qty: Number(s.qty),
    time_in_force: s.tif,
  };
  if (s.type === 'limit') request.limit_price_micros = parseEgp(s.limit);
  return request;
}

/** The form's title: the side and the investor, by name once the account is read. */
function FormTitle(props: { side: 'buy' | 'sell'; investorId: string; account: Account | null; color: string }) {
  const who = props.account ? `${props.account.name} (${props.investorId})` : props.investorId;
  return (
    <Text bold color={props.color} wrap="truncate">
      {props.side === 'buy' ? 'Buy' : 'Sell'} <Text dimColor>{`for ${who}`}</Text>
    </Text>
  );
}

/** What the form shows instead of its fields when the account cannot place this order at all. */
function GateView(props: { side: 'buy' | 'sell'; investorId: string; account: Account; gate: Gate }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <FormTitle side={props.side} investorId={props.investorId} account={props.account} color="yellow" />
      <Text color="yellow">{props.gate.reason}</Text>
      <Text>{props.gate.remedy}</Text>
      <Text dimColor>The form opens once the account allows it (this screen rereads it every refresh). Esc close</Text>
    </Box>
  );
}

/** The market line under the fields: the symbol's price, today's limits, its price step, the session. */
function quoteLine(quote: Quote): string {
  const session = quote.halted ? 'HALTED: no trading now' : quote.session_open ? 'in session' : 'market closed';
  return (
    `${quote.symbol} ${quotePrice(quote)} · limits ${priceText(quote.band.lower_micros)}-` +
    `${priceText(quote.band.upper_micros)} · step ${tick(quote.tick_micros)} · ${session}`
  );
}

/** The lines below the fields: what is available, and whether the order is more than that. */
/** Why there is no estimate yet: the first field it waits for, or what is wrong with the one that is set. */
function noEstimate(s: FormState, problems: Record<FieldName, string | null>, quote: Quote | null): string {
  if (problems.symbol !== null) return 'The estimate shows once the symbol is set.';
  if (problems.qty !== null) return 'The estimate shows once the shares are set.';
  if (s.type === 'limit' && s.limit.trim() === '') return 'The estimate shows once the limit is set.';
  if (s.type === 'limit' && problems.limit !== null) return `No estimate: ${problems.limit}`;
  if (quote === null) return `Reading the quote of ${s.symbol}…`;
  return 'No estimate: the order is too large to value.';
}

function availability(
  props: OrderFormProps,
  s: FormState,
  known: Instrument | undefined,
  reservation: { cashMicros: number } | null | undefined,
): { line: string | null; short: string | null } {
  const cash = props.balances?.cash.find((c) => c.asset === 'cash:EGP');
  const held = props.balances?.securities.find((x) => (x.symbol ?? x.asset) === s.symbol);
  if (props.side === 'buy') {
    const line = cash ? `Settled cash available ${egp(cash.settled)} EGP` : null;
    const short =
      reservation && cash !== undefined && reservation.cashMicros > cash.settled
        ? `More than the ${egp(cash.settled)} EGP of settled cash: this order would be refused.`
        : null;
    return { line, short };
  }
  const shares = held?.settled ?? 0;
  const line = known ? `Settled ${s.symbol} shares available ${shares}` : null;
  const short =
    reservation && shares < Number(s.qty)
      ? `More than the ${shares} settled ${s.symbol} shares: this order would be refused.`
      : null;
  return { line, short };
}

/** The order as typed so far, and its estimate once the quote is in and the quantity and price are valid. */
function estimateOf(s: FormState, side: 'buy' | 'sell', problems: ReturnType<typeof problemsOf>, quote: Quote | null) {
  const limitMicros = s.type === 'limit' && problems.limit === null ? parseEgp(s.limit) : null;
  const draft = { side, qty: Number(s.qty), limitPriceMicros: limitMicros };
  const estimate =
    quote && problems.qty === null && (s.type === 'market' || limitMicros !== null)
      ? estimateOrder(draft, quote)
      : null;
  return { draft, estimate };
}

/** Under the symbol: the instrument's name, or the symbols that Tab would complete to. */
function symbolNoteOf(known: Instrument | undefined, symbol: string, instruments: Instrument[] | null) {
  if (known) return known.name;
  const matches = matchesOf(symbol, instruments).map((i) => i.symbol);
  return matches.length ? `Tab: ${matches.slice(0, 8).join(' ')}` : undefined;
}

/** Asks for the chosen symbol's quote; re-quotes only when the symbol changes, not on every keystroke. */
function useQuoteOf(
  symbol: string | undefined,
  apply: (a: Action) => void,
  loadQuote: OrderFormProps['loadQuote'],
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the symbol matters, as said above
  useEffect(() => {
    apply({ kind: 'quote', quote: null });
    if (!symbol) return;
    let live = true;
    loadQuote(symbol).then(
      (q) => live && apply({ kind: 'quote', quote: q }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [symbol]);
}

/** The form's fields; `active` is the field being edited (null while confirming). */
function FormFields(p: {
  s: FormState;
  active: FieldName | null;
  symbolNote: string | undefined;
  tifs: readonly Tif[];
  tifNote: string;
  problemOf: (f: FieldName) => string | null;
}) {
  const { s, active, problemOf } = p;
  return (
    <>
      <Field
        label="symbol"
        value={s.symbol}
        active={active === 'symbol'}
        note={p.symbolNote}
        invalid={problemOf('symbol')}
      />
      <Field label="shares" value={s.qty} active={active === 'qty'} invalid={problemOf('qty')} />
      <Field label="type" value={s.type} choices={TYPES} active={active === 'type'} />
      {s.type === 'limit' ? (
        <Field
          label="limit"
          value={s.limit}
          active={active === 'limit'}
          note="EGP a share"
          invalid={problemOf('limit')}
        />
      ) : null}
      <Field
        label="validity"
        value={s.tif}
        choices={p.tifs}
        active={active === 'tif'}
        note={p.tifNote}
        invalid={problemOf('tif')}
      />
    </>
  );
}

function OrderNotes({ account, side }: { account: Account; side: 'buy' | 'sell' }) {
  return (
    <>
      {orderNotes(account, side).map((n) => (
        <Text key={n} color="yellow">
          {n}
        </Text>
      ))}
    </>
  );
}

function EstimateLines({ lines }: { lines: string[] }) {
  return (
    <>
      {lines.map((l, i) => (
        <Text key={i} wrap="truncate">
          {l}
        </Text>
      ))}
    </>
  );
}

/** The last line: the question while confirming, else the keys. */
function Footer({ side, s }: { side: 'buy' | 'sell'; s: FormState }) {
  if (s.step !== 'confirming')
    return (
      <Text dimColor wrap="truncate">
        Enter next · ↑↓ move · ←→ change · Tab complete · Esc cancel
      </Text>
    );
  const how = s.type === 'limit' ? `limit ${s.limit}` : 'market';
  return (
    <Text bold>
      {`Place ${side} ${s.qty} ${s.symbol} ${how} ${s.tif}?`} <Text color="cyan">y/Enter place · n/Esc back</Text>
    </Text>
  );
}

export function OrderForm(props: OrderFormProps) {
  const [s, setS] = useState<FormState>(EMPTY);
  const at = useRef(s);
  const fields = fieldsOf(s);
  const current = fields[Math.min(s.field, fields.length - 1)];
  const known = props.instruments?.find((i) => i.symbol === s.symbol);
  const quote = s.quote?.symbol === s.symbol ? s.quote : null;
  const tifs = offeredTifs(quote ? quote.session_open : props.marketOpen);
  const rules: Rules = {
    instruments: props.instruments,
    tifs,
    shariahOnlyBuy: props.side === 'buy' && props.account?.shariah_only === true,
  };
  const problems = problemsOf(s, rules);
  const { draft, estimate } = estimateOf(s, props.side, problems, quote);
  const gate = props.account ? orderGate(props.account, props.side) : null;

  /** Runs the reducer on the latest state at once; confirming or cancelling hands over in the same key. */
  const apply = (a: Action) => {
    const before = at.current;
    const next = reduce(before, a);
    if (next === before) return;
    at.current = next;
    setS(next);
    if (next.step === before.step) return;
    if (next.step === 'cancelled') props.onCancel();
    else if (next.step === 'submitted') props.onSubmit(requestOf(next, props));
  };
  useKeys((input, key) => {
    if (gate) {
      if (key.escape || key.return) props.onCancel();
      return;
    }
    apply({ kind: 'key', input, key, rules });
  });

  useQuoteOf(known?.symbol, apply, props.loadQuote);

  if (gate && props.account)
    return <GateView side={props.side} investorId={props.investorId} account={props.account} gate={gate} />;
  const { line, short } = availability(props, s, known, estimate?.reservation);
  // A limit off the tick shows at once: typing more digits cannot bring it back on the grid.
  const problemOf = (f: FieldName) =>
    s.shown.includes(f) || (f === 'limit' && / tick: use /.test(problems.limit ?? '')) ? problems[f] : null;
  const editing = s.step === 'editing';
  const color = props.side === 'buy' ? 'green' : 'red';
  const tifNote = `${TIF_MEANING[s.tif]}${tifs === CLOSED_TIFS ? ' · ioc and fok need an open market' : ''}`;

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color} paddingX={1}>
      <FormTitle side={props.side} investorId={props.investorId} account={props.account} color={color} />
      {props.account ? <OrderNotes account={props.account} side={props.side} /> : null}
      <FormFields
        s={s}
        active={editing ? current : null}
        symbolNote={symbolNoteOf(known, s.symbol, props.instruments)}
        tifs={tifs}
        tifNote={tifNote}
        problemOf={problemOf}
      />
      {quote ? (
        <Text dimColor wrap="truncate">
          {quoteLine(quote)}
        </Text>
      ) : null}
      {estimate ? (
        <EstimateLines lines={estimateLines(draft, estimate)} />
      ) : (
        <Text dimColor>{noEstimate(s, problems, quote)}</Text>
      )}
      {line ? <Text dimColor>{line}</Text> : null}
      {short ? <Text color="yellow">{short}</Text> : null}
      <Footer side={props.side} s={s} />
    </Box>
  );
}
