// A model server behind a private certificate authority, trusted through NODE_EXTRA_CA_CERTS as Node users
// do. svc starts the daemon without that variable (Node would read the file at every start) and hands the
// path down as SVC_EXTRA_CA_CERTS; the daemon reads it for the assistant's first https request
// (daemon/assistant/outbound.ts). The proof: the model is reached over https when the variable names its
// certificate, and not when it does not.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstChoice, ok, startChatModel, type ChatModel } from '../helpers/chat-model.js';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { NEUTRAL } from '../../daemon/assistant/render.js';

let dir: string;
let model: ChatModel;
const sandboxes: CliSandbox[] = [];

/** A self-signed certificate for 127.0.0.1: its own authority, which no default trust store holds. */
function selfSigned(into: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(into, 'model.key');
  const certFile = join(into, 'model.pem');
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=svc test model server',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/** Starts a sandbox narrating through the model, with this NODE_EXTRA_CA_CERTS ('' for none). */
async function narratingSandbox(extraCa: string): Promise<CliSandbox> {
  const prior = process.env.NODE_EXTRA_CA_CERTS;
  process.env.NODE_EXTRA_CA_CERTS = extraCa;
  try {
    const sbx = await startSandbox(['--ai', `openai:${model.baseUrl}`]);
    sandboxes.push(sbx);
    return sbx;
  } finally {
    if (prior === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = prior;
  }
}

/** Places an order and asks the assistant to explain it: the answer, and how many requests the model got. */
async function explainOne(sbx: CliSandbox): Promise<{ code: number; stdout: string; asked: number }> {
  const before = model.received.length;
  const inv = await onboardViaCli(sbx, { fullName: 'Salma Fathy', suitability: true, depositEgp: '20000' });
  const placed = await sbx.svc(['order', 'buy', 'COMI', '3', '--investor', inv, '--json']);
  expect(placed.code, placed.stderr).toBe(0);
  const res = await sbx.svc(['ai', 'explain', placed.json.order_id]);
  return { code: res.code, stdout: res.stdout, asked: model.received.length - before };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-extra-ca-'));
  const tls = selfSigned(dir);
  model = await startChatModel(tls);
  model.script = (u) => ok(JSON.stringify(firstChoice(u)));
}, 60_000);

afterAll(async () => {
  for (const sbx of sandboxes) await sbx.stop();
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an openai provider behind a private certificate authority', () => {
  it('with NODE_EXTRA_CA_CERTS naming its certificate, the daemon reaches it over https, though its own environment lacks the variable', async () => {
    const sbx = await narratingSandbox(join(dir, 'model.pem'));
    const environ = readFileSync(`/proc/${sbx.info.pid}/environ`, 'utf8').split('\0');
    expect(environ.some((e) => e.startsWith('NODE_EXTRA_CA_CERTS='))).toBe(false);
    expect(environ).toContain(`SVC_EXTRA_CA_CERTS=${join(dir, 'model.pem')}`);
    const res = await explainOne(sbx);
    expect(res.asked).toBeGreaterThan(0);
    expect(res.code, res.stdout).toBe(0);
    expect(res.asked).toBeGreaterThan(0);
    expect(res.stdout).not.toContain(NEUTRAL.refused.en);
  });

  it('without it, the certificate is not trusted: the model is never asked and the explainer says it cannot answer', async () => {
    const sbx = await narratingSandbox('');
    const res = await explainOne(sbx);
    expect(res.asked).toBe(0);
    expect(res.code).toBe(1);
  });
});
