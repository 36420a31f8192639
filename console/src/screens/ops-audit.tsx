// The audit log: the hash-chained entries, newest first, filtered by actor, action and tenant, and a
// Verify button that has the server recompute every hash and check the recorded head.
import { useState } from 'react';
import { call, type ApiError } from '../api';
import { toApiError, usePoll } from '../hooks';
import { useT, valueIn } from '../i18n';
import { Empty, ErrorBox, Section } from '../ui';
import { When } from './ops-common';

interface AuditEntry {
  seq: number;
  at: string;
  actor: string;
  action: string;
  subject: string;
  tenant_id: string | null;
  detail: string;
  hash: string;
  on_behalf_of: string | null;
}
interface Verification {
  ok: boolean;
  count: number;
  head: string;
  first_bad_seq: number | null;
  reason: string | null;
}

const FILTERS = ['actor', 'action', 'tenant_id'] as const;
const LABELS = { actor: 'actor', action: 'action', tenant_id: 'tenant' } as const;
type Filters = Record<(typeof FILTERS)[number], string>;

function Verify() {
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Verification | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const go = () => {
    setBusy(true);
    setError(null);
    call<Verification>('GET', '/admin/audit/verify')
      .then(setResult, (e: unknown) => setError(toApiError(e)))
      .finally(() => setBusy(false));
  };
  return (
    <div className="card">
      <button type="button" className="primary" disabled={busy} onClick={go} data-action="verify">
        {busy ? t('working') : t('verify')}
      </button>{' '}
      {result && (
        <span data-testid="verify-result" data-ok={String(result.ok)}>
          <strong className={result.ok ? 'buy' : 'sell'}>{result.ok ? t('chainOk') : t('chainBroken')}</strong>{' '}
          <span className="muted" dir="ltr">
            {result.count} {t('entries')} · {result.head.slice(0, 16)}…
            {result.first_bad_seq !== null && ` · ${t('seq')} ${result.first_bad_seq}: ${result.reason}`}
          </span>
        </span>
      )}
      <ErrorBox error={error} />
    </div>
  );
}

/** An actor such as operator:opr_1300000bmz, which may break after its colon on a narrow screen. */
const Actor = ({ actor }: { actor: string }) => {
  const at = actor.indexOf(':');
  return at < 0 ? (
    actor
  ) : (
    <bdi dir="ltr">
      {actor.slice(0, at + 1)}
      <wbr />
      {actor.slice(at + 1)}
    </bdi>
  );
};

export function Audit() {
  const { t, lang } = useT();
  const [draft, setDraft] = useState<Filters>({ actor: '', action: '', tenant_id: '' });
  const [filters, setFilters] = useState<Filters>(draft);
  const qs = new URLSearchParams({ limit: '100' });
  for (const f of FILTERS) if (filters[f].trim()) qs.set(f, filters[f].trim());
  const q = usePoll(() => call<{ entries: AuditEntry[] }>('GET', `/admin/audit?${qs}`), [qs.toString()]);
  return (
    <Section title={t('audit')} updated={q.data !== null}>
      <Verify />
      <form
        className="actions"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(draft);
        }}
      >
        {FILTERS.map((f) => (
          <input
            key={f}
            value={draft[f]}
            placeholder={t(LABELS[f])}
            aria-label={t(LABELS[f])}
            data-filter={f}
            onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
          />
        ))}
        <button type="submit">{t('show')}</button>
      </form>
      <ErrorBox error={q.error} />
      {q.data?.entries.length === 0 && <Empty />}
      {q.data && q.data.entries.length > 0 && (
        <div className="table-wrap" style={{ marginTop: 10 }}>
          <table>
            <thead>
              <tr>
                <th>{t('seq')}</th>
                <th>{t('time')}</th>
                <th>{t('actor')}</th>
                <th>
                  {t('action')} · {t('subject')} · {t('detail')}
                </th>
              </tr>
            </thead>
            <tbody>
              {q.data.entries.map((e) => (
                <tr key={e.seq} data-seq={e.seq}>
                  <td className="num">{e.seq}</td>
                  <td className="nowrap">
                    <When at={e.at} />
                  </td>
                  <td>
                    <Actor actor={valueIn(lang, e.actor)} />
                    {e.on_behalf_of && <span className="muted"> ({e.on_behalf_of})</span>}
                  </td>
                  <td className="anywhere">
                    <bdi dir="ltr">{e.action}</bdi> ·{' '}
                    <bdi dir="ltr" className="muted">
                      {e.subject}
                    </bdi>
                    <br />
                    <code dir="ltr" className="evidence" style={{ fontSize: 12 }}>
                      {e.detail.length > 160 ? `${e.detail.slice(0, 160)}…` : e.detail}
                    </code>
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
