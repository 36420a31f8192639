// Passkeys need a relying party that is a name: a page opened on an IP address (http://127.0.0.1:PORT,
// the host of base_url) cannot register or use one, and the browser's refusal ("127.0.0.1 is an invalid
// domain") says nothing useful. Such a page says where to go instead: the same address on localhost
// for a loopback IP, or a host name for any other IP.
import { useT } from './i18n';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The page's host when it is an IP address (v4, or v6 in brackets), else null. */
export function ipHost(hostname: string): string | null {
  return IPV4.test(hostname) || hostname.startsWith('[') ? hostname : null;
}

const loopback = (host: string): boolean => host.startsWith('127.') || host === '[::1]';

/** The same address (path, query and hash kept) on localhost, for a page on a loopback IP; else null. */
export function onLocalhost(href: string): string | null {
  const u = new URL(href);
  if (!loopback(u.hostname)) return null;
  u.hostname = 'localhost';
  return u.href;
}

export function UseAName({ host }: { host: string }) {
  const { t } = useT();
  const there = onLocalhost(location.href);
  return (
    <div className="card narrow" data-testid="ip-host">
      <h1>{t('ipTitle')}</h1>
      <p>{t('ipIntro').replace('{host}', host)}</p>
      {there ? (
        <p>
          <a className="go" href={there} data-testid="use-localhost" dir="ltr">
            {there}
          </a>
        </p>
      ) : (
        <p>{t('ipOther')}</p>
      )}
    </div>
  );
}
