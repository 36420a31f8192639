// Intent, the second stage: what a request asks for. A glossary term or an error code is either a
// lookup (matched exactly against the registry by grounding), advice-seeking or an injected
// instruction (refused and deflected to the broker; the firewall's request rules decide), or nothing
// to look up (empty or too long: abstained). An order is explained from the registry when it was
// rejected, and narrated otherwise.
import { checkRequest } from './firewall.js';
import { MAX_REQUEST_CHARS } from './policy.js';

export type TermIntent = { kind: 'lookup'; key: string } | { kind: 'advice' } | { kind: 'nothing' };

export function termIntent(text: string): TermIntent {
  if (text.length === 0 || text.length > MAX_REQUEST_CHARS) return { kind: 'nothing' };
  if (!checkRequest(text).ok) return { kind: 'advice' };
  return { kind: 'lookup', key: text };
}

export type OrderIntent = 'reject' | 'narrate';

export function orderIntent(state: string): OrderIntent {
  return state === 'rejected' ? 'reject' : 'narrate';
}
