// The dashboard's words for the API's values: an order's status and the reason it ended, as a trader
// reads them (the API's codes stay in `svc order show --json` and docs/errors.md).
import type { Order } from '../../live/source.js';

/** Why an order ended, in a few words, for each reason code the order reject-code registry lists. */
const REASONS: Record<string, string> = {
  INSUFFICIENT_BUYING_POWER: 'cash ran short at the fill',
  IOC_REMAINDER_CANCELED: 'rest cancelled, not fillable at once',
  FOK_NOT_FILLED: 'not fillable in full at once',
  DESK_NOT_EXECUTED: 'not executed before the close',
  CANCELED_BY_CLIENT: 'cancelled by you',
  DEALER_REJECTED: "refused by the broker's desk",
  COMPLIANCE_REVIEW: 'held for a compliance review',
  PRICE_AWAY_FROM_MARKET: 'limit too far from the market',
  DUPLICATE_ORDER_SUSPECTED: 'looked like a duplicate',
};

/** A reason code in words: the known ones as above, any other in lower case. */
export function reasonText(code: string): string {
  return REASONS[code] ?? code.toLowerCase().replace(/_/g, ' ');
}

/** The status in words ("partially filled", "pending cancel"), with the reason when it has one. */
export function statusText(status: string): string {
  return STATUSES[status] ?? status.replace(/_/g, ' ');
}

/** The statuses whose API word reads oddly alone; the rest read as they are, underscores as spaces. */
const STATUSES: Record<string, string> = { new: 'open', pending_new: 'pending' };

export function orderStatusText(o: Pick<Order, 'status' | 'reason_code'>): string {
  return `${statusText(o.status)}${o.reason_code ? ` (${reasonText(o.reason_code)})` : ''}`;
}
