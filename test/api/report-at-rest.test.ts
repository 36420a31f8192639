// The PDF of a client statement and the tenant's logo are sealed (AES-256-GCM under the tenant's data
// key) before they touch the disk (docs/reports.md, "At rest and determinism"): the raw database file,
// its WAL and every file in the home hold neither in clear, before and after a checkpoint. The
// investor's name, stored in clear, is the positive control that the byte search works.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { order, trader } from '../helpers/trading.js';
import { makePng, pdfOf, readyReport } from '../helpers/reports.js';

let t: TestApp;
let pdfs: Buffer[] = [];
const NAME = 'Hoda Samir Control';
/** A real PNG of noise (incompressible: any 32-byte window identifies it) that the renderer can decode. */
const NOISE = randomBytes(96 * 64 * 3);
const LOGO = makePng(96, 64, (x, y) => [
  NOISE[(y * 96 + x) * 3],
  NOISE[(y * 96 + x) * 3 + 1],
  NOISE[(y * 96 + x) * 3 + 2],
]);

/** Every file under the home (the test app's data directory), concatenated. */
function everyFile(dir: string = t.dir): Buffer {
  const parts: Buffer[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    parts.push(statSync(path).isDirectory() ? everyFile(path) : readFileSync(path));
  }
  return Buffer.concat(parts);
}

/** Slices that identify a PDF: its header and first 200 bytes, 64 bytes from its middle, and its end. */
function pdfSlices(pdf: Buffer): Buffer[] {
  const mid = Math.floor(pdf.length / 2);
  return [pdf.subarray(0, 200), pdf.subarray(mid, mid + 64), pdf.subarray(pdf.length - 64)];
}

function logoSlices(): Buffer[] {
  const mid = Math.floor(LOGO.length / 2);
  return [LOGO.subarray(8, 40), LOGO.subarray(mid, mid + 32), LOGO.subarray(LOGO.length - 32)];
}

beforeAll(async () => {
  t = await makeApp();
  expect(
    (await t.req('PUT', '/v1/branding', { body: { display_name: 'Sealed Brokerage', footer_text: 'Sealed at rest.' } }))
      .status,
  ).toBe(200);
  expect((await t.req('PUT', '/v1/branding/logo', { raw: LOGO, contentType: 'image/png' })).status).toBe(200);
  const inv = await trader(t, 20_000, { fullName: NAME });
  await advance(t, { until: 'next_open' });
  expect((await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 })).body.status).toBe(
    'filled',
  );
  for (const locale of ['en', 'ar']) {
    const report = await readyReport(t, {
      investor_id: inv,
      period_start: '2026-11-01',
      period_end: '2026-11-22',
      locale,
    });
    pdfs.push(await pdfOf(t, report.report_id));
  }
  pdfs = pdfs.filter((p) => p.subarray(0, 5).toString('latin1') === '%PDF-');
  expect(pdfs).toHaveLength(2);
});
afterAll(() => t.close());

describe("The PDF is sealed before it is written: the database, its WAL and $SVC_HOME never hold its bytes in clear; nor the logo's", () => {
  it('the control name is found in clear, and the WAL exists', () => {
    const disk = everyFile();
    expect(disk.includes(Buffer.from(NAME))).toBe(true);
    expect(readdirSync(t.dir)).toContain('svc.db-wal');
  });

  it('before a checkpoint: no file in the home holds a slice of either PDF or of the logo', () => {
    const disk = everyFile();
    for (const pdf of pdfs) for (const slice of pdfSlices(pdf)) expect(disk.includes(slice)).toBe(false);
    for (const slice of logoSlices()) expect(disk.includes(slice)).toBe(false);
  });

  it('after a checkpoint into the database file: still none', () => {
    t.deps.db.pragma('wal_checkpoint(TRUNCATE)');
    const disk = everyFile();
    expect(disk.includes(Buffer.from(NAME))).toBe(true);
    for (const pdf of pdfs) for (const slice of pdfSlices(pdf)) expect(disk.includes(slice)).toBe(false);
    for (const slice of logoSlices()) expect(disk.includes(slice)).toBe(false);
  });
});
