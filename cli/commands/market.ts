// svc market quotes|calendar|watch
import { setTimeout as sleep } from 'node:timers/promises';
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { apiSource } from '../live/api-source.js';
import { ok, pct, price, printJson, table, tick, usage } from '../output.js';
import { svc } from '../hints.js';
import { intervalOf } from './dashboard.js';
import type { components } from '../../client/src/generated/api.js';
import type { CalendarDay, Instrument, Quote } from '../../daemon/contract/schemas/market.js';

export interface CalendarOptions {
  start?: string;
  end?: string;
}

export interface WatchOptions {
  interval?: string;
  count?: string;
}

/** Each symbol's quote; an API error (say UNKNOWN_SYMBOL) is reported and exits 1. */
async function fetchQuotes(profile: Profile, symbols: string[], json: boolean): Promise<Quote[]> {
  const rows: Quote[] = [];
  for (const s of symbols)
    rows.push(ok(await api<Quote>(profile, 'GET', `/v1/instruments/${encodeURIComponent(s)}/quote`), json));
  return rows;
}

export async function quotes(_opts: unknown, g: GlobalOptions, symbols: string[]): Promise<void> {
  const profile = resolveProfile(g);
  const json = Boolean(g.json);
  let list = symbols.map((s) => s.toUpperCase());
  if (list.length === 0) {
    const inst = ok(
      await api<{ instruments: Instrument[] }>(profile, 'GET', '/v1/instruments?security_type=equity'),
      json,
    );
    list = inst.instruments.map((i) => i.symbol);
  }
  const rows = await fetchQuotes(profile, list, json);
  if (json) {
    printJson({ quotes: rows });
    return;
  }
  process.stdout.write(
    `${table(
      ['symbol', 'price', 'change', 'ref', 'band low', 'band high', 'tick', 'session'],
      // Each price at its tick's decimals: three below 2 EGP (0.001 ticks), two above.
      rows.map((q) => [
        q.symbol,
        price(q.price_micros),
        pct(q.change_pct),
        price(q.ref_price_micros),
        price(q.band.lower_micros),
        price(q.band.upper_micros),
        tick(q.tick_micros),
        q.halted ? 'HALTED' : q.session_open ? 'open' : 'closed',
      ]),
    )}\n(as of ${rows[0]?.as_of ?? '-'}; prices in EGP)\n${closedNote(rows)}`,
  );
}

/** Between sessions a quote is the next session's: say so, or a flat change reads like a flat day. */
function closedNote(rows: Quote[]): string {
  if (rows.length === 0 || rows.some((q) => q.session_open)) return '';
  return "(market closed: next session's ref and band; ref = last close, change from it)\n";
}

type ClosedDay = components['schemas']['ClosedDay'];

/** Trading days and the named holidays between them, in date order: a closed day reads "closed" and its name. */
export function calendarRows(days: CalendarDay[], closed: ClosedDay[]): string[][] {
  const rows = [
    ...days.map((d) => [d.date, d.open, d.close, d.settlement_date, '']),
    ...closed.map((h) => [h.date, 'closed', '', '', h.name]),
  ];
  return rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

export async function calendar(opts: CalendarOptions, g: GlobalOptions): Promise<void> {
  const params = new URLSearchParams();
  if (opts.start) params.set('start', opts.start);
  if (opts.end) params.set('end', opts.end);
  const qs = params.size ? `?${params}` : '';
  const res = ok(
    await api<{ calendar: CalendarDay[]; closed_days: ClosedDay[] }>(resolveProfile(g), 'GET', `/v1/calendar${qs}`),
    Boolean(g.json),
  );
  if (g.json) {
    printJson(res);
    return;
  }
  const rows = calendarRows(res.calendar, res.closed_days);
  process.stdout.write(`${table(['date', 'open', 'close', 'settles', 'holiday'], rows)}\n`);
  process.stdout.write('Fridays and Saturdays are the weekend; the exchange is closed on the holidays listed.\n');
}

/**
 * svc market watch SYMBOL...: a live quote strip. On a terminal an Ink strip redrawn every --interval
 * seconds; otherwise one plain line per refresh (--json: one JSON object per line). --count N stops
 * after N refreshes. Symbols are checked once before the first refresh.
 */
export async function watch(opts: WatchOptions, g: GlobalOptions, symbols: string[]): Promise<void> {
  const json = Boolean(g.json);
  const list = [...new Set(symbols.map((s) => s.toUpperCase()))];
  if (list.length === 0) usage(`name at least one symbol, e.g. ${svc('market watch COMI TMGH')}`);
  const intervalMs = intervalOf(opts.interval);
  let count: number | null = null;
  if (opts.count !== undefined) {
    if (!/^[1-9]\d{0,8}$/.test(opts.count))
      usage(`--count ${opts.count} must be a whole number of refreshes, at least 1`);
    count = Number(opts.count);
  }
  const profile = resolveProfile(g);
  const first = await fetchQuotes(profile, list, json);
  if (!json && process.stdout.isTTY) {
    const { renderWatch } = await import('../ui/watch/render.js');
    await renderWatch(apiSource(profile), { symbols: list, intervalMs, count });
    return;
  }
  for (let n = 1; ; n++) {
    const quotes = n === 1 ? first : await fetchQuotes(profile, list, json);
    if (json) process.stdout.write(`${JSON.stringify({ as_of: quotes[0].as_of, quotes })}\n`);
    else
      process.stdout.write(
        `${quotes[0].as_of}  ${quotes
          .map((q) => `${q.symbol} ${price(q.price_micros)} ${pct(q.change_pct)}${q.halted ? ' HALTED' : ''}`)
          .join('  ')}\n`,
      );
    if (count !== null && n >= count) return;
    await sleep(intervalMs);
  }
}
