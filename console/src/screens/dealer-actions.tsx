// The dealer's decisions: the order queue (execute at a price inside the band, reject with a reason),
// funding (approve, reject) and KYC referrals (view the ID images, clear, decline). Each list polls;
// each decision is pessimistic (the row changes when the server has answered, and a refusal shows
// the error body's code and message).
import { useState } from 'react';
import { blobUrl, call } from '../api';
import { useAction, usePoll } from '../hooks';
import { labelIn, stateIn, useT, valueIn } from '../i18n';
import { egp, Empty, ErrorBox, Section, toMicros } from '../ui';

interface QueueItem {
  order_id: string;
  symbol: string;
  side: string;
  qty: number;
  filled_qty: number;
  limit_price_micros: number | null;
  time_in_force: string;
  created_at: string;
  investor_name: string;
  account_number: string;
  market: { price_micros: number; band: { lower_micros: number; upper_micros: number }; session_open: boolean };
}

const ORDER_REASONS = [
  'DEALER_REJECTED',
  'COMPLIANCE_REVIEW',
  'PRICE_AWAY_FROM_MARKET',
  'DUPLICATE_ORDER_SUSPECTED',
  'INSTRUMENT_HALTED',
  'INSUFFICIENT_BUYING_POWER',
];
const FUNDING_REASONS = [
  'SOURCE_OF_FUNDS_UNVERIFIED',
  'NAME_MISMATCH',
  'AML_REVIEW',
  'LIMIT_POLICY',
  'DEALER_REJECTED',
];
const KYC_REASONS = [
  'SCREENING_MATCH',
  'IDENTITY_NOT_VERIFIED',
  'DOCUMENTS_ILLEGIBLE',
  'DOCUMENTS_MISMATCH',
  'DUPLICATE_INVESTOR',
  'OTHER',
];

