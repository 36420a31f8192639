// Cases to work through: reconciliation breaks (acknowledge, accept with a note), surveillance alerts
// (escalate, close with a note) and complaints (move one step, with the resolution note where the
// server requires one). Each list polls; each decision waits for the server's answer.
import { useState } from 'react';
import { call } from '../api';
import { useAction, usePoll } from '../hooks';
import { stateIn, useT, valueIn } from '../i18n';
import { egp, Empty, ErrorBox, Section } from '../ui';
import { holds, NoteButton, useMe, When, withNote } from './ops-common';

interface Break {
  break_id: string;
  kind: string;
  investor_id: string;
  asset: string;
  ledger_value: number;
  external_value: number;
  difference: number;
  state: string;
  resolution: string | null;
  first_seen: string;
  last_seen: string;
  note: string | null;
}
interface Alert {
  alert_id: string;
  rule: string;
  investor_id: string;
  symbol: string;
  session_date: string;
  order_ids: string[];
  detail: Record<string, unknown>;
  state: string;
  note: string | null;
}
interface Complaint {
  complaint_id: string;
  investor_id: string;
  category: string;
  channel: string;
  summary: string;
  state: string;
  received_at: string;
  due_date: string;
  overdue: boolean;
  resolution_note: string | null;
}

/** Cash in EGP (micros), shares as they are. */
const amount = (asset: string, v: number): string => (asset.startsWith('cash:') ? egp(v) : String(v));

/** A break's decisions for whoever may manage them: acknowledge an open one, accept one not resolved. */
function BreakActions({
  b,
  manage,
  busy,
  post,
}: {
  b: Break;
  manage: boolean;
  busy: boolean;
  post: (b: Break, verb: string, body: Record<string, unknown>) => void;
}) {
  const { t } = useT();
  return (
    <td>
      <div className="actions" style={{ flexDirection: 'column', alignItems: 'stretch' }}>
        {manage && b.state !== 'resolved' && (
          <>
            {b.state === 'open' && (
              <NoteButton
                label={t('acknowledge')}
                busy={busy}
                testId="acknowledge"
                onGo={(n) => post(b, 'acknowledge', withNote(n))}
              />
            )}
            <NoteButton
              label={t('accept')}
              busy={busy}
              required
              testId="accept"
              onGo={(n) => post(b, 'resolve', { resolution: 'accepted', note: n })}
            />
          </>
        )}
      </div>
    </td>
  );
}

