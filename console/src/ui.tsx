// Small shared pieces: the error box (the spec's error body as it came), money in EGP from integer
// micros (no floating point), and a price field that turns typed EGP into micros.
import type { ReactNode } from 'react';
import type { ApiError } from './api';
import { useT } from './i18n';

export function ErrorBox({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <div className="error" role="alert" data-code={error.code}>
      <strong>{error.code}</strong> <span>{error.message}</span>
    </div>
  );
}

/** EGP with two decimals from integer micros (rounded half up at the third decimal), grouped by thousands. */
export function egp(micros: number | null | undefined): string {
  if (micros === null || micros === undefined) return '—';
  const neg = micros < 0;
  const cents = Math.floor((Math.abs(micros) + 5000) / 10000);
  const whole = Math.floor(cents / 100).toLocaleString('en-US');
  return `${neg ? '-' : ''}${whole}.${String(cents % 100).padStart(2, '0')}`;
}

/** Typed EGP ("12.345") to integer micros, or null when it is not a price. */
export function toMicros(text: string): number | null {
  const m = /^\s*(\d{1,9})(?:\.(\d{1,6}))?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 1_000_000 + Number((m[2] ?? '').padEnd(6, '0'));
}

export function Section({ title, children, updated }: { title: string; children: ReactNode; updated?: boolean }) {
  const { t } = useT();
  return (
    <section className="screen">
      <header className="screen-head">
        <h1>{title}</h1>
        {updated && <span className="muted live">● {t('refreshed')}</span>}
      </header>
      {children}
    </section>
  );
}

export function Empty() {
  const { t } = useT();
  return <p className="muted">{t('empty')}</p>;
}
