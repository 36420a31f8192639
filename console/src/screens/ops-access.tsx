// Access: the snapshot of every identity with its grants, access review campaigns (open one, then
// certify or revoke each item; nobody decides their own access), and the console sessions (revoke
// one: its next request is refused).
import { call } from '../api';
import { useAction, usePoll } from '../hooks';
import { fill, stateIn, useT, valueIn } from '../i18n';
import { Empty, ErrorBox, Section } from '../ui';
import { holds, NoteButton, useMe, When, withNote } from './ops-common';

interface Snapshot {
  identities: Array<{
    identity_id: string;
    name: string;
    role: string;
    realm: string;
    roles: string[];
    last_used_at: string | null;
    revoked_at: string | null;
    grants: Array<{ grant: string; scope: string }>;
  }>;
}
interface ReviewItem {
  item_id: string;
  identity_id: string;
  identity_name: string;
  grant: string;
  scope: string;
  role: string;
  decision: 'certify' | 'revoke' | null;
  decided_by: string | null;
  note: string | null;
}
interface Review {
  review_id: string;
  state: 'open' | 'closed';
  opened_by: string;
  opened_at: string;
  items_total: number;
  items_open: number;
  items: ReviewItem[];
}
interface Session {
  session_id: string;
  identity_id: string;
  identity_name: string;
  role: string;
  created_at: string;
  last_seen_at: string;
  idle_expires_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
}

/** One grant under review: certify or revoke it, unless decided, not allowed, or the reviewer's own. */
function ItemRow({
  i,
  canDecide,
  myId,
  busy,
  decide,
}: {
  i: ReviewItem;
  canDecide: boolean;
  myId: string;
  busy: boolean;
  decide: (i: ReviewItem, decision: 'certify' | 'revoke', note: string) => void;
}) {
  const { t, lang } = useT();
  return (
    <tr data-item={i.item_id} data-identity={i.identity_name} data-grant={i.grant} data-decision={i.decision ?? ''}>
      <td>
        {i.identity_name} <span className="muted">({valueIn(lang, i.role)})</span>
      </td>
      <td>
        <bdi dir="ltr">{i.grant}</bdi>
        <br />
        <bdi dir="ltr" className="muted">
          {valueIn(lang, i.scope)}
        </bdi>
      </td>
      {i.decision || !canDecide || i.identity_id === myId ? (
        <td>{i.decision ? `${stateIn(lang, i.decision)} (${i.decided_by})` : '—'}</td>
      ) : (
        <td className="decide">
          <div className="actions">
            <button type="button" disabled={busy} onClick={() => decide(i, 'certify', '')} data-action="certify">
              {t('certify')}
            </button>
            <NoteButton label={t('revoke')} busy={busy} testId="revoke" onGo={(n) => decide(i, 'revoke', n)} />
          </div>
        </td>
      )}
    </tr>
  );
}

