// svc activities [--investor ID] [--limit N] [--before ACT_ID]: the investor's activity feed, newest
// first (deposits, withdrawals, fills, fees, taxes, dividends, interest, fund subscriptions and
// redemptions). The cash effect in EGP with two decimals, prices at their tick's decimals; --json
// prints GET /v1/investors/{id}/activities as it is (integer micros, next_before for the next page).
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { svc } from '../hints.js';
import { egp, info, nav, ok, price, printJson, table, usage } from '../output.js';
import type { Activity, ActivityFeed } from '../../daemon/contract/schemas/ledger.js';
import { investorOf } from './balances.js';

export interface ActivitiesOptions {
  investor?: string;
  limit?: string;
  before?: string;
}

/** A signed cash effect: "+50,000.00", "-856.30", "0.00". */
function signedEgp(micros: number): string {
  return micros > 0 ? `+${egp(micros)}` : egp(micros);
}

/** A fill's price per share at its tick's decimals; a fund order's NAV per unit with six. */
function priceOf(a: Activity): string {
  if (a.price_micros === null) return '-';
  return a.activity_type === 'SUB' || a.activity_type === 'RED' ? nav(a.price_micros) : price(a.price_micros);
}

export function activitiesText(feed: ActivityFeed): string {
  if (feed.activities.length === 0) return 'No activity yet.\n';
  return `${table(
    ['at', 'type', 'cash EGP', 'symbol', 'side', 'qty', 'price EGP', 'description', 'ref'],
    feed.activities.map((a) => [
      a.at,
      a.activity_type,
      signedEgp(a.net_amount_micros),
      a.symbol ?? '-',
      a.side ?? '-',
      a.qty ?? '-',
      priceOf(a),
      a.description,
      a.ref_id ?? '-',
    ]),
  )}\n`;
}

export async function list(opts: ActivitiesOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const investorId = investorOf(opts);
  const params = new URLSearchParams();
  if (opts.limit !== undefined) {
    if (!/^\d{1,3}$/.test(opts.limit) || Number(opts.limit) < 1 || Number(opts.limit) > 200)
      usage(`--limit ${opts.limit} must be a whole number from 1 to 200`);
    params.set('limit', opts.limit);
  }
  if (opts.before !== undefined) params.set('before', opts.before);
  const qs = params.size ? `?${params}` : '';
  const feed = ok(
    await api<ActivityFeed>(
      resolveProfile(g),
      'GET',
      `/v1/investors/${encodeURIComponent(investorId)}/activities${qs}`,
    ),
    json,
  );
  if (json) {
    printJson(feed);
    return;
  }
  process.stdout.write(activitiesText(feed));
  if (feed.next_before)
    info(`Older activity: ${svc(`activities --investor ${investorId} --before ${feed.next_before}`)}`);
}
