// Free text a person writes into the back office (a note, a reason, a complaint's summary): what it
// may hold, checked before anything is stored (docs/api.md, "Conventions").
import { z } from 'zod';
import { badCharacter } from '../text.js';

/** Whether a text holds no character text may not hold (daemon/contract/text.ts: C0 controls but tab
 *  and line feed, DEL, C1, unpaired surrogates). The pipeline refuses such text in every field before
 *  any schema runs; the schema says it again for text parsed elsewhere. A NUL would also end the text
 *  early for SQLite's length(), so a CHECK on it could not judge the text. */
const clean = (s: string): boolean => badCharacter(s) === null;

/** Free text a person writes (a note, a reason, a summary): trimmed, 1 to `max` characters, no control
 *  characters but tab and line feed. */
export const freeText = (max: number) =>
  z.string().trim().min(1).max(max).refine(clean, 'no control characters (tab and line feed are fine)');

/** The same without a minimum (an empty note is then the service's to refuse, with its own code). */
export const optionalText = (max: number) =>
  z.string().max(max).refine(clean, 'no control characters (tab and line feed are fine)');
