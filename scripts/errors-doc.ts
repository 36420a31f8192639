// Renders docs/errors.md from the one error-code registry and the order reject-code registry
// (fixtures/reject-codes.json). `npm run docs` writes it; a test fails when the committed file is out
// of date.
import { writeFileSync } from 'node:fs';
import { ERROR_CODES } from '../daemon/contract/errors.js';
import { rejectCodes } from '../daemon/trading/reject-codes.js';

export function renderErrorsDoc(): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const byStatus = Object.entries(ERROR_CODES).sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b));
  const lines = [
    '# Error codes',
    '',
    'Every error is `{ "error": { "code": "...", "message": "..." }, "request_id": "req_..." }` with the HTTP',
    'status below. Codes are stable and are the key for localization; messages may change. This file is',
    'generated from `daemon/contract/errors.ts` by `npm run docs` (a test checks it is current). The same',
    'registry feeds `/v1/ai/dev/explain-error/{code}` and the hints the CLI prints.',
    '',
    '| HTTP | code | cause | remedy |',
    '|---|---|---|---|',
    ...byStatus.map(([code, e]) => `| ${e.status} | \`${code}\` | ${esc(e.cause)} | ${esc(e.remedy)} |`),
    '',
    '## Order reason codes',
    '',
    'The reject-code registry (`fixtures/reject-codes.json`): every reason an order can be refused, rejected,',
    'cancelled or left unexecuted, with a neutral cause and remedy; the order explainer reads it. `validation`:',
    '`POST /v1/orders` answered 422 (404 for `UNKNOWN_SYMBOL`) with this code and created no order. `execution`:',
    "the simulated exchange set it as the order's `reason_code`. `client`: the client's own cancel. `desk`: a",
    "dealer's rejection. A dealer rejecting a desk order (`POST /broker/v1/queue/{id}/reject`) sends one of",
    'the codes marked "dealer".',
    '',
    '| code | origin | dealer | cause | remedy |',
    '|---|---|---|---|---|',
    ...rejectCodes().map(
      (c) => `| \`${c.code}\` | ${c.origin} | ${c.dealer_reason ? 'yes' : ''} | ${esc(c.cause)} | ${esc(c.remedy)} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorsDoc());
}