function ReviewCard({
  r,
  canDecide,
  myId,
  act,
}: {
  r: Review;
  canDecide: boolean;
  myId: string;
  act: ReturnType<typeof useAction>;
}) {
  const { t, lang } = useT();
  const busy = act.pending !== null;
  const itemsOpen = fill(t('itemsOpen'), { open: r.items_open, total: r.items_total });
  const decide = (i: ReviewItem, decision: 'certify' | 'revoke', note: string) =>
    act.run(i.item_id, () =>
      call('POST', `/admin/access-reviews/${r.review_id}/decisions`, withNote(note, { item_id: i.item_id, decision })),
    );
  return (
    <article className="card" data-review={r.review_id}>
      <h2>
        <bdi dir="ltr">{r.review_id}</bdi>{' '}
        <span className="muted">
          {stateIn(lang, r.state)} · <span data-testid="items-open">{itemsOpen}</span> ·{' '}
          {fill(t('openedBy'), { who: r.opened_by })}
          {t('comma')}
          <When at={r.opened_at} />
        </span>
      </h2>
      {r.state === 'open' && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>{t('identity')}</th>
                <th>
                  {t('grant')} · {t('scope')}
                </th>
                <th>{t('decision')}</th>
              </tr>
            </thead>
            <tbody>
              {r.items.map((i) => (
                <ItemRow key={i.item_id} i={i} canDecide={canDecide} myId={myId} busy={busy} decide={decide} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

export function Access() {
  const { t, lang } = useT();
  const me = useMe();
  const snap = usePoll(() => call<Snapshot>('GET', '/admin/access-review'));
  const reviews = usePoll(() => call<{ reviews: Review[] }>('GET', '/admin/access-reviews?limit=5'));
  const act = useAction(reviews.reload);
  return (
    <Section title={t('access')} updated={snap.data !== null}>
      <ErrorBox error={act.error ?? snap.error ?? reviews.error} />
      {holds(me, 'access-review:open') && (
        <button
          type="button"
          className="primary"
          disabled={act.pending !== null}
          data-action="open-review"
          onClick={() => act.run('open', () => call('POST', '/admin/access-reviews', {}))}
        >
          {t('openReview')}
        </button>
      )}
      {me &&
        reviews.data?.reviews.map((r) => (
          <ReviewCard
            key={r.review_id}
            r={r}
            act={act}
            myId={me.identity.id}
            canDecide={holds(me, 'access-review:decide')}
          />
        ))}
      <h2>{t('snapshot')}</h2>
      {snap.data && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>{t('identity')}</th>
                <th>{t('roles')}</th>
                <th>{t('grants')}</th>
                <th>{t('lastUsed')}</th>
              </tr>
            </thead>
            <tbody>
              {snap.data.identities.map((i) => (
                <tr key={i.identity_id} data-identity={i.identity_id}>
                  <td>
                    {i.name}
                    {i.revoked_at && <span className="muted"> ({t('revoked')})</span>}
                    <br />
                    <span className="muted" dir="ltr">
                      {i.identity_id}
                    </span>
                  </td>
                  <td>{i.roles.map((r) => valueIn(lang, r)).join(t('comma'))}</td>
                  <td dir="ltr" style={{ fontSize: 13 }}>
                    {i.grants.map((g) => `${g.grant}@${g.scope}`).join(' ')}
                  </td>
                  <td className="nowrap">
                    <When at={i.last_used_at} />
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

export function Sessions() {
  const { t, lang } = useT();
  const me = useMe();
  const q = usePoll(() => call<{ sessions: Session[] }>('GET', '/admin/sessions'));
  const act = useAction(q.reload);
  const canRevoke = holds(me, 'sessions:revoke');
  return (
    <Section title={t('sessions')} updated={q.data !== null}>
      <ErrorBox error={act.error ?? q.error} />
      {q.data?.sessions.length === 0 && <Empty />}
      {q.data && q.data.sessions.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>{t('identity')}</th>
                <th>{t('created')}</th>
                <th>{t('lastSeen')}</th>
                <th>{t('state')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.sessions.map((s) => (
                <tr key={s.session_id} data-session={s.session_id} data-identity={s.identity_name}>
                  <td>
                    {s.identity_name} <span className="muted">({valueIn(lang, s.role)})</span>
                    {me?.session_id === s.session_id && <strong> · {t('thisSession')}</strong>}
                    <br />
                    <span className="muted" dir="ltr">
                      {s.session_id}
                    </span>
                  </td>
                  <td className="nowrap">
                    <When at={s.created_at} />
                  </td>
                  <td className="nowrap">
                    <When at={s.last_seen_at} />
                  </td>
                  <td>
                    {s.revoked_at ? (
                      <>
                        {t('revoked')} ({s.revoked_by ?? ''}, <When at={s.revoked_at} />)
                      </>
                    ) : (
                      t('active')
                    )}
                  </td>
                  <td>
                    <div className="actions">
                      {!s.revoked_at && canRevoke && (
                        <button
                          type="button"
                          disabled={act.pending !== null}
                          data-action="revoke-session"
                          onClick={() =>
                            act.run(s.session_id, () =>
                              call('POST', '/admin/sessions/revoke', { session_ids: [s.session_id] }),
                            )
                          }
                        >
                          {act.pending === s.session_id ? t('working') : t('revoke')}
                        </button>
                      )}
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
