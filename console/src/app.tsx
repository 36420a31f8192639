// The console shell: enrolment (from the one-time link), passkey sign-in, then the screens the
// signed-in identity's grants allow, chosen by the URL hash. The server checks every grant again on
// every call; hiding a screen here is only courtesy.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ApiError } from './api';
import { enrol, signIn, signOut, whoAmI, type Me } from './auth';
import { applyLang, DICTS, initialLang, LangContext, useT, valueIn, type Key, type Lang } from './i18n';
import { toApiError } from './hooks';
import { ErrorBox } from './ui';
import { SCREENS } from './screens/registry';
import { ipHost, UseAName } from './host';

function useHash(): string {
  const [hash, setHash] = useState(location.hash.replace(/^#\/?/, ''));
  useEffect(() => {
    const on = () => setHash(location.hash.replace(/^#\/?/, ''));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return hash;
}

/** A card with one passkey ceremony: `run` (enrol then sign in, or sign in) and the signed-in identity, or the error.
 * */
function PasskeyCard(props: {
  title: Key;
  intro: Key;
  label: Key;
  testId: string;
  run: () => Promise<Me>;
  onSignedIn: (me: Me) => void;
}) {
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      props.onSignedIn(await props.run());
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="card narrow">
      <h1>{t(props.title)}</h1>
      <p>
        {t(props.intro)
          .split('{command}')
          .flatMap((part, i) =>
            i === 0
              ? [part]
              : [
                  <code key={i} dir="ltr" className="nowrap">
                    svc console enroll --as ROLE
                  </code>,
                  part,
                ],
          )}
      </p>
      <button type="button" className="primary" disabled={busy} onClick={go} data-testid={props.testId}>
        {busy ? t('working') : t(props.label)}
      </button>
      <ErrorBox error={error} />
    </div>
  );
}

const enrolThenSignIn = async (code: string): Promise<Me> => {
  await enrol(code);
  history.replaceState(null, '', '/console');
  return signIn();
};

function Enrol({ code, onSignedIn }: { code: string; onSignedIn: (me: Me) => void }) {
  return (
    <PasskeyCard
      title="enrolTitle"
      intro="enrolIntro"
      label="enrol"
      testId="enrol"
      run={() => enrolThenSignIn(code)}
      onSignedIn={onSignedIn}
    />
  );
}

function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  return (
    <PasskeyCard
      title="title"
      intro="signInIntro"
      label="signIn"
      testId="sign-in"
      run={signIn}
      onSignedIn={onSignedIn}
    />
  );
}

function Shell({ me, onSignedOut }: { me: Me; onSignedOut: () => void }) {
  const { t, lang } = useT();
  const hash = useHash();
  const held = useMemo(() => new Set(me.grants.map((g) => g.grant)), [me]);
  const screens = SCREENS.filter((s) => held.has(s.grant));
  const current = screens.find((s) => s.id === hash) ?? screens[0];
  const { name, role } = me.identity;
  return (
    <div className="shell">
      <nav className="nav" aria-label={t('screensLabel')}>
        {screens.map((s) => (
          <a key={s.id} href={`#/${s.id}`} className={s === current ? 'active' : ''} data-screen={s.id}>
            {t(s.label as Key)}
          </a>
        ))}
        <div className="who">
          <span className="muted">{t('signedInAs')}</span> <strong data-testid="identity">{name}</strong>{' '}
          <span className="muted">({valueIn(lang, role)})</span>
          <button type="button" className="link" onClick={() => signOut().finally(onSignedOut)}>
            {t('signOut')}
          </button>
        </div>
      </nav>
      <main className="main">
        {current ? <current.Component key={current.id} /> : <p className="muted">{t('noScreens')}</p>}
      </main>
    </div>
  );
}

export function App() {
  const [lang, setLang] = useState<Lang>(initialLang);
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const code = new URLSearchParams(location.search).get('code');
  const enrolling = location.pathname.endsWith('/enroll') && code !== null;
  const ip = ipHost(location.hostname);
  useEffect(() => applyLang(lang), [lang]);
  useEffect(() => {
    if (!enrolling) whoAmI().then(setMe, () => setMe(null));
  }, [enrolling]);
  const t = useCallback((k: Key) => DICTS[lang][k], [lang]);
  const ctx = useMemo(() => ({ lang, t }), [lang, t]);
  return (
    <LangContext.Provider value={ctx}>
      <header className="top">
        <span className="brand">{t('title')}</span>
        <button type="button" className="link" data-testid="lang" onClick={() => setLang(lang === 'en' ? 'ar' : 'en')}>
          {t('language')}
        </button>
      </header>
      {ip && !me ? (
        <UseAName host={ip} />
      ) : me ? (
        <Shell me={me} onSignedOut={() => setMe(null)} />
      ) : enrolling && me === undefined ? (
        <Enrol code={code!} onSignedIn={setMe} />
      ) : me === null ? (
        <SignIn onSignedIn={setMe} />
      ) : (
        <p className="muted pad">{t('loading')}</p>
      )}
    </LangContext.Provider>
  );
}
