// svc market quotes|calendar
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { egp, ok, pct, printJson, table } from '../output.js';

export async function quotes(_opts: any, g: GlobalOptions, symbols: string[]): Promise<void> {
  const profile = resolveProfile(g);
  const json = Boolean(g.json);
  let list = symbols.map((s) => s.toUpperCase());
  if (list.length === 0) {
    const inst = ok(await api(profile, 'GET', '/v1/instruments?security_type=equity'), json);
    list = inst.instruments.map((i: any) => i.symbol);
  }
  const rows = [];
  for (const s of list) rows.push(ok(await api(profile, 'GET', `/v1/instruments/${encodeURIComponent(s)}/quote`), json));
  if (json) {
    printJson({ quotes: rows });
    return;
  }
  process.stdout.write(
    table(
      ['symbol', 'price', 'change', 'ref', 'band low', 'band high', 'tick', 'session'],
      rows.map((q) => {
        // Prices below 2 EGP move in 0.001 ticks: show three decimals there.
        const d = q.tick_micros < 10_000 ? 3 : 2;
        return [q.symbol, egp(q.price_micros, d), pct(q.change_pct), egp(q.ref_price_micros, d), egp(q.band.lower_micros, d), egp(q.band.upper_micros, d), egp(q.tick_micros, d), q.halted ? 'HALTED' : q.session_open ? 'open' : 'closed'];
      }),
    ) + `\n(as of ${rows[0]?.as_of ?? '-'}; prices in EGP)\n`,
  );
}

export async function calendar(opts: any, g: GlobalOptions): Promise<void> {
  const params = new URLSearchParams();
  if (opts.start) params.set('start', opts.start);
  if (opts.end) params.set('end', opts.end);
  const qs = params.size ? `?${params}` : '';
  const res = ok(await api(resolveProfile(g), 'GET', `/v1/calendar${qs}`), Boolean(g.json));
  if (g.json) {
    printJson(res);
    return;
  }
  process.stdout.write(table(['date', 'open', 'close', 'settles'], res.calendar.map((d: any) => [d.date, d.open, d.close, d.settlement_date])) + '\n');
}
