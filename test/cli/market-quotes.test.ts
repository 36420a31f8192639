// svc market quotes through the real binary against a real daemon: in the session the change is the
// day's move from the reference shown; after the close every row reads price = ref with a 0.00% change,
// and a note says the ref and band are the next session's (docs/api.md "Market").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;
beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
}, 120_000);
afterAll(async () => sbx?.stop());

/** The table's rows: symbol, price, change, ref, band low, band high, tick, session. */
function rows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((l) => /^[A-Z]{3,5}\s+\d/.test(l))
    .map((l) => l.trim().split(/\s+/));
}

describe('svc market quotes after the close does not contradict itself', () => {
  it("in the session a row's change is its move from the ref it shows, and no closed note is printed", async () => {
    expect((await sbx.svc(['clock', 'advance', '--until', 'next_open'])).code).toBe(0);
    expect((await sbx.svc(['clock', 'advance', '--minutes', '120'])).code).toBe(0);
    const res = await sbx.svc(['market', 'quotes', 'COMI', 'TMGH', 'FWRY']);
    expect(res.code, res.stderr).toBe(0);
    for (const [symbol, price, change, ref, , , , session] of rows(res.stdout)) {
      expect(session, symbol).toBe('open');
      const move = ((Number(price) - Number(ref)) / Number(ref)) * 100;
      expect(
        Math.abs(Number(change.replace(/[+%]/g, '')) - move),
        `${symbol} ${price} ${change} ref ${ref}`,
      ).toBeLessThan(0.011);
    }
    expect(res.stdout).not.toContain('market closed');
  });

  it("after the close each row shows price = ref and 0.00%, with a note that ref and band are the next session's", async () => {
    expect((await sbx.svc(['clock', 'advance', '--until', 'next_close'])).code).toBe(0);
    expect((await sbx.svc(['clock', 'advance', '--minutes', '30'])).code).toBe(0);
    const res = await sbx.svc(['market', 'quotes', 'COMI', 'TMGH', 'FWRY']);
    expect(res.code, res.stderr).toBe(0);
    const table = rows(res.stdout);
    expect(table).toHaveLength(3);
    for (const [symbol, price, change, ref, , , , session] of table) {
      expect({ symbol, price, change, session }).toEqual({ symbol, price: ref, change: '0.00%', session: 'closed' });
    }
    expect(res.stdout).toContain("(market closed: next session's ref and band; ref = last close, change from it)");
  });
});
