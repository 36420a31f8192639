// An integration with the svc sandbox through the client library (docs/client.md): onboard an investor
// with both ID images, record suitability, deposit and wait for the transfer, buy and wait for the fill,
// move the clock past T+2 settlement, read the portfolio, and download a client statement.
//
//   SVC_BASE_URL=http://127.0.0.1:8787 SVC_API_KEY=... SVC_SIGNING_SECRET=... SVC_ADMIN_KEY=... \
//     npx tsx examples/integration.ts statement.pdf
//
// In a project of your own, import from '@svc/client' (the package built from client/).
import { randomInt } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Sandbox, SvcClient, isSvcError, microsToEgp } from '../client/src/index.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`set ${name}`);
  return v;
};

const baseUrl = env('SVC_BASE_URL');
const client = new SvcClient({ baseUrl, apiKey: env('SVC_API_KEY'), signingSecret: env('SVC_SIGNING_SECRET') });
const sandbox = new Sandbox({ baseUrl, key: env('SVC_ADMIN_KEY') });
// On the sandbox's frozen clock, waiting means moving the clock: one simulated minute per poll.
const advance = { sandbox, step: { minutes: 1 } };
const image = (side: string) => readFileSync(new URL(`../fixtures/documents/national_id_${side}.png`, import.meta.url));

async function onboard(): Promise<string> {
  const application = await client.kyc.create({
    full_name: 'Mona Hassan',
    national_id: `2950512010${randomInt(1000, 9000)}`, // born 1995-05-12 in Cairo (governorate 01)
    date_of_birth: '1995-05-12',
    email: 'mona.hassan@example.com',
    phone: '01012345678',
    address: '12 Tahrir Street, Downtown, Cairo',
  });
  const id = application.application_id;
  await client.kyc.uploadDocument(id, 'national_id_front', image('front'));
  await client.kyc.uploadDocument(id, 'national_id_back', image('back'));
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

async function main(pdfPath: string) {
  const investorId = await onboard();
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
  writeFileSync(pdfPath, pdf);

  return {
    investor_id: investorId,
    order_id: filled.order_id,
    filled_qty: filled.filled_qty,
    portfolio_value_egp: microsToEgp(portfolio.total_value_micros),
    positions: portfolio.positions.map((p) => p.symbol),
    statement: { report_id: report.report_id, bytes: pdf.length, path: pdfPath },
  };
}

main(process.argv[2] ?? 'statement.pdf').then(
  (summary) => console.log(JSON.stringify(summary, null, 2)),
  (e: unknown) => {
    // A refusal of the API is an SvcError: its code is stable, its request id finds it in the inspector.
    if (isSvcError(e)) console.error(`${e.request}: ${e.status} ${e.code} ${e.message} (${e.requestId})`);
    else console.error(e);
    process.exitCode = 1;
  },
);
