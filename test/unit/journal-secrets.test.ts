// docs/snapshots.md, the `response` field: "a secret the answer shows once reads [secret]; the shape stays".
import { describe, it, expect } from 'vitest';
import { journalResponse } from '../../daemon/record/journal-secrets.js';
import { JOURNAL_SECRET } from '../../daemon/contract/journal.js';

describe('the journal keeps an answer without the secrets it shows once', () => {
  it('an answer that names no secret field is kept as its very text', () => {
    const json = JSON.stringify({ id: 'ord_1', status: 'filled', note: 'api key rotated' });
    expect(journalResponse(json)).toBe(json);
  });

  it.each(['api_key', 'signing_secret', 'operator_key'])(
    'a provisioned %s reads [secret], the rest of the answer stays',
    (name) => {
      const kept = JSON.parse(journalResponse(JSON.stringify({ tenant_id: 'ten_1', nested: { [name]: 'sk_live_x' } })));
      expect(kept).toEqual({ tenant_id: 'ten_1', nested: { [name]: JOURNAL_SECRET } });
    },
  );

  it.each(['enrolment_token', 'enrolment_code'])('a one-time %s hides the code, its link and its expiry', (name) => {
    const answer = {
      items: [
        {
          [name]: 'code-1',
          enrolment_path: '/console/enrol#code-1',
          expires_at: '2026-11-24T10:00:00Z',
          user: 'dealer',
        },
      ],
    };
    expect(JSON.parse(journalResponse(JSON.stringify(answer)))).toEqual({
      items: [{ [name]: JOURNAL_SECRET, enrolment_path: JOURNAL_SECRET, expires_at: JOURNAL_SECRET, user: 'dealer' }],
    });
  });

  it('a secret name that is only a value changes nothing', () => {
    const answer = { field: 'api_key', expires_at: '2026-11-24T10:00:00Z' };
    expect(JSON.parse(journalResponse(JSON.stringify(answer)))).toEqual(answer);
  });
});
