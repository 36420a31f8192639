// The two sides of a reconciliation at the end of a business day, computed from the ledger's postings
// in one pass (nothing is stored: "compute the tape instead of storing it").
//
// - The book (ledger side): each investor's settled + reserved balance of cash and of each equity at
//   the cutoff. The unsettled bucket is left out: a purchase's shares and a sale's proceeds are not at
//   the custodian or the bank before their settlement date.
// - The outside world's view (external side, before any injected break): every posting that crosses
//   between an investor's settled/reserved accounts and anything else, on its value date. A settlement
//   (unsettled -> settled at the open of the settlement date) is the value date of a trade; deposits,
//   withdrawals, purchase cash, fees, dividends and fund orders are seen when they are booked. Postings
//   with system:adjustments are the broker's own corrections: nobody outside sees them.
// Fund units are not equities held at the custodian and are not reconciled here.
import type { AccountInfo } from './repo.js';

export const CASH = 'cash:EGP';
const INVISIBLE_OUTSIDE = 'system:adjustments';

export interface SideKey {
  tenant_id: string;
  investor_id: string;
  asset: string;
}

export interface Sides {
  /** key -> what the ledger says (settled + reserved). */
  book: Map<string, number>;
  /** key -> what the outside world saw move (before injected breaks). */
  external: Map<string, number>;
  keys: Map<string, SideKey>;
}

export const keyOf = (tenantId: string, investorId: string, asset: string) => `${tenantId}|${investorId}|${asset}`;

interface Acct {
  key: string | null;
  /** settled or reserved of an investor: the part the outside world holds. */
  inWorld: boolean;
  owner: string;
  hidden: boolean;
}

function indexAccounts(accounts: AccountInfo[], keys: Map<string, SideKey>): Map<number, Acct> {
  const byId = new Map<number, Acct>();
  for (const a of accounts) {
    const investor = a.bucket !== 'system';
    const key = investor ? keyOf(a.tenant_id, a.owner, a.asset) : null;
    if (key && !keys.has(key)) keys.set(key, { tenant_id: a.tenant_id, investor_id: a.owner, asset: a.asset });
    byId.set(a.id, {
      key,
      inWorld: a.bucket === 'settled' || a.bucket === 'reserved',
      owner: a.owner,
      hidden: a.owner === INVISIBLE_OUTSIDE,
    });
  }
  return byId;
}

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

/** Both sides at `cutoffMs` from the ledger's accounts (funds excluded) and its postings before it. */
export function computeSides(accounts: AccountInfo[], entries: Array<[number, number, number]>): Sides {
  const keys = new Map<string, SideKey>();
  const acct = indexAccounts(accounts, keys);
  const book = new Map<string, number>();
  const external = new Map<string, number>();
  for (const [debitId, creditId, amount] of entries) {
    const d = acct.get(debitId);
    const c = acct.get(creditId);
    if (!d || !c) continue; // a fund posting
    const within = d.inWorld && c.inWorld && d.owner === c.owner; // a hold or its release
    if (c.inWorld) {
      add(book, c.key!, amount);
      if (!within && !d.hidden) add(external, c.key!, amount);
    }
    if (d.inWorld) {
      add(book, d.key!, -amount);
      if (!within && !c.hidden) add(external, d.key!, -amount);
    }
  }
  return { book, external, keys };
}
