// The daemon's one outbound request (the openai:<base_url> provider's POST) and the extra certificate
// authorities it trusts. Node loads the file NODE_EXTRA_CA_CERTS names at process start, whether or not the
// process ever makes a TLS connection; that is a large share of a bare start on a machine that sets it. So
// svc starts the daemon without it and hands the path down as SVC_EXTRA_CA_CERTS (cli/daemon-process.ts);
// the file is read here, on the first https request, and trusted beside Node's own roots. A daemon started
// some other way with NODE_EXTRA_CA_CERTS keeps Node's behaviour: the global fetch already trusts them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { EXTRA_CA_ENV } from '../contract/ai-provider.js';

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

let extraCaFetch: Promise<Fetch> | undefined;

/**
 * undici's fetch through an agent that trusts Node's roots and the extra file (read once, on first use). A file
 * that cannot be read is passed over, as Node passes over a NODE_EXTRA_CA_CERTS it cannot read.
 */
async function fetchTrustingExtra(file: string): Promise<Fetch> {
  let extra: string;
  try {
    extra = readFileSync(file, 'utf8');
  } catch {
    return fetch;
  }
  // required, not imported: the daemon's bundle runs as a script, where an import() of a package is refused;
  // node:tls only here, since a module the bundle loads at start must be one its startup snapshot can hold
  const require = createRequire(import.meta.url);
  const { Agent, fetch: undiciFetch } = require('undici') as typeof import('undici');
  const { rootCertificates } = require('node:tls') as typeof import('node:tls');
  const dispatcher = new Agent({ connect: { ca: [...rootCertificates, extra] } });
  return (url, init) =>
    undiciFetch(url, { ...init, dispatcher } as Parameters<typeof undiciFetch>[1]) as Promise<Response>;
}

/** fetch, trusting the extra certificate authorities svc handed down when the URL is https. */
export async function outboundFetch(url: string, init: RequestInit): Promise<Response> {
  const file = process.env[EXTRA_CA_ENV];
  if (!file || !url.startsWith('https:')) return fetch(url, init);
  extraCaFetch ??= fetchTrustingExtra(file);
  return (await extraCaFetch)(url, init);
}
