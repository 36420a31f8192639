// The order lifecycle's states (the spec's "Order" states), shared by the wire schemas and the matcher.
export const ORDER_STATES = [
  'received',
  'transmitted',
  'validated',
  'acked',
  'partially_filled',
  'filled',
  'cancel_requested',
  'cancelled',
  'rejected',
  'expired',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];
