// An integration with the svc sandbox through the client library (docs/client.md): onboard an investor
// with both ID images, record suitability, deposit and wait for the transfer, buy and wait for the fill,
// move the clock past T+2 settlement, read the portfolio, and download a client statement (the journey
// itself is examples/journey.ts).
//
//   SVC_BASE_URL=http://127.0.0.1:8787 SVC_API_KEY=... SVC_SIGNING_SECRET=... SVC_ADMIN_KEY=... \
//     npx tsx examples/integration.ts statement.pdf
//
// In a project of your own, import from '@svc/client' (the package built from client/).
import { randomInt } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Sandbox, SvcClient, isSvcError, microsToEgp } from '../client/src/index.js';
import { runJourney } from './journey.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`set ${name}`);
  return v;
};

const baseUrl = env('SVC_BASE_URL');
const client = new SvcClient({ baseUrl, apiKey: env('SVC_API_KEY'), signingSecret: env('SVC_SIGNING_SECRET') });
const sandbox = new Sandbox({ baseUrl, key: env('SVC_ADMIN_KEY') });
const image = (side: string) => readFileSync(new URL(`../fixtures/documents/national_id_${side}.png`, import.meta.url));

async function main(pdfPath: string) {
  const j = await runJourney({
    client,
    sandbox,
    nationalId: `2950512010${randomInt(1000, 9000)}`, // born 1995-05-12 in Cairo (governorate 01)
    images: { front: image('front'), back: image('back') },
  });
  writeFileSync(pdfPath, j.pdf);
  return {
    investor_id: j.investorId,
    order_id: j.orderId,
    filled_qty: j.filledQty,
    portfolio_value_egp: microsToEgp(j.totalValueMicros),
    positions: j.positions,
    statement: { report_id: j.reportId, bytes: j.pdf.length, path: pdfPath },
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
