// A logo is accepted only if the statement renderer can draw it (docs/branding.md, "Logo"; issue 26,
// item 6). Each file below was accepted (200) before, and then every statement of the tenant failed with
// RENDER_FAILED, or the render worker took the whole daemon down (a PLTE chunk whose length is not a
// whole number of entries makes Typst's PNG decoder panic, and the panic aborts the process), or the
// upload inflated 130 KB into 128 MiB. Each is now refused at upload with 422 LOGO_NOT_RENDERABLE and a
// message naming why; the logo on file stays, and statements keep rendering with it. A valid PNG and a
// valid JPEG still render into a statement.
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trader } from '../helpers/trading.js';
import { JPEG_LOGO, jpegWithFrame, jpegWithSegment, makePng, pngChunk, pngOf } from '../helpers/png.js';
import { createReport, pdfOf, readyReport, settle } from '../helpers/reports.js';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { sealLogo } from '../../daemon/branding/sealed.js';

let t: TestApp;
let investor: string;
const period = { period_start: '2026-11-01', period_end: '2026-11-22' };
const GOOD_PNG = makePng(120, 48, (x) => (x < 60 ? [200, 16, 46] : [31, 58, 95]));

const putLogo = (raw: Buffer) => t.req('PUT', '/v1/branding/logo', { raw, contentType: 'application/octet-stream' });
const logoOnFile = async () =>
  (
    await t.app.inject({
      method: 'GET',
      url: '/v1/branding/logo',
      headers: { authorization: `Bearer ${t.creds.tenant.api_key}` },
    })
  ).rawPayload;

/**
 * A statement of the tenant, rendered: ready, and its PDF holds an image XObject (the logo; a statement
 * draws no other image). Read from the PDF's own bytes, so the test needs no poppler.
 */
