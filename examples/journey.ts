// The tenant journey of examples/integration.ts as a function, so the runnable example and the tests
// (test/client/faults-journey.test.ts runs it under faults) run the very same calls: onboard an investor
// with both ID images, record suitability, deposit and wait for the transfer, buy and wait for the fill,
// move the clock past T+2 settlement, read the portfolio, and make and download a client statement.
import type { Sandbox, SvcClient } from '../client/src/index.js';

export interface JourneyInput {
  client: SvcClient;
  sandbox: Sandbox;
  /** A valid Egyptian national id for the investor (born 1995-05-12 in Cairo). */
  nationalId: string;
  /** The national ID card's images. */
  images: { front: Uint8Array; back: Uint8Array };
}

export interface JourneyResult {
  investorId: string;
  depositId: string;
  orderId: string;
  filledQty: number;
  totalValueMicros: bigint | number;
  positions: string[];
  reportId: string;
  pdf: Uint8Array;
}

async function onboard(j: JourneyInput): Promise<string> {
  const { client } = j;
  const application = await client.kyc.create({
    full_name: 'Mona Hassan',
    national_id: j.nationalId,
    date_of_birth: '1995-05-12',
    email: 'mona.hassan@example.com',
    phone: '01012345678',
    address: '12 Tahrir Street, Downtown, Cairo',
  });
  const id = application.application_id;
  await client.kyc.uploadDocument(id, 'national_id_front', j.images.front);
  await client.kyc.uploadDocument(id, 'national_id_back', j.images.back);
  await client.kyc.submit(id);
  const decided = await client.waitFor.kyc(id, { until: 'approved' });
  const investorId = decided.investor_id ?? '';
  await client.investors.setSuitability(investorId, {
    questionnaire: {
      investment_experience: 'moderate',
      horizon: '3_5y',
      risk_tolerance: 'medium',
      annual_income_band: '300k_1m',
      net_worth_band: '1m_5m',
      objectives: ['growth'],
      shariah_only: false,
    },
    risk_acknowledged: true,
  });
  return investorId;
}

export async function runJourney(j: JourneyInput): Promise<JourneyResult> {
  const { client, sandbox } = j;
  // On the sandbox's frozen clock, waiting means moving the clock: one simulated minute per poll.
  const advance = { sandbox, step: { minutes: 1 } };
  const investorId = await onboard(j);
  const deposit = await client.transfers.create({
    investor_id: investorId,
    direction: 'deposit',
    amount_micros: 50_000_000_000,
  });
  await client.waitFor.transfer(deposit.transfer_id, { until: 'completed', advance });

  await sandbox.clock.advanceUntil('next_open');
  const order = await client.orders.create({
    investor_id: investorId,
    symbol: 'COMI',
    side: 'buy',
    type: 'market',
    qty: 10,
  });
  const filled = await client.waitFor.order(order.order_id, { until: 'filled', advance });

  await sandbox.clock.advance({ days: 4 }); // past T+2: the shares and the cash settle
  const portfolio = await client.portfolio.get(investorId);

  const today = (await client.market.clock()).timestamp.slice(0, 10);
  const report = await client.reports.create({
    investor_id: investorId,
    type: 'client_statement',
    locale: 'en',
    period_start: `${today.slice(0, 8)}01`,
    period_end: today,
  });
  await client.waitFor.report(report.report_id, { until: 'ready', advance });
  const pdf = await client.reports.download(report.report_id);
  return {
    investorId,
    depositId: deposit.transfer_id,
    orderId: filled.order_id,
    filledQty: filled.filled_qty,
    totalValueMicros: portfolio.total_value_micros,
    positions: portfolio.positions.map((p) => p.symbol),
    reportId: report.report_id,
    pdf,
  };
}
