// svc events tail --forward URL against a real daemon (docs/inspector.md, "Events"): every event is
// POSTed to a local URL (JSON body, Svc-Event-Type header), like a webhook relay, and its status
// printed; here a real HTTP server receives an order's fill after the clock advances.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { cliInvestor } from '../helpers/cli-investor.js';

interface Hook {
  type: string | undefined;
  id: string | undefined;
  body: { id: number; type: string; subject: string; data: Record<string, unknown> };
}

let sbx: CliSandbox;
let server: Server;
let port = 0;
const received: Hook[] = [];
let tail: ChildProcess | null = null;
let out = '';
let err = '';

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      received.push({
        type: req.headers['svc-event-type'] as string,
        id: req.headers['svc-event-id'] as string,
        body: JSON.parse(text),
      });
      res.writeHead(received.length === 1 ? 202 : 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  tail?.kill('SIGTERM');
  await new Promise((r) => server.close(r));
  await sbx?.stop();
});

async function waitFor(pred: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; stdout: ${out}; stderr: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('svc events tail --forward', () => {
  it('POSTs each event to the local URL with its type header and prints the status per event, an order fill included', async () => {
    tail = spawn(
      process.execPath,
      [
        SVC,
        '--home',
        sbx.home,
        'events',
        'tail',
        '--types',
        'order.*,transfer.completed',
        '--forward',
        `http://127.0.0.1:${port}/hook`,
      ],
      {
        env: { ...process.env, NO_COLOR: '1', CI: '1' },
      },
    );
    tail.stdout!.on('data', (c) => (out += c));
    tail.stderr!.on('data', (c) => (err += c));
    await waitFor(() => err.includes('listening for'), 'the stream to open');

    const inv = await cliInvestor(sbx, { depositEgp: '60000' });
    expect((await sbx.svc(['clock', 'advance', '--minutes', '5'])).code).toBe(0);
    expect((await sbx.svc(['clock', 'advance', '--until', 'next_open'])).code).toBe(0);
    const placed = await sbx.svc(['order', 'buy', 'COMI', '13', '--investor', inv, '--json']);
    expect(placed.code, placed.stderr).toBe(0);
    expect((await sbx.svc(['clock', 'advance', '--minutes', '2'])).code).toBe(0);

    await waitFor(() => received.some((h) => h.type === 'order.filled'), 'order.filled at the hook');
    const filled = received.find((h) => h.type === 'order.filled')!;
    expect(filled.body).toMatchObject({
      type: 'order.filled',
      subject: placed.json.order_id,
      data: { investor_id: inv, symbol: 'COMI', filled_qty: 13, qty: 13, state: 'filled' },
    });
    expect(filled.id).toBe(String(filled.body.id));
    // only the types asked for, in order: the deposit's completion, then the fills
    expect(received[0].type).toBe('transfer.completed');
    expect(received.every((h) => h.type === 'transfer.completed' || h.type!.startsWith('order.'))).toBe(true);

    await waitFor(() => out.includes('order.filled'), 'the printed line');
    expect(out).toMatch(/transfer\.completed +trf_\w+ +deposit 60,000\.00 EGP {2}-> 202/);
    expect(out).toMatch(new RegExp(`order\\.filled +${placed.json.order_id} +buy 13/13 COMI  -> 200`));
  });

  it('a listener attached does not hold up svc sandbox stop; the listener says it is reconnecting', async () => {
    const started = Date.now();
    const stop = await sbx.svc(['sandbox', 'stop']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await waitFor(() => err.includes('reconnecting'), 'the reconnect notice');
  });
});
