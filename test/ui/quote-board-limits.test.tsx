// The dashboard's quote board names the band it shows: in the session it is today's; between sessions
// a quote is the next session's (docs/api.md "Market"), and so are the limits an order placed now is
// checked against.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { QuoteBoard } from '../../cli/ui/dashboard/panels.js';
import { quote } from '../helpers/fake-source.js';

afterEach(() => cleanup());

const board = (open: boolean) =>
  render(
    <QuoteBoard
      quotes={[quote('COMI', 87_300_000, { session_open: open }), quote('TMGH', 71_740_000, { session_open: open })]}
      moves={new Map()}
      width={90}
      rows={5}
    />,
  ).lastFrame() ?? '';

describe('The quote board names whose limits it shows', () => {
  it('in the session the band column reads limits today', () => {
    expect(board(true)).toContain('limits today');
  });

  it('between sessions the band column reads next session limits', () => {
    const frame = board(false);
    expect(frame).toContain('next session limits');
    expect(frame).not.toContain('limits today');
  });
});
