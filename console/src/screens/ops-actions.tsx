// Proposed actions (maker-checker): every proposal with its full payload. A checker approves or
// rejects with a reason, stepping up with the passkey when the session's step-up has lapsed. The
// buttons are offered only to an identity that holds <base>:approve and did not make the proposal;
// the server refuses a forged decision anyway (the error body is shown as it came).
import { call } from '../api';
import { useAction, usePoll } from '../hooks';
import { stateIn, useT } from '../i18n';
import { egp, Empty, ErrorBox, Section } from '../ui';
import { holds, NoteButton, useMe, When } from './ops-common';

const PRE = {
  background: '#f6f7f9',
  border: '1px solid #d9dee3',
  borderRadius: 6,
  padding: 8,
  margin: '8px 0',
  whiteSpace: 'pre-wrap',
  fontSize: 13,
  textAlign: 'left',
} as const;

interface AdminAction {
  action_id: string;
  action: string;
  params: Record<string, unknown>;
  reason: string;
  payload_sha256: string;
  state: 'proposed' | 'approved' | 'rejected' | 'expired';
  maker: string;
  checker: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decision_reason: string | null;
  result: Record<string, unknown> | null;
}

/** The action's state, its maker and, once decided, its checker, each with the time. */
function WhoAndWhen({ a }: { a: AdminAction }) {
  const { t, lang } = useT();
  return (
    <p>
      <strong>{t('state')}:</strong>{' '}
      <span data-testid="action-state" data-value={a.state}>
        {stateIn(lang, a.state)}
      </span>{' '}
      · <strong>{t('maker')}:</strong> {a.maker}
      {t('comma')}
      <When at={a.created_at} />
      {a.checker && (
        <>
          {' '}
          · <strong>{t('checker')}:</strong> {a.checker}
          {t('comma')}
          <When at={a.decided_at} />
        </>
      )}
    </p>
  );
}

/** Approve or reject a proposed action (the checker's buttons). */
function Decide({ a, act }: { a: AdminAction; act: ReturnType<typeof useAction> }) {
  const { t } = useT();
  const busy = act.pending !== null;
  return (
    <div className="actions">
      <button
        type="button"
        className="primary"
        disabled={busy}
        data-action="approve"
        onClick={() => act.run(a.action_id, () => call('POST', `/admin/actions/${a.action_id}/approve`, {}))}
      >
        {act.pending === a.action_id ? t('working') : t('approve')}
      </button>
      <NoteButton
        label={t('reject')}
        busy={busy}
        required
        testId="reject"
        onGo={(r) => act.run(a.action_id, () => call('POST', `/admin/actions/${a.action_id}/reject`, { reason: r }))}
      />
    </div>
  );
}

function ActionCard({ a, canDecide, act }: { a: AdminAction; canDecide: boolean; act: ReturnType<typeof useAction> }) {
  const { t } = useT();
  return (
    <article className="card" data-action-id={a.action_id} data-state={a.state}>
      <h2>
        <bdi dir="ltr">{a.action}</bdi> <span className="muted">{a.action_id}</span>
      </h2>
      <WhoAndWhen a={a} />
      <p>
        <strong>{t('reason')}:</strong> {a.reason}
        {a.decision_reason && (
          <>
            {' '}
            · <strong>{t('decision')}:</strong> {a.decision_reason}
          </>
        )}
      </p>
      {typeof a.params.amount_micros === 'number' && (
        <p>
          <strong>{t('amount')}:</strong>{' '}
          <span data-testid="action-amount">
            <span className="num">{egp(a.params.amount_micros)}</span> {t('egp')}
          </span>
        </p>
      )}
      <pre className="payload" dir="ltr" style={PRE}>
        {JSON.stringify(a.params, null, 2)}
      </pre>
      {a.result && (
        <>
          <strong>{t('result')}</strong>
          <pre className="payload" dir="ltr" style={PRE} data-testid="action-result">
            {JSON.stringify(a.result, null, 2)}
          </pre>
        </>
      )}
      <p className="muted">
        <bdi dir="ltr">sha256 {a.payload_sha256.slice(0, 16)}…</bdi> · {t('expires')} <When at={a.expires_at} />
      </p>
      {a.state === 'proposed' && canDecide && <Decide a={a} act={act} />}
      {a.state === 'proposed' && !canDecide && (
        <p className="muted" data-testid="not-yours">
          {t('otherChecker')}
        </p>
      )}
    </article>
  );
}

export function Actions() {
  const { t } = useT();
  const me = useMe();
  const q = usePoll(() => call<{ actions: AdminAction[] }>('GET', '/admin/actions?limit=50'));
  const act = useAction(q.reload);
  return (
    <Section title={t('actions')} updated={q.data !== null}>
      <ErrorBox error={act.error ?? q.error} />
      {q.data?.actions.length === 0 && <Empty />}
      {me &&
        q.data?.actions.map((a) => (
          <ActionCard
            key={a.action_id}
            a={a}
            act={act}
            canDecide={a.maker !== me.identity.name && holds(me, `${a.action}:approve`)}
          />
        ))}
    </Section>
  );
}
