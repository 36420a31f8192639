// Writes the bundled sample ID images (fixtures/documents/national_id_{front,back}.png): synthetic
// card drawings, no real person or document. Deterministic; rerun only to change the drawings.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';

const W = 320;
const H = 200;

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function png(paint) {
  const rows = [];
  for (let y = 0; y < H; y++) {
    const row = Buffer.alloc(1 + W * 3);
    for (let x = 0; x < W; x++) row.set(paint(x, y), 1 + x * 3);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const card = [236, 232, 220];
const ink = [40, 48, 70];
const band = [28, 96, 120];
const inside = (x, y, x0, y0, w, h) => x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;
const border = (x, y) => x < 4 || y < 4 || x >= W - 4 || y >= H - 4;

const front = png((x, y) => {
  if (border(x, y)) return band;
  if (y < 34) return band;
  if (inside(x, y, 16, 50, 78, 100))
    return inside(x, y, 36, 64, 38, 40) || inside(x, y, 26, 108, 58, 42) ? [150, 160, 175] : [205, 210, 218];
  for (let i = 0; i < 5; i++) if (inside(x, y, 112, 56 + i * 20, 180 - i * 22, 7)) return ink;
  if (inside(x, y, 112, 166, 190, 10)) return ((x >> 2) & 1) === 0 ? ink : card;
  return card;
});

const back = png((x, y) => {
  if (border(x, y)) return band;
  if (inside(x, y, 16, 24, 288, 56)) return (x * 7 + (x >> 3) * 3) % 5 < 2 ? ink : card;
  for (let i = 0; i < 4; i++) if (inside(x, y, 16, 100 + i * 20, 240 - i * 30, 7)) return ink;
  if (inside(x, y, 250, 120, 54, 54)) return (((x >> 3) + (y >> 3)) & 1) === 0 ? ink : card;
  return card;
});

mkdirSync('fixtures/documents', { recursive: true });
writeFileSync('fixtures/documents/national_id_front.png', front);
writeFileSync('fixtures/documents/national_id_back.png', back);
process.stdout.write(`front ${front.length} bytes, back ${back.length} bytes\n`);
