// svc clock show|advance
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { ok, printJson, usage } from '../output.js';
import { withProgress } from '../progress.js';
import type { Clock, ClockAdvanceResponse } from '../../daemon/contract/schemas/sandbox.js';

export interface AdvanceOptions {
  minutes?: string;
  hours?: string;
  days?: string;
  until?: string;
}

function render(c: Clock): string {
  return (
    `${c.timestamp}  market ${c.is_open ? 'open' : 'closed'}  next_open ${c.next_open}  next_close ` +
    `${c.next_close}\n`
  );
}

export async function show(_opts: unknown, g: GlobalOptions): Promise<void> {
  const c = ok(await api<Clock>(resolveProfile(g), 'GET', '/v1/clock'), Boolean(g.json));
  if (g.json) printJson(c);
  else process.stdout.write(render(c));
}

export async function advance(opts: AdvanceOptions, g: GlobalOptions): Promise<void> {
  const body: Record<string, unknown> = {};
  for (const unit of ['minutes', 'hours', 'days'] as const) {
    if (opts[unit] === undefined) continue;
    const n = Number(opts[unit]);
    if (!Number.isFinite(n) || n <= 0) usage(`--${unit} ${opts[unit]} must be a positive number`);
    body[unit] = n;
  }
  if (opts.until) body.until = opts.until;
  if (Object.keys(body).length !== 1) usage('give exactly one of --minutes, --hours, --days, --until');
  const [[unit, value]] = Object.entries(body);
  const what = unit === 'until' ? `to ${value}` : `${value} ${Number(value) === 1 ? unit.slice(0, -1) : unit}`;
  // Days of simulated time can take a while: every due fill, expiry and settlement runs in order.
  const res = await withProgress(`advancing the clock ${what}`, () =>
    api<ClockAdvanceResponse>(resolveProfile(g), 'POST', '/admin/sandbox/clock-advance', { body }),
  );
  const c = ok(res, Boolean(g.json));
  if (g.json) printJson(c);
  else process.stdout.write(render(c));
}