async function statementDrawsLogo(): Promise<void> {
  const report = await readyReport(t, { investor_id: investor, ...period, sections: ['summary'] });
  expect(report.state).toBe('ready');
  expect((await pdfOf(t, report.report_id)).toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
}

/** 4096 x 4096 RGBA at 16 bits per channel: 128 MiB of pixels, deflated to about 130 KB. */
function inflationBomb(): Buffer {
  const rows = Buffer.alloc(4096 * (1 + 4096 * 8));
  const png = pngOf({ width: 4096, height: 4096, depth: 16, colour: 6, rows });
  expect(png.length).toBeLessThan(512 * 1024);
  return png;
}

beforeAll(async () => {
  t = await makeApp();
  investor = await trader(t, 1_000);
  expect((await putLogo(GOOD_PNG)).status).toBe(200);
});
afterAll(() => t.close());

describe('A logo the renderer cannot draw is refused at upload with 422 LOGO_NOT_RENDERABLE, naming why, and the logo on file stays', () => {
  const palette = (entries: number) => pngChunk('PLTE', Buffer.alloc(entries, 0x80));
  const cases: Array<[string, () => Buffer, RegExp]> = [
    ['a palette PNG without its PLTE chunk', () => pngOf({ width: 4, height: 4, depth: 8, colour: 3 }), /palette/],
    ['an arithmetic-coded JPEG (SOF9)', () => jpegWithFrame({ marker: 0xc9 }), /arithmetic/],
    ['a 12-bit JPEG (SOF1, precision 12)', () => jpegWithFrame({ marker: 0xc1, precision: 12 }), /12 bits/],
    ['a 12-bit baseline-marked JPEG (SOF0, precision 12)', () => jpegWithFrame({ precision: 12 }), /12 bits/],
    ['a lossless JPEG (SOF3)', () => jpegWithFrame({ marker: 0xc3 }), /lossless/],
    ['a 130 KB PNG that inflates to 4096 x 4096 at 16 bits per channel', inflationBomb, /4096 x 4096/],
    [
      'a PNG of 2048 x 2048 RGBA at 16 bits per channel (32 MiB decoded)',
      () => pngOf({ width: 2048, height: 2048, depth: 16, colour: 6 }),
      /MiB/,
    ],
    ['a PNG 2049 pixels wide', () => pngOf({ width: 2049, height: 1, depth: 8, colour: 0 }), /2049 x 1/],
    ['a JPEG 2049 pixels tall', () => jpegWithFrame({ height: 2049 }), /x 2049/],
    [
      'a palette PNG whose PLTE is 7 bytes (the decoder panics and aborts the process)',
      () => pngOf({ width: 4, height: 4, depth: 8, colour: 3, before: [palette(7)] }),
      /PLTE/,
    ],
    [
      'a palette PNG whose PLTE has 257 entries (the decoder panics and aborts the process)',
      () => pngOf({ width: 4, height: 4, depth: 8, colour: 3, before: [palette(257 * 3)] }),
      /PLTE/,
    ],
    [
      'a palette PNG whose PLTE comes after its image data',
      () => pngOf({ width: 4, height: 4, depth: 8, colour: 3, after: [palette(6)] }),
      /PLTE/,
    ],
    [
      'a PNG with two PLTE chunks',
      () => pngOf({ width: 4, height: 4, depth: 8, colour: 3, before: [palette(6), palette(6)] }),
      /PLTE/,
    ],
    [
      'a PNG with an unknown critical chunk',
      () => pngOf({ width: 4, height: 4, depth: 8, colour: 0, before: [pngChunk('ABCD', Buffer.alloc(3))] }),
      /ABCD/,
    ],
    [
      'a PNG with a second IHDR',
      () => pngOf({ width: 4, height: 4, depth: 8, colour: 0, before: [pngChunk('IHDR', Buffer.alloc(13))] }),
      /IHDR/,
    ],
    [
      'an animated PNG (acTL, fcTL)',
      () =>
        pngOf({
          width: 4,
          height: 4,
          depth: 8,
          colour: 0,
          before: [pngChunk('acTL', Buffer.from([0, 0, 0, 1, 0, 0, 0, 0])), pngChunk('fcTL', Buffer.alloc(26))],
        }),
      /animat/,
    ],
    [
      'a PNG whose image data is split by another chunk',
      () => {
        const z = deflateSync(Buffer.alloc(4 * 5));
        const png = pngOf({ width: 4, height: 4, depth: 8, colour: 0 });
        const idat = png.indexOf(Buffer.from('IDAT')) - 4;
        return Buffer.concat([
          png.subarray(0, idat),
          pngChunk('IDAT', z.subarray(0, 4)),
          pngChunk('tEXt', Buffer.from('a\0b')),
          pngChunk('IDAT', z.subarray(4)),
          pngChunk('IEND', Buffer.alloc(0)),
        ]);
      },
      /IDAT/,
    ],
    [
      'an interlaced PNG with a row of unknown filter type',
      () => pngOf({ width: 2, height: 2, depth: 8, colour: 0, interlace: 1, rows: Buffer.from([0, 0, 0, 0, 9, 0, 0]) }),
      /filter/,
    ],
    ['a JPEG with a horizontal sampling factor of 3', () => jpegWithFrame({ sampling: 0x32 }), /sampling/],
    [
      'a JPEG with an Adobe segment naming an unknown colour transform',
      () => jpegWithSegment(0xee, Buffer.from('Adobe\0\0\0\0\0\0\x07', 'latin1')),
      /Adobe/,
    ],
    [
      'a JPEG with a second frame header',
      () => {
        const sof = JPEG_LOGO.indexOf(Buffer.from([0xff, 0xc0]));
        const frame = JPEG_LOGO.subarray(sof, sof + 2 + JPEG_LOGO.readUInt16BE(sof + 2));
        return Buffer.concat([JPEG_LOGO.subarray(0, sof), frame, JPEG_LOGO.subarray(sof)]);
      },
      /frame/,
    ],
    [
      'a JPEG without Huffman tables',
      () => {
        const dht = JPEG_LOGO.indexOf(Buffer.from([0xff, 0xc4])),
          sos = JPEG_LOGO.indexOf(Buffer.from([0xff, 0xda]));
        return Buffer.concat([JPEG_LOGO.subarray(0, dht), JPEG_LOGO.subarray(sos)]);
      },
      /Huffman/,
    ],
  ];
  for (const [what, bytes, why] of cases) {
    it(`${what}: 422 LOGO_NOT_RENDERABLE, and the logo on file stays`, async () => {
      const before = await logoOnFile();
      const res = await putLogo(bytes());
      expect(res.status, res.text).toBe(422);
      expect(res.body.error.code).toBe('LOGO_NOT_RENDERABLE');
      expect(res.body.error.message).toMatch(why);
      expect((await logoOnFile()).equals(before)).toBe(true);
    });
  }

  it('after every refused upload, a statement still renders, with the logo on file drawn', async () => {
    expect((await logoOnFile()).equals(GOOD_PNG)).toBe(true);
    await statementDrawsLogo();
  });
});

describe('A logo the renderer can draw is accepted and drawn into a statement', () => {
  it('a PNG (8-bit RGB) is accepted and drawn', async () => {
    const png = makePng(64, 24, (x, y) => [x * 4, y * 10, 128]);
    expect((await putLogo(png)).status).toBe(200);
    await statementDrawsLogo();
  });

  it('a JPEG (baseline) is accepted and drawn', async () => {
    const res = await putLogo(JPEG_LOGO);
    expect(res.status, res.text).toBe(200);
    expect(res.body.content_type).toBe('image/jpeg');
    await statementDrawsLogo();
  });

  it('a palette PNG with its PLTE, and a JPEG marked extended sequential (SOF1) at 8 bits, are accepted and drawn', async () => {
    const rows = Buffer.from([0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
    expect(
      (
        await putLogo(
          pngOf({
            width: 4,
            height: 4,
            depth: 8,
            colour: 3,
            rows,
            before: [pngChunk('PLTE', Buffer.from([200, 16, 46, 31, 58, 95]))],
          }),
        )
      ).status,
    ).toBe(200);
    await statementDrawsLogo();
    expect((await putLogo(jpegWithFrame({ marker: 0xc1 }))).status).toBe(200);
    await statementDrawsLogo();
  });

  it('the largest logo accepted, 2048 x 2048 RGBA at 8 bits (16 MiB decoded), is drawn', async () => {
    expect((await putLogo(pngOf({ width: 2048, height: 2048, depth: 8, colour: 6 }))).status).toBe(200);
    await statementDrawsLogo();
  });
});

describe('A logo stored without the upload check (a sandbox from before it, an imported snapshot) never reaches the renderer', () => {
  it('a palette PNG whose PLTE is 7 bytes, put straight into the row: its statement fails RENDER_FAILED, the daemon lives on, and the next good logo renders', async () => {
    // Given to Typst, this file panics its PNG decoder, and the panic aborts the whole process.
    const crash = pngOf({
      width: 4,
      height: 4,
      depth: 8,
      colour: 3,
      before: [pngChunk('PLTE', Buffer.alloc(7, 0x80))],
    });
    const tenant = t.creds.tenant.tenant_id;
    expect((await putLogo(GOOD_PNG)).status).toBe(200);
    t.deps.db
      .prepare('UPDATE brandings SET logo_sealed = ? WHERE tenant_id = ?')
      .run(sealLogo(t.deps.keys.tenantDek(tenant), tenant, crash), tenant);
    const created = await createReport(t, { investor_id: investor, ...period, sections: ['summary'] });
    expect(created.status).toBe(201);
    await advance(t, { minutes: 2 });
    expect(await settle(t, created.body.report_id)).toMatchObject({ state: 'failed', reason_code: 'RENDER_FAILED' });
    expect((await t.req('GET', '/v1/branding')).status).toBe(200);
    expect((await putLogo(GOOD_PNG)).status).toBe(200);
    await statementDrawsLogo();
  });
});
