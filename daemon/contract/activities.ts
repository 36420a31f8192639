// Activity codes of the investor's feed (the reference brokerage API's codes; docs/ledger.md has the
// table), shared by the wire schema and the ledger that writes them.
export const ACTIVITY_TYPES = [
  'CSD',
  'CSW',
  'FILL',
  'FEE',
  'TAX',
  'DIV',
  'INT',
  'JNLC',
  'JNLS',
  'SUB',
  'RED',
  'SPLIT',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
export const ACTIVITY_REF_TYPES = ['transfer', 'order', 'fund_order', 'dividend', 'journal', 'split'] as const;
export type ActivityRefType = (typeof ACTIVITY_REF_TYPES)[number];
