// svc admin alerts against a real daemon, without a TTY: a wash pattern (a buy and a sell of one symbol
// four minutes apart) raises a wash_trade alert on an on-demand run; the list and the evidence for
// people (times in Cairo), escalation, closing with a note, and the API's refusals (exit 1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;
let inv: string;
const orders: string[] = [];

const must = async (args: string[]) => {
  const res = await sbx.svc(args);
  if (res.code !== 0) throw new Error(`svc ${args.join(' ')}: ${res.stderr}`);
  return res;
};

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await onboardViaCli(sbx, { fullName: 'Karim Adel', suitability: true, depositEgp: '20000' });
  await must(['clock', 'advance', '--until', 'next_open']);
  await must(['order', 'buy', 'COMI', '20', '--investor', inv]);
  // Tuesday: Sunday's shares have settled (T+2) and can be sold.
  await must(['clock', 'advance', '--until', '2026-11-24T10:00:00+02:00']);
  orders.push((await must(['order', 'buy', 'COMI', '10', '--investor', inv, '--json'])).json.order_id);
  await must(['clock', 'advance', '--minutes', '4']);
  orders.push((await must(['order', 'sell', 'COMI', '10', '--investor', inv, '--json'])).json.order_id);
}, 180_000);

afterAll(async () => sbx?.stop());

describe('svc admin alerts', () => {
  it('run raises the wash_trade alert of the session; the list shows rule, investor, symbol and the Cairo window', async () => {
    const run = await sbx.svc(['admin', 'alerts', 'run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^srun_\w+ {2}session 2026-11-24: 1 new alert\n/);
    expect(run.stdout).toMatch(new RegExp(`alr_\\w+\\s+wash_trade\\s+${inv}\\s+COMI`));
    const list = await sbx.svc(['admin', 'alerts', '--state', 'open']);
    expect(list.stdout).toMatch(
      new RegExp(`alr_\\w+\\s+wash_trade\\s+${inv}\\s+COMI\\s+2026-11-24\\s+10:00-10:04\\s+open\\s+2/2`),
    );
    const json = await sbx.svc(['admin', 'alerts', 'list', '--rule', 'wash_trade', '--json']);
    expect(json.json.alerts).toHaveLength(1);
    expect(json.json.alerts[0].order_ids).toEqual(orders);
    expect((await sbx.svc(['admin', 'alerts', 'run', '--json'])).json.alerts_raised).toBe(0);
  });

  it('show: the evidence (orders, fills, measured values); escalate, then close with a note', async () => {
    const id = (await sbx.svc(['admin', 'alerts', '--json'])).json.alerts[0].alert_id;
    const show = await sbx.svc(['admin', 'alerts', 'show', id]);
    expect(show.stdout).toContain(`wash_trade of ${inv} in COMI: open`);
    expect(show.stdout).toContain('window 2026-11-24 10:00 to 10:04 (Cairo)');
    expect(show.stdout).toContain(`orders  ${orders.join(' ')}`);
    expect(show.stdout).toMatch(/min_gap_seconds 240/);
    const esc = await sbx.svc(['admin', 'alerts', 'escalate', id, '--note', 'second time this month']);
    expect(esc.stdout).toContain(': escalated');
    const noNote = await sbx.svc(['admin', 'alerts', 'close', id, '--json']);
    expect([noNote.code, noNote.json.error.code]).toEqual([1, 'ALERT_NOTE_REQUIRED']);
    const closed = await sbx.svc(['admin', 'alerts', 'close', id, '--note', 'client rebalanced; no intent to mislead']);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toContain(': closed');
    expect(closed.stdout).toContain('note: client rebalanced; no intent to mislead');
    const again = await sbx.svc(['admin', 'alerts', 'escalate', id]);
    expect([again.code, again.stderr.includes('ALERT_STATE_CONFLICT')]).toEqual([1, true]);
  });

  it('an identity without the surveillance grants is refused by the API (FORBIDDEN, exit 1); an unknown alert is NOT_FOUND', async () => {
    const res = await sbx.svc(['admin', '--as', 'security', 'alerts']);
    expect([res.code, res.stderr.includes('FORBIDDEN')]).toEqual([1, true]);
    const missing = await sbx.svc(['admin', 'alerts', 'show', 'alr_nothere', '--json']);
    expect([missing.code, missing.json.error.code]).toEqual([1, 'NOT_FOUND']);
  });
});
