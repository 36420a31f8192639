// Client statement test helpers (docs/reports.md): create a report, bring it to ready on the sandbox
// clock, download the PDF as bytes, and read the PDF's text layer with poppler's pdftotext.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advance, type Res, type TestApp } from './app.js';
export { makePng } from './png.js';

export type Tenant = { api_key: string; signing_secret: string };

export interface Download {
  status: number;
  headers: Record<string, unknown>;
  /** The body's bytes (the PDF on 200). */
  bytes: Buffer;
  /** The JSON body on an error answer. */
  body: any;
}

export function createReport(
  t: TestApp,
  body: Record<string, unknown>,
  opts: { tenant?: Tenant; idempotencyKey?: string } = {},
): Promise<Res> {
  return t.req('POST', '/v1/reports', { body: { type: 'client_statement', ...body }, ...opts });
}

export function getReport(t: TestApp, id: string, tenant?: Tenant): Promise<Res> {
  return t.req('GET', `/v1/reports/${id}`, { tenant });
}

/** GET .../download with the bearer key, keeping the raw bytes (t.req decodes bodies as text). */
export async function downloadReport(t: TestApp, id: string, tenant: Tenant = t.creds.tenant): Promise<Download> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/reports/${id}/download`,
    headers: { authorization: `Bearer ${tenant.api_key}` },
  });
  const bytes = res.rawPayload;
  const isJson = String(res.headers['content-type'] ?? '').includes('json');
  return {
    status: res.statusCode,
    headers: res.headers,
    bytes,
    body: isJson ? JSON.parse(bytes.toString('utf8')) : null,
  };
}

/**
 * Polls GET until the report leaves `generating` (a render may finish on another thread a moment after
 * its ready minute, in real time); answers the last GET body.
 */
export async function settle(t: TestApp, id: string, tenant?: Tenant, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await getReport(t, id, tenant);
    if (res.status !== 200) throw new Error(`GET report ${id}: ${res.status} ${res.text}`);
    if (res.body.state === 'ready' || res.body.state === 'failed' || Date.now() > until) return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Creates a report, advances the clock two minutes and waits for it to be ready; answers its GET body. */
export async function readyReport(t: TestApp, body: Record<string, unknown>, tenant?: Tenant): Promise<any> {
  const created = await createReport(t, body, { tenant });
  if (created.status !== 201) throw new Error(`create report: ${created.status} ${created.text}`);
  await advance(t, { minutes: 2 });
  const report = await settle(t, created.body.report_id, tenant);
  if (report.state !== 'ready')
    throw new Error(`report ${report.report_id} is ${report.state} (${report.reason_code})`);
  return report;
}

/** The downloaded PDF of a ready report (throws on any other answer). */
export async function pdfOf(t: TestApp, id: string, tenant?: Tenant): Promise<Buffer> {
  const res = await downloadReport(t, id, tenant);
  if (res.status !== 200) throw new Error(`download ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.bytes;
}

/** The PDF's text layer as poppler's `pdftotext -layout` prints it (pages separated by form feeds). */
export function pdfText(pdf: Buffer, opts: { layout?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pdf-'));
  try {
    const file = join(dir, 'statement.pdf');
    writeFileSync(file, pdf);
    const args = [...(opts.layout === false ? [] : ['-layout']), '-enc', 'UTF-8', file, '-'];
    // stderr piped: poppler warns that Typst's /MarkInfo /Suspects is a boolean, which it is (harmless)
    return execFileSync('pdftotext', args, {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The number of pages of a PDF (poppler's pdfinfo). */
export function pdfPages(pdf: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pdf-'));
  try {
    const file = join(dir, 'statement.pdf');
    writeFileSync(file, pdf);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return Number(/^Pages:\s+(\d+)/m.exec(info)![1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The pages (1-based, ascending, each once) on which the PDF draws an image (poppler's pdfimages -list). */
export function imagePages(pdf: Buffer): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pdf-'));
  try {
    const file = join(dir, 'statement.pdf');
    writeFileSync(file, pdf);
    const list = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const pages = list
      .split('\n')
      .slice(2)
      .map((l) => Number(l.trim().split(/\s+/)[0]))
      .filter((n) => n > 0);
    return [...new Set(pages)].sort((a, b) => a - b);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Text with every run of whitespace made one space. */
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

export function reportCount(t: TestApp): number {
  return (t.deps.db.prepare('SELECT COUNT(*) AS n FROM reports').get() as { n: number }).n;
}

/** The sandbox clock's local date (Cairo), YYYY-MM-DD. */
export function today(t: TestApp): string {
  return t.deps.market.calendar.localDate(t.deps.clock.now());
}