function ReasonPicker({
  reasons,
  busy,
  label,
  onPick,
}: {
  reasons: string[];
  busy: boolean;
  label: string;
  onPick: (r: string) => void;
}) {
  const { t } = useT();
  const [reason, setReason] = useState(reasons[0]);
  return (
    <span className="inline">
      <select value={reason} onChange={(e) => setReason(e.target.value)} aria-label={t('reason')}>
        {reasons.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <button type="button" disabled={busy} onClick={() => onPick(reason)}>
        {label}
      </button>
    </span>
  );
}

function QueueRow({ o, act }: { o: QueueItem; act: ReturnType<typeof useAction> }) {
  const { t, lang } = useT();
  const [price, setPrice] = useState(egp(o.market.price_micros).replace(/,/g, ''));
  const busy = act.pending !== null;
  const execute = () => {
    const micros = toMicros(price);
    return act.run(o.order_id, () =>
      call('POST', `/broker/v1/queue/${o.order_id}/execute`, micros === null ? {} : { price_micros: micros }),
    );
  };
  return (
    <tr data-order={o.order_id}>
      <td>
        <strong>{o.symbol}</strong>
        <br />
        <span className="muted small anywhere">
          <bdi dir="ltr">{o.order_id}</bdi>
        </span>
        <div className="small" title={o.created_at} data-placed={o.created_at}>
          <bdi dir="ltr" className="nowrap">
            {o.created_at.slice(0, 10)}
          </bdi>{' '}
          <bdi dir="ltr">{o.created_at.slice(11, 16)}</bdi>
          <br />
          <span className="muted" data-tif={o.time_in_force}>
            {labelIn(lang, o.time_in_force)}
          </span>
        </div>
      </td>
      <td className="num">
        <span className={o.side} data-side={o.side}>
          {valueIn(lang, o.side)}
        </span>
        <br />
        {o.qty - o.filled_qty}
      </td>
      <td className="num">{egp(o.limit_price_micros)}</td>
      <td className="num">
        {egp(o.market.price_micros)}
        <br />
        <span className="muted" data-testid="band">
          {egp(o.market.band.lower_micros)} – {egp(o.market.band.upper_micros)}
        </span>
      </td>
      <td>
        {o.investor_name}
        <br />
        <span className="muted nowrap">{o.account_number}</span>
      </td>
      <td>
        <div className="actions">
          <input
            className="price"
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            aria-label={t('price')}
            inputMode="decimal"
          />
          <button type="button" className="primary" disabled={busy} onClick={execute} data-action="execute">
            {act.pending === o.order_id ? t('working') : t('execute')}
          </button>
          <ReasonPicker
            reasons={ORDER_REASONS}
            busy={busy}
            label={t('reject')}
            onPick={(r) =>
              act.run(o.order_id, () => call('POST', `/broker/v1/queue/${o.order_id}/reject`, { reason_code: r }))
            }
          />
        </div>
      </td>
    </tr>
  );
}

export function Queue() {
  const { t } = useT();
  const q = usePoll(() => call<{ auto_fill: boolean; orders: QueueItem[] }>('GET', '/broker/v1/queue'));
  const act = useAction(q.reload);
  return (
    <Section title={t('queue')} updated={q.data !== null}>
      <ErrorBox error={act.error ?? q.error} />
      {q.data && (
        <p className="muted">
          {t('autoFill')}: {q.data.auto_fill ? t('on') : t('off')}
        </p>
      )}
      {q.data?.orders.length === 0 && <Empty />}
      {q.data && q.data.orders.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>{t('order')}</th>
                <th>
                  {t('side')} · {t('qty')}
                </th>
                <th>{t('limit')}</th>
                <th>
                  {t('tape')} · {t('band')}
                </th>
                <th>{t('investor')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.orders.map((o) => (
                <QueueRow key={o.order_id} o={o} act={act} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

interface DeskTransfer {
  transfer_id: string;
  direction: string;
  amount_micros: number;
  state: string;
  approval: string;
  investor_name: string;
  account_number: string;
  created_at: string;
}

export function Funding() {
  const { t, lang } = useT();
  const q = usePoll(() => call<{ funding: DeskTransfer[] }>('GET', '/broker/v1/funding'));
  const act = useAction(q.reload);
  const busy = act.pending !== null;
  return (
    <Section title={t('funding')} updated={q.data !== null}>
      <ErrorBox error={act.error ?? q.error} />
      {q.data?.funding.length === 0 && <Empty />}
      {q.data && q.data.funding.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>{t('direction')}</th>
                <th>{t('amount')}</th>
                <th>{t('investor')}</th>
                <th>{t('created')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.funding.map((f) => (
                <tr key={f.transfer_id} data-transfer={f.transfer_id}>
                  <td>{valueIn(lang, f.direction)}</td>
                  <td className="num">{egp(f.amount_micros)}</td>
                  <td>
                    {f.investor_name}
                    <br />
                    <span className="muted nowrap">{f.account_number}</span>
                  </td>
                  <td className="nowrap">
                    <bdi dir="ltr">{f.created_at.slice(0, 16).replace('T', ' ')}</bdi>
                  </td>
                  <td>
                    <div className="actions">
                      <button
                        type="button"
                        className="primary"
                        disabled={busy}
                        onClick={() =>
                          act.run(f.transfer_id, () => call('POST', `/broker/v1/funding/${f.transfer_id}/approve`))
                        }
                      >
                        {act.pending === f.transfer_id ? t('working') : t('approve')}
                      </button>
                      <ReasonPicker
                        reasons={FUNDING_REASONS}
                        busy={busy}
                        label={t('reject')}
                        onPick={(r) =>
                          act.run(f.transfer_id, () =>
                            call('POST', `/broker/v1/funding/${f.transfer_id}/reject`, { reason_code: r }),
                          )
                        }
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

interface KycItem {
  application_id: string;
  full_name: string;
  national_id_masked: string;
  state: string;
  reason_code: string | null;
  submitted_at: string | null;
}

function IdImages({ id }: { id: string }) {
  const { t } = useT();
  const [urls, setUrls] = useState<string[] | null>(null);
  const [error, setError] = useState<import('../api').ApiError | null>(null);
  const show = () =>
    Promise.all(
      ['national_id_front', 'national_id_back'].map((side) => blobUrl(`/broker/v1/kyc/${id}/documents/${side}`)),
    ).then(setUrls, setError);
  return (
    <div>
      {!urls && (
        <button type="button" onClick={show}>
          {t('images')}
        </button>
      )}
      {urls && (
        <div className="ids">
          {urls.map((u, i) => (
            <img key={u} src={u} alt={i === 0 ? t('front') : t('back')} />
          ))}
        </div>
      )}
      <ErrorBox error={error} />
    </div>
  );
}

export function Kyc() {
  const { t, lang } = useT();
  const q = usePoll(() => call<{ applications: KycItem[] }>('GET', '/broker/v1/kyc'));
  const act = useAction(q.reload);
  const busy = act.pending !== null;
  return (
    <Section title={t('kyc')} updated={q.data !== null}>
      <ErrorBox error={act.error ?? q.error} />
      {q.data?.applications.length === 0 && <Empty />}
      {q.data?.applications.map((a) => (
        <article key={a.application_id} className="card" data-application={a.application_id}>
          <h2>
            {a.full_name} <span className="muted">{a.national_id_masked}</span>
          </h2>
          <p className="muted">
            <bdi dir="ltr">{a.application_id}</bdi> · {stateIn(lang, a.state)}
            {a.reason_code && (
              <>
                {' '}
                · <bdi dir="ltr">{a.reason_code}</bdi>
              </>
            )}
          </p>
          <IdImages id={a.application_id} />
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => act.run(a.application_id, () => call('POST', `/broker/v1/kyc/${a.application_id}/clear`))}
            >
              {t('clear')}
            </button>
            <ReasonPicker
              reasons={KYC_REASONS}
              busy={busy}
              label={t('decline')}
              onPick={(r) =>
                act.run(a.application_id, () =>
                  call('POST', `/broker/v1/kyc/${a.application_id}/decline`, { reason_code: r }),
                )
              }
            />
          </div>
        </article>
      ))}
    </Section>
  );
}
