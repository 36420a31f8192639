// The upload's check (daemon/branding/validate.ts) against the renderer itself: Typst, the package and
// the `image("...", height: 1.1cm)` call the statement template uses, compiled and exported to PDF here.
// Every logo the check accepts, Typst draws: the valid files, and every one of a few thousand seeded
// mutants of them that the check lets through (PNG chunks re-checksummed, so the mutation reaches the
// decoder). And the files of issue 26 that Typst refuses, the check refuses too, naming why. The files
// on which Typst's decoder panics (a PLTE of 7 bytes, or of 257 entries) are not given to Typst here:
// the panic aborts the process (test/api/branding-logo-render.test.ts refuses them at upload).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { NodeCompiler } from '@myriaddreamin/typst-ts-node-compiler';
import { describe, expect, it } from 'vitest';
import { checkLogo } from '../../daemon/branding/validate.js';
import { JPEG_LOGO, jpegWithFrame, makePng, pngChunk, pngOf } from '../helpers/png.js';

const require = createRequire(import.meta.url);
let compiler: NodeCompiler | null = null;

/** Typst's answer for this image in the template's image call: null when it draws it, else its error. */
function typstRefusal(bytes: Buffer, type: 'image/png' | 'image/jpeg'): string | null {
  if (!compiler) {
    const { NodeCompiler: C } =
      require('@myriaddreamin/typst-ts-node-compiler') as typeof import('@myriaddreamin/typst-ts-node-compiler');
    const font = join(
      dirname(require.resolve('@expo-google-fonts/noto-sans/package.json')),
      '400Regular/NotoSans_400Regular.ttf',
    );
    compiler = C.create({ workspace: '/statement', fontArgs: [{ fontPaths: [font] }] });
  }
  const c = compiler;
  const path = type === 'image/png' ? '/logo.png' : '/logo.jpg';
  c.resetShadow();
  c.mapShadow(`/statement${path}`, bytes);
  try {
    const res = c.compile({ mainFileContent: `#image(${JSON.stringify(path)}, height: 1.1cm)` });
    if (res.hasError() || !res.result) return JSON.stringify(res.takeDiagnostics()?.shortDiagnostics ?? []);
    c.pdf(res.result);
    return null;
  } finally {
    c.evictCache(10);
  }
}

/** A deterministic PRNG (a linear congruential generator): the same mutants on every run. */
function prng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return Math.floor((s / 0x80000000) * n);
  };
}

/** The PNG with every chunk's CRC recomputed, so that a mutation inside a chunk reaches the decoder. */
function rechecksummed(png: Buffer): Buffer {
  for (let at = 8; at + 12 <= png.length; ) {
    const length = png.readUInt32BE(at);
    if (at + 12 + length > png.length) break;
    pngChunk(png.toString('latin1', at + 4, at + 8), png.subarray(at + 8, at + 8 + length)).copy(png, at);
    at += 12 + length;
  }
  return png;
}

const VALID: Array<[string, Buffer]> = [
  ['an 8-bit RGB PNG', makePng(12, 7, (x, y) => [x * 20, y * 30, 100])],
  [
    'a 4-bit palette PNG with its PLTE and a tRNS',
    pngOf({
      width: 5,
      height: 3,
      depth: 4,
      colour: 3,
      rows: Buffer.from([0, 0x12, 0x01, 0, 0, 0x21, 0x10, 0, 0, 0, 0x22, 0]),
      before: [pngChunk('PLTE', Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9])), pngChunk('tRNS', Buffer.from([0, 128]))],
    }),
  ],
  // Adam7 passes of 3 x 3 at 4 bytes a pixel: 1x1, 1x1, 2x1, 1x2 and 3x1 pixels, a filter byte a row
  [
    'an interlaced 16-bit grey + alpha PNG',
    pngOf({ width: 3, height: 3, depth: 16, colour: 4, interlace: 1, rows: Buffer.alloc(5 + 5 + 9 + 10 + 13) }),
  ],
  ['the ID card fixture (PNG)', readFileSync('fixtures/documents/national_id_front.png')],
  ['a baseline JPEG', JPEG_LOGO],
  ['an extended sequential JPEG at 8 bits (SOF1)', jpegWithFrame({ marker: 0xc1 })],
];

describe('Every logo the upload accepts, the renderer draws', () => {
  for (const [what, bytes] of VALID) {
    it(`${what}: accepted, and drawn`, () => {
      const checked = checkLogo(bytes);
      expect(checked).toMatchObject({ ok: true });
      if (checked.ok) expect(typstRefusal(bytes, checked.value)).toBeNull();
    });
  }

  it('3,000 seeded mutants of those files (1 to 3 bytes changed each): each one the check accepts, the renderer draws', () => {
    const pick = prng(26);
    let accepted = 0;
    const failures: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const [what, base] = VALID[pick(VALID.length)];
      const bytes = Buffer.from(base);
      const isJpeg = bytes[0] === 0xff;
      for (let k = 0, n = 1 + pick(3); k < n; k++) {
        const at = (isJpeg ? 2 : 8) + pick(bytes.length - (isJpeg ? 2 : 8));
        bytes[at] = [bytes[at] ^ (1 << pick(8)), pick(256), 0xff, 0][pick(4)];
      }
      const logo = isJpeg ? bytes : rechecksummed(bytes);
      const checked = checkLogo(logo);
      if (!checked.ok) continue;
      accepted++;
      const refusal = typstRefusal(logo, checked.value);
      if (refusal) failures.push(`${what} #${i} (${logo.toString('base64')}): ${refusal}`);
    }
    expect(failures).toEqual([]);
    expect(accepted).toBeGreaterThan(300);
  });
});

describe("The issue's logos, which the renderer refuses, the upload refuses too, naming why", () => {
  const cases: Array<[string, Buffer, 'image/png' | 'image/jpeg', RegExp]> = [
    [
      'a palette PNG without its PLTE chunk',
      pngOf({ width: 4, height: 4, depth: 8, colour: 3 }),
      'image/png',
      /without its palette/,
    ],
    ['an arithmetic-coded JPEG (SOF9)', jpegWithFrame({ marker: 0xc9 }), 'image/jpeg', /arithmetic-coded/],
    ['a 12-bit JPEG (SOF1)', jpegWithFrame({ marker: 0xc1, precision: 12 }), 'image/jpeg', /12 bits/],
    [
      'a JPEG with a DC Huffman value over 15',
      (() => {
        const b = Buffer.from(JPEG_LOGO);
        b[0xc7] = 16;
        return b;
      })(),
      'image/jpeg',
      /over 15/,
    ],
    [
      'a PNG with an unknown critical chunk',
      pngOf({ width: 4, height: 4, depth: 8, colour: 0, before: [pngChunk('ABCD', Buffer.alloc(3))] }),
      'image/png',
      /ABCD/,
    ],
  ];
  for (const [what, bytes, type, why] of cases) {
    it(`${what}: the renderer refuses it, and so does the upload`, () => {
      expect(typstRefusal(bytes, type)).toMatch(/failed to decode image/);
      const checked = checkLogo(bytes);
      expect(checked.ok).toBe(false);
      if (!checked.ok) {
        expect(checked.code).toBe('LOGO_NOT_RENDERABLE');
        expect(checked.message).toMatch(why);
      }
    });
  }
});
