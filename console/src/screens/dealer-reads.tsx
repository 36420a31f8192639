// The dealer's reads: the blotter of a trade date and the order book of a symbol (end of day is in
// dealer-eod.tsx). Each polls.
import { useState } from 'react';
import { call } from '../api';
import { usePoll } from '../hooks';
import { useT, valueIn } from '../i18n';
import { egp, Empty, ErrorBox, Section } from '../ui';

export interface Execution {
  fill_id: string;
  order_id: string;
  symbol: string;
  side: string;
  qty: number;
  price_micros: number;
  net_micros: number;
  account_number: string;
  executed_at: string;
  fees_micros?: number;
}

export function Executions({ rows }: { rows: Execution[] }) {
  const { t, lang } = useT();
  if (rows.length === 0) return <Empty />;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th>{t('time')}</th>
            <th>{t('symbol')}</th>
            <th>{t('side')}</th>
            <th>{t('qty')}</th>
            <th>{t('price')}</th>
            <th>{t('net')}</th>
            <th>{t('account')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.fill_id} data-order={e.order_id}>
              <td className="nowrap" title={e.executed_at}>
                {e.executed_at.slice(11, 19)}
              </td>
              <td>{e.symbol}</td>
              <td className={e.side}>{valueIn(lang, e.side)}</td>
              <td className="num">{e.qty}</td>
              <td className="num">{egp(e.price_micros)}</td>
              <td className="num">{egp(e.net_micros)}</td>
              <td>{e.account_number}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Blotter() {
  const { t } = useT();
  const [date, setDate] = useState('');
  const q = usePoll(
    () => call<{ date: string; executions: Execution[] }>('GET', `/broker/v1/blotter${date ? `?date=${date}` : ''}`),
    [date],
  );
  return (
    <Section title={t('blotter')} updated={q.data !== null}>
      <label className="inline">
        {t('date')} <input type="date" value={date || q.data?.date || ''} onChange={(e) => setDate(e.target.value)} />
      </label>
      <ErrorBox error={q.error} />
      {q.data && <Executions rows={q.data.executions} />}
    </Section>
  );
}

interface Level {
  price_micros: number;
  qty: number;
  orders: number;
}
interface OrderBook {
  symbol: string;
  last_price_micros: number;
  session_open: boolean;
  halted: boolean;
  band: { lower_micros: number; upper_micros: number };
  bids: Level[];
  asks: Level[];
  as_of: string;
}

function Levels({ title, levels, side }: { title: string; levels: Level[]; side: string }) {
  const { t } = useT();
  return (
    <div className="table-wrap">
      <table className={side}>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th>{t('price')}</th>
            <th>{t('qty')}</th>
            <th>{t('orders')}</th>
          </tr>
        </thead>
        <tbody>
          {levels.map((l) => (
            <tr key={l.price_micros}>
              <td className="num">{egp(l.price_micros)}</td>
              <td className="num">{l.qty}</td>
              <td className="num">{l.orders}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Book() {
  const { t } = useT();
  const [symbol, setSymbol] = useState('COMI');
  const [shown, setShown] = useState('COMI');
  const q = usePoll(
    () => call<OrderBook>('GET', `/broker/v1/markets/XCAI/instruments/${encodeURIComponent(shown)}/book?levels=10`),
    [shown],
  );
  return (
    <Section title={t('book')} updated={q.data !== null}>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setShown(symbol.trim().toUpperCase());
        }}
      >
        <label>
          {t('symbol')} <input value={symbol} onChange={(e) => setSymbol(e.target.value)} />
        </label>
        <button type="submit">{t('show')}</button>
      </form>
      <ErrorBox error={q.error} />
      {q.data && (
        <>
          <p className="muted">
            {q.data.symbol} · {t('tape')} {egp(q.data.last_price_micros)} · {t('band')}{' '}
            <bdi dir="ltr">
              {egp(q.data.band.lower_micros)} – {egp(q.data.band.upper_micros)}
            </bdi>{' '}
            · <bdi dir="ltr">{q.data.as_of}</bdi>
          </p>
          <div className="split">
            <Levels title={t('bids')} levels={q.data.bids} side="buy" />
            <Levels title={t('asks')} levels={q.data.asks} side="sell" />
          </div>
        </>
      )}
    </Section>
  );
}
