// The library survives a bad day (docs/faults.md, "The proof"): the whole tenant journey of
// examples/journey.ts runs through the client library with 20 % of the tenant requests faulted, every
// kind of fault firing; it completes, the sandbox's report finds nothing wrong with what the client did,
// and the investor ends exactly where the same journey without faults ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox, SvcClient } from '../../client/src/index.js';
import { type JourneyResult, runJourney } from '../../examples/journey.js';
import { type ClientSandbox, clientSandbox } from '../helpers/client-sandbox.js';
import { SAMPLE_BACK, SAMPLE_FRONT } from '../helpers/onboarding.js';

/** The kinds of fault, each to fire on 2.5 % of the tenant requests: 20 % in all. */
const EFFECTS = [
  { type: 'status', status: 429, retry_after_s: 1 },
  { type: 'status', status: 500 },
  { type: 'status', status: 502 },
  { type: 'status', status: 503, retry_after_s: 1 },
  { type: 'latency', min_ms: 0, max_ms: 200 },
  { type: 'reset' },
  { type: 'lost_response' },
  { type: 'timeout', seconds: 1 },
] as const;
const SHARE = 0.2 / EFFECTS.length;

/**
 * The first rule that fires decides, so rule i sees only the requests the rules before it let through:
 * its probability is its share of what is left, SHARE / (1 - i * SHARE), and each kind fires on SHARE of
 * all requests.
 */
async function addRules(sandbox: Sandbox): Promise<void> {
  for (const [i, effect] of EFFECTS.entries()) {
    const probability = SHARE / (1 - i * SHARE);
    await sandbox.request('post', '/admin/sandbox/faults', { body: { route: '*', probability, effect } });
  }
}

/** What the investor ends with: cash, holdings, the deposit, the order, the statement. Ids left out. */
async function outcome(client: SvcClient, j: JourneyResult): Promise<unknown> {
  const portfolio = await client.portfolio.get(j.investorId);
  const order = await client.orders.get(j.orderId);
  const deposit = await client.transfers.get(j.depositId);
  const orders = await client.orders.list({ investor_id: j.investorId });
  const transfers = await client.transfers.list({ investor_id: j.investorId });
  const report = await client.reports.get(j.reportId);
  return {
    portfolio: { ...portfolio, investor_id: undefined },
    order: { ...order, order_id: undefined, investor_id: undefined },
    deposit: { ...deposit, transfer_id: undefined, investor_id: undefined },
    orders: orders.orders.length,
    transfers: transfers.transfers.length,
    report: { state: report.state, type: report.type, sections: report.sections },
    pdf_bytes: j.pdf.length,
  };
}

/** A tenant request is faulted 1 time in 5; four journeys (about 160 requests) let each kind fire. */
const JOURNEYS = 4;

/** The journey, once per investor, one after the other; what each investor ends with. */
async function journeys(s: ClientSandbox, client: SvcClient): Promise<unknown[]> {
  const states: unknown[] = [];
  for (let i = 0; i < JOURNEYS; i++) {
    const j = await runJourney({
      client,
      sandbox: s.sandbox,
      nationalId: `2950512010432${i}`,
      images: { front: SAMPLE_FRONT, back: SAMPLE_BACK },
    });
    states.push(await outcome(s.client, j));
  }
  return states;
}

let calm: ClientSandbox;
let stormy: ClientSandbox;
beforeAll(async () => {
  [calm, stormy] = await Promise.all([clientSandbox({ seed: 7 }), clientSandbox({ seed: 7 })]);
});
afterAll(async () => {
  await Promise.all([calm?.close(), stormy?.close()]);
});

describe('the client library under 20 % faults of every kind', () => {
  it('completes the whole journey, with a clean report and the same end state as without faults', async () => {
    await addRules(stormy.sandbox);
    // The report judges Retry-After on wall time, so this client really waits: the system clock, a short
    // backoff, and enough attempts that eight faults in a row are needed to give up.
    const client = stormy.tenant({ retry: { maxAttempts: 8, baseDelayMs: 20, maxDelayMs: 200 } });
    // Two daemons, so the calm journeys run while the stormy client waits out its faults; each sandbox
    // still sees its own requests one after the other, in the same order (its faults are seeded).
    const [expected, got] = await Promise.all([journeys(calm, calm.client), journeys(stormy, client)]);

    expect(got).toEqual(expected);
    const report = (await stormy.sandbox.request('get', '/admin/sandbox/faults/report', {})) as {
      findings: unknown[];
      events: { effect: string }[];
    };
    expect(report.findings).toEqual([]);
    const fired = new Set(report.events.map((e) => e.effect));
    const kinds = EFFECTS.map((e) => ('status' in e ? `status ${e.status}` : e.type));
    expect([...fired].sort()).toEqual([...kinds].sort());
  }, 240_000);
});
