// Free text a person writes into the back office (a note, a reason, a complaint's summary): what it
// may hold, checked before anything is stored (docs/api.md, "Conventions").
import { z } from 'zod';

/** Characters no free text carries: C0 controls (NUL included) but tab and line feed, and DEL. A NUL would
 *  also end the text early for SQLite's length(), so a CHECK on it could not judge the text. */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/;

/** Free text a person writes (a note, a reason, a summary): trimmed, 1 to `max` characters, no control
 *  characters but tab and line feed. */
export const freeText = (max: number) =>
  z.string().trim().min(1).max(max).refine((s) => !CONTROLS.test(s), 'no control characters (tab and line feed are fine)');

/** The same without a minimum (an empty note is then the service's to refuse, with its own code). */
export const optionalText = (max: number) =>
  z.string().max(max).refine((s) => !CONTROLS.test(s), 'no control characters (tab and line feed are fine)');
