// Renders docs/errors.md from the one error-code registry. `npm run docs` writes it; a test fails
// when the committed file is out of date.
import { writeFileSync } from 'node:fs';
import { ERROR_CODES } from '../daemon/contract/errors.js';

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
  ];
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorsDoc());
}
