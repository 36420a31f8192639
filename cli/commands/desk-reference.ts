// svc desk reference KIND: the desk's reference data (X-Console-Key from the profile): instruments,
// calendar [--year Y | --start D --end D], fees, ticks, holidays [--year Y]. --json is the API's body.
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { egp, ok, price, printJson, table, tick, usage } from '../output.js';
import type {
  ReferenceCalendar,
  ReferenceFees,
  ReferenceHolidays,
  ReferenceInstruments,
  ReferenceTicks,
} from '../../daemon/contract/schemas/desk-reports.js';

export const REFERENCE_KINDS = ['instruments', 'calendar', 'fees', 'ticks', 'holidays'] as const;
type Kind = (typeof REFERENCE_KINDS)[number];

export interface ReferenceOptions {
  year?: string;
  start?: string;
  end?: string;
}

/** Tenths of a basis point, exactly: 125 -> "12.5 bp". */
const bps = (rateBpsX10: number) => `${Math.trunc(rateBpsX10 / 10)}${rateBpsX10 % 10 ? `.${rateBpsX10 % 10}` : ''} bp`;

/** A note wrapped at word boundaries to fit 100 columns. */
function wrap(text: string, width = 96): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** Cut to `n` characters with an ellipsis, so a table fits 100 columns (--json has the full text). */
const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

function instruments(r: ReferenceInstruments): string {
  return `${table(
    ['symbol', 'name', 'type', 'sector', 'ref price', 'shariah'],
    r.instruments.map((i) => [
      i.symbol,
      cut(i.name, 34),
      i.security_type,
      cut(i.sector, 20),
      price(i.ref_price_micros),
      i.shariah_compliant ? 'yes' : 'no',
    ]),
  )}\n`;
}

function calendar(r: ReferenceCalendar): string {
  return (
    `${r.calendar.length} trading days ${r.start_date} to ${r.end_date} (${r.zone})\n` +
    table(
      ['date', 'open', 'close', 'settles'],
      r.calendar.map((d) => [d.date, d.open, d.close, d.settlement_date]),
    ) +
    '\n'
  );
}

function fees(r: ReferenceFees): string {
  return `${table(
    ['line', 'kind', 'rate', 'min EGP', 'max EGP', 'what'],
    r.lines.map((l) => [l.line, l.kind, bps(l.rate_bps_x10), egp(l.min_micros), egp(l.max_micros), l.description]),
  )}\n${wrap(r.note)}\n`;
}

function ticks(r: ReferenceTicks): string {
  return `${table(
    ['from EGP', 'below EGP', 'tick EGP'],
    r.ticks.map((x) => [
      price(x.from_micros),
      x.below_micros === null ? '-' : price(x.below_micros),
      tick(x.tick_micros),
    ]),
  )}\nDaily price band: +/-${r.band_bps / 100}% around the reference price.\n${wrap(r.note)}\n`;
}

function holidays(r: ReferenceHolidays): string {
  if (r.holidays.length === 0) return 'No exchange holidays listed.\n';
  return `${table(
    ['date', 'holiday', 'status'],
    r.holidays.map((h) => [h.date, cut(h.name, 70), h.status]),
  )}\n`;
}

function query(kind: Kind, o: ReferenceOptions): string {
  const p = new URLSearchParams();
  if (o.year !== undefined) {
    if (kind !== 'calendar' && kind !== 'holidays') usage('--year applies to calendar and holidays');
    if (!/^\d{4}$/.test(o.year)) usage(`--year ${o.year} must be YYYY`);
    p.set('year', o.year);
  }
  for (const k of ['start', 'end'] as const) {
    const v = o[k];
    if (v === undefined) continue;
    if (kind !== 'calendar') usage(`--${k} applies to calendar`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) usage(`--${k} ${v} must be YYYY-MM-DD`);
    p.set(k, v);
  }
  return p.size ? `?${p}` : '';
}

/** Each kind's body, as the daemon's schema types it, and how it prints. */
interface Bodies {
  instruments: ReferenceInstruments;
  calendar: ReferenceCalendar;
  fees: ReferenceFees;
  ticks: ReferenceTicks;
  holidays: ReferenceHolidays;
}
const RENDER: { [K in Kind]: (r: Bodies[K]) => string } = { instruments, calendar, fees, ticks, holidays };

async function show<K extends Kind>(kind: K, opts: ReferenceOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const path = `/broker/v1/reference/${kind}${query(kind, opts)}`;
  const res = ok(await api<Bodies[K]>(resolveProfile(g), 'GET', path), json);
  if (json) return printJson(res);
  process.stdout.write(RENDER[kind](res));
}

export async function reference(opts: ReferenceOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const kind = args[0] as Kind;
  if (!REFERENCE_KINDS.includes(kind)) usage(`KIND must be one of ${REFERENCE_KINDS.join(', ')}`);
  return show(kind, opts, g);
}
