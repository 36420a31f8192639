// Id prefixes of the wire contract. Ids are opaque to clients; the prefix says what a thing is.
export const ID_PREFIX = {
  tenant: 'tnt',
  broker: 'brk',
  investor: 'inv',
  order: 'ord',
  kyc: 'kyc',
  news: 'nws',
  request: 'req',
  transfer: 'trf',
  fundOrder: 'fo',
  fill: 'fil',
  report: 'rpt',
  activity: 'act',
  operator: 'opr',
  action: 'pac',
  hold: 'hld',
  posting: 'pst',
  dividend: 'div',
  brk_ticket: 'dsk',
} as const;

export type IdKind = keyof typeof ID_PREFIX;
