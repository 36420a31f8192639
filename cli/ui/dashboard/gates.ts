// What stops an investor's order before any field is typed, read from the account (GET /v1/accounts/{id}):
// a closed account, no suitability questionnaire on file, the risk disclosure not accepted, a
// restricted account buying. The daemon checks the same rules in this order when the order arrives
// (docs/trading.md, order validation), so the form says it when it opens instead of after the order.
import { svc } from '../../hints.js';
import type { Account } from '../../live/source.js';

export interface Gate {
  /** Why no order of this side can be placed now. */
  reason: string;
  /** What lifts it. */
  remedy: string;
}

/** The first gate that refuses a `side` order of this account, or null when none does. */
export function orderGate(account: Account, side: 'buy' | 'sell'): Gate | null {
  const who = account.name;
  if (account.status === 'closed')
    return { reason: `${who}'s account is closed: it takes no orders.`, remedy: 'Only the broker can reopen it.' };
  if (!account.suitability.recorded) {
    return {
      reason: `${who} has no suitability questionnaire on file, which equity trading needs.`,
      remedy: `Record it in another terminal: ${svc(`investor suitability ${account.id}`)}`,
    };
  }
  if (!account.suitability.risk_acknowledged) {
    return {
      reason: `${who} has not accepted the risk disclosure, which equity trading needs.`,
      remedy: `Accept it in another terminal: ${svc(`investor suitability ${account.id} --ack-risk`)}`,
    };
  }
  if (account.status === 'restricted' && side === 'buy') {
    return {
      reason: `${who}'s account is restricted: it may sell what it holds, but not buy.`,
      remedy: 'Only the broker can lift the restriction; s sells.',
    };
  }
  return null;
}

/** What the form says about the account without refusing the order (a restricted account selling, a shariah-only
 * election). */
export function orderNotes(account: Account, side: 'buy' | 'sell'): string[] {
  const notes: string[] = [];
  if (account.status === 'restricted' && side === 'sell')
    notes.push('Restricted account: selling what it holds is allowed.');
  if (account.shariah_only && side === 'buy')
    notes.push('Shariah-only investor: only shariah-compliant shares can be bought.');
  return notes;
}
