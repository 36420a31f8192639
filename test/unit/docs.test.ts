import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderErrorsDoc } from '../../scripts/errors-doc.js';

describe('docs/errors.md lists every code of the registry', () => {
  it('is the current rendering of daemon/contract/errors.ts (run npm run docs after adding a code)', () => {
    const committed = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderErrorsDoc());
  });
});
