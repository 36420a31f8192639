// Pieces the ops screens share: who is signed in (to know one's own proposals and the grants that
// decide which buttons are offered), a time in short form, and a note field with its button.
import { useEffect, useState } from 'react';
import { call } from '../api';
import type { Me } from '../auth';
import { useT } from '../i18n';

/** The signed-in identity, read once; null until it has come. */
export function useMe(): Me | null {
  const [me, setMe] = useState<Me | null>(null);
  useEffect(() => {
    call<Me>('GET', '/console/api/me').then(setMe, () => setMe(null));
  }, []);
  return me;
}

export const holds = (me: Me | null, grant: string): boolean => me?.grants.some((g) => g.grant === grant) ?? false;

/** An RFC 3339 time as "YYYY-MM-DD HH:MM" (the sandbox's Cairo time as sent). */
export const when = (s: string | null | undefined): string => (s ? s.slice(0, 16).replace('T', ' ') : '—');

/** The same, isolated left-to-right so that an Arabic page does not reorder its digits. */
export const When = ({ at }: { at: string | null | undefined }) => <bdi dir="ltr">{when(at)}</bdi>;

/** A note field and a button; with required, the button stays disabled until there is a note. */
export function NoteButton({
  label,
  busy,
  required,
  onGo,
  testId,
}: {
  label: string;
  busy: boolean;
  required?: boolean;
  onGo: (note: string) => void;
  testId?: string;
}) {
  const { t } = useT();
  const [note, setNote] = useState('');
  const empty = note.trim() === '';
  return (
    <span className="note-button">
      <input
        className="note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        aria-label={label}
        placeholder={required ? t('noteRequired') : t('note')}
      />
      <button
        type="button"
        disabled={busy || (required === true && empty)}
        onClick={() => onGo(note.trim())}
        data-action={testId}
      >
        {label}
      </button>
    </span>
  );
}

/** A body with the note only when one was typed (the routes take 1..2000 characters). */
export const withNote = (note: string, extra: Record<string, unknown> = {}): Record<string, unknown> =>
  note ? { ...extra, note } : extra;