export function Breaks() {
  const { t, lang } = useT();
  const me = useMe();
  const q = usePoll(() => call<{ breaks: Break[] }>('GET', '/admin/reconciliation/breaks?limit=200'));
  const act = useAction(q.reload);
  const busy = act.pending !== null;
  const manage = holds(me, 'reconciliation:manage');
  const post = (b: Break, verb: string, body: Record<string, unknown>) =>
    act.run(b.break_id, () => call('POST', `/admin/reconciliation/breaks/${b.break_id}/${verb}`, body));
  return (
    <Section title={t('breaks')} updated={q.data !== null}>
      <ErrorBox error={act.error ?? q.error} />
      {q.data?.breaks.length === 0 && <Empty />}
      {q.data && q.data.breaks.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>
                  {t('kind')} · {t('investor')}
                </th>
                <th>{t('ledger')}</th>
                <th>{t('external')}</th>
                <th>{t('difference')}</th>
                <th>{t('state')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.breaks.map((b) => (
                <tr key={b.break_id} data-break={b.break_id} data-state={b.state}>
                  <td>
                    {valueIn(lang, b.kind)} · <span dir="ltr">{b.asset}</span>
                    <br />
                    <bdi dir="ltr">{b.investor_id}</bdi>
                    <br />
                    <span className="muted" dir="ltr">
                      {b.break_id}
                    </span>
                  </td>
                  <td className="num">{amount(b.asset, b.ledger_value)}</td>
                  <td className="num">{amount(b.asset, b.external_value)}</td>
                  <td className="num">{amount(b.asset, b.difference)}</td>
                  <td>
                    {stateIn(lang, b.state)}
                    {b.resolution && ` (${stateIn(lang, b.resolution)})`}
                    <br />
                    <span className="muted nowrap" dir="ltr">
                      {b.first_seen === b.last_seen ? b.first_seen : `${b.first_seen} – ${b.last_seen}`}
                    </span>
                    {b.note && (
                      <>
                        <br />
                        <span className="muted">{b.note}</span>
                      </>
                    )}
                  </td>
                  <BreakActions b={b} manage={manage} busy={busy} post={post} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

export function Alerts() {
  const { t, lang } = useT();
  const me = useMe();
  const q = usePoll(() => call<{ alerts: Alert[] }>('GET', '/admin/surveillance/alerts?limit=200'));
  const act = useAction(q.reload);
  const busy = act.pending !== null;
  const manage = holds(me, 'surveillance:manage');
  const post = (a: Alert, verb: string, body: Record<string, unknown>) =>
    act.run(a.alert_id, () => call('POST', `/admin/surveillance/alerts/${a.alert_id}/${verb}`, body));
  return (
    <Section title={t('alerts')} updated={q.data !== null}>
      <ErrorBox error={act.error ?? q.error} />
      {q.data?.alerts.length === 0 && <Empty />}
      {q.data?.alerts.map((a) => (
        <article key={a.alert_id} className="card" data-alert={a.alert_id} data-state={a.state}>
          <h2>
            {valueIn(lang, a.rule)} · {a.symbol}{' '}
            <span className="muted">
              <bdi dir="ltr">{a.alert_id}</bdi> · <bdi dir="ltr">{a.session_date}</bdi>
            </span>
          </h2>
          <p>
            <strong>{t('state')}:</strong> {stateIn(lang, a.state)} · <strong>{t('investor')}:</strong>{' '}
            <span dir="ltr">{a.investor_id}</span>
            {a.note && <> · {a.note}</>}
          </p>
          <p className="muted" style={{ fontSize: 13 }}>
            <strong>{t('orderIds')}:</strong> <bdi dir="ltr">{a.order_ids.join(', ')}</bdi>
          </p>
          <p className="muted" style={{ fontSize: 13 }}>
            <strong>{t('evidence')}:</strong>{' '}
            <code dir="ltr" className="evidence">
              {JSON.stringify(a.detail)}
            </code>
          </p>
          {manage && a.state !== 'closed' && (
            <div className="actions">
              {a.state === 'open' && (
                <NoteButton
                  label={t('escalate')}
                  busy={busy}
                  testId="escalate"
                  onGo={(n) => post(a, 'escalate', withNote(n))}
                />
              )}
              <NoteButton
                label={t('close')}
                busy={busy}
                required
                testId="close"
                onGo={(n) => post(a, 'close', { note: n })}
              />
            </div>
          )}
        </article>
      ))}
    </Section>
  );
}

const NEXT: Record<string, string[]> = {
  received: ['investigating', 'resolved', 'rejected'],
  investigating: ['resolved', 'rejected'],
};

function ComplaintMove({
  c,
  busy,
  onMove,
}: {
  c: Complaint;
  busy: boolean;
  onMove: (to: string, note: string) => void;
}) {
  const { t, lang } = useT();
  const options = NEXT[c.state] ?? [];
  const [picked, setTo] = useState(options[0]);
  if (options.length === 0) return null;
  const to = options.includes(picked) ? picked : options[0]; // the state moved on since the last pick
  return (
    <span className="note-button">
      <select value={to} onChange={(e) => setTo(e.target.value)} aria-label={t('state')}>
        {options.map((o) => (
          <option key={o} value={o}>
            {stateIn(lang, o)}
          </option>
        ))}
      </select>
      <NoteButton
        label={t('move')}
        busy={busy}
        required={to !== 'investigating'}
        testId="move"
        onGo={(n) => onMove(to, n)}
      />
    </span>
  );
}

export function Complaints() {
  const { t, lang } = useT();
  const q = usePoll(() => call<{ complaints: Complaint[] }>('GET', '/admin/complaints?limit=200'));
  const act = useAction(q.reload);
  return (
    <Section title={t('complaints')} updated={q.data !== null}>
      <ErrorBox error={act.error ?? q.error} />
      {q.data?.complaints.length === 0 && <Empty />}
      {q.data && q.data.complaints.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>{t('complaint')}</th>
                <th>{t('investor')}</th>
                <th>{t('state')}</th>
                <th>{t('due')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.complaints.map((c) => (
                <tr key={c.complaint_id} data-complaint={c.complaint_id} data-state={c.state}>
                  <td>
                    {c.summary}
                    <br />
                    <span className="muted">
                      {valueIn(lang, c.category)} · {valueIn(lang, c.channel)} · <When at={c.received_at} />
                    </span>
                  </td>
                  <td dir="ltr">{c.investor_id}</td>
                  <td>
                    {stateIn(lang, c.state)}
                    {c.resolution_note && (
                      <>
                        <br />
                        <span className="muted">{c.resolution_note}</span>
                      </>
                    )}
                  </td>
                  <td className="nowrap">
                    <bdi dir="ltr">{c.due_date}</bdi>
                    {c.overdue && <strong style={{ color: '#b3261e' }}> · {t('overdue')}</strong>}
                  </td>
                  <td>
                    <div className="actions">
                      <ComplaintMove
                        c={c}
                        busy={act.pending !== null}
                        onMove={(to, n) =>
                          act.run(c.complaint_id, () =>
                            call('POST', `/admin/complaints/${c.complaint_id}/transitions`, withNote(n, { to })),
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
