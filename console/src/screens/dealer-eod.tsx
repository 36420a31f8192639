// The dealer's end of day (GET /broker/v1/eod): the day's trades, the fee lines summed (each named in
// the reader's language, never the API's key), the settlement obligations falling due per investor and
// net for the broker, and every cash movement of the day with the totals by type. Polls.
import { call } from '../api';
import { usePoll } from '../hooks';
import { labelIn, useT } from '../i18n';
import { egp, Empty, ErrorBox, Section } from '../ui';
import { Executions, type Execution } from './dealer-reads';

interface SideTotal {
  fills: number;
  gross_micros: number;
  net_micros: number;
}
interface Obligation {
  investor_id: string;
  account_number: string;
  buy: SideTotal;
  sell: SideTotal;
  pending_fills: number;
  net_cash_micros: number;
}
interface Movement {
  activity_id: string;
  activity_type: string;
  account_number: string;
  amount_micros: number;
  description: string;
  at: string;
}
interface Eod {
  as_of: string;
  date?: string;
  trades?: Execution[];
  fees_by_line: Record<string, number>;
  cash: {
    movements: Movement[];
    totals: Array<{ activity_type: string; count: number; in_micros: number; out_micros: number; net_micros: number }>;
  };
  settlements_due: {
    investors: Obligation[];
    broker: { buy: SideTotal; sell: SideTotal; pending_fills: number; net_cash_micros: number };
  };
}

function FeeLines({ lines }: { lines: Record<string, number> }) {
  const { lang } = useT();
  return (
    <dl className="grid">
      {Object.entries(lines).map(([k, v]) => {
        const key = k.replace(/_micros$/, '');
        return (
          <div key={k} data-fee-line={key}>
            <dt>{labelIn(lang, key)}</dt>
            <dd className="num">{egp(v)}</dd>
          </div>
        );
      })}
    </dl>
  );
}

/** One investor's (or the broker's) obligation: what they pay for buys, receive for sells, and the net (+ due to them).
 * */
function ObligationCells({
  o,
}: {
  o: { buy: SideTotal; sell: SideTotal; pending_fills: number; net_cash_micros: number };
}) {
  return (
    <>
      <td className="num">
        {egp(o.buy.net_micros)} <span className="muted">({o.buy.fills})</span>
      </td>
      <td className="num">
        {egp(o.sell.net_micros)} <span className="muted">({o.sell.fills})</span>
      </td>
      <td className="num">{o.pending_fills}</td>
      <td className="num" data-net={o.net_cash_micros}>
        <strong>{egp(o.net_cash_micros)}</strong>
      </td>
    </>
  );
}

function Obligations({ due }: { due: Eod['settlements_due'] }) {
  const { t } = useT();
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th>{t('perInvestor')}</th>
            <th>{t('buys')}</th>
            <th>{t('sells')}</th>
            <th>{t('pendingFills')}</th>
            <th>{t('net')}</th>
          </tr>
        </thead>
        <tbody>
          {due.investors.map((i) => (
            <tr key={i.investor_id} data-obligation={i.investor_id}>
              <td>
                <bdi dir="ltr" className="nowrap">
                  {i.account_number}
                </bdi>
                <br />
                <span className="muted">
                  <bdi dir="ltr">{i.investor_id}</bdi>
                </span>
              </td>
              <ObligationCells o={i} />
            </tr>
          ))}
          <tr data-obligation="broker">
            <th scope="row">{t('broker')}</th>
            <ObligationCells o={due.broker} />
          </tr>
        </tbody>
      </table>
    </div>
  );
}

function Movements({ cash }: { cash: Eod['cash'] }) {
  const { t, lang } = useT();
  return (
    <>
      {cash.movements.length === 0 ? (
        <Empty />
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>{t('time')}</th>
                <th>{t('kind')}</th>
                <th>{t('account')}</th>
                <th>{t('amount')}</th>
              </tr>
            </thead>
            <tbody>
              {cash.movements.map((m) => (
                <tr key={m.activity_id} data-activity={m.activity_id}>
                  <td className="nowrap" title={m.at}>
                    <bdi dir="ltr">{m.at.slice(11, 19)}</bdi>
                  </td>
                  <td>
                    {labelIn(lang, m.activity_type)}
                    <br />
                    <span className="muted">
                      <bdi dir="ltr">{m.activity_id}</bdi>
                    </span>
                  </td>
                  <td>
                    <bdi dir="ltr" className="nowrap">
                      {m.account_number}
                    </bdi>
                  </td>
                  <td className="num">{egp(m.amount_micros)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>{t('totals')}</h3>
      <dl className="grid">
        {cash.totals.map((c) => (
          <div key={c.activity_type} data-cash-total={c.activity_type}>
            <dt>
              {labelIn(lang, c.activity_type)} ({c.count})
            </dt>
            <dd className="num">{egp(c.net_micros)}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

export function Eod() {
  const { t } = useT();
  const q = usePoll(() => call<Eod>('GET', '/broker/v1/eod'));
  const d = q.data;
  return (
    <Section title={t('eod')} updated={d !== null}>
      <ErrorBox error={q.error} />
      {d && (
        <>
          <p className="muted">
            <bdi dir="ltr">{d.date ?? ''}</bdi> · <bdi dir="ltr">{d.as_of}</bdi>
          </p>
          <h2>{t('trades')}</h2>
          <Executions rows={d.trades ?? []} />
          <h2>{t('fees')}</h2>
          <FeeLines lines={d.fees_by_line} />
          <h2>{t('obligations')}</h2>
          <Obligations due={d.settlements_due} />
          <h2>{t('cash')}</h2>
          <Movements cash={d.cash} />
        </>
      )}
    </Section>
  );
}
