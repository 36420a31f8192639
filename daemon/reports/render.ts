// Renders a statement document to PDF bytes with Typst (`@myriaddreamin/typst-ts-node-compiler`, a
// prebuilt native binary). It runs in the render worker (render-worker.ts), never on the daemon's
// thread: a 500-trade statement takes about a second of CPU. Deterministic: the fonts are the embedded
// TTFs only (no font fallback, so a missing glyph is an error rather than a system font), the document
// date is the report's ready time, and nothing else varies: the same inputs give the same bytes
// (docs/reports.md). The compiler is created once per thread and reused (a warm compiler renders far
// faster), which is why the worker lives as long as the daemon.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { NodeCompiler as Compiler } from '@myriaddreamin/typst-ts-node-compiler';
import { STATEMENT_TEMPLATE } from './template.js';
import type { StatementDocument } from './document.js';

const require = createRequire(import.meta.url);

/** The embedded TTFs: regular and bold of each brand font, Amiri for Arabic in every statement. */
function fontPaths(): string[] {
  const dir = (pkg: string) => dirname(require.resolve(`@expo-google-fonts/${pkg}/package.json`));
  return [
    join(dir('amiri'), '400Regular/Amiri_400Regular.ttf'),
    join(dir('amiri'), '700Bold/Amiri_700Bold.ttf'),
    join(dir('noto-sans'), '400Regular/NotoSans_400Regular.ttf'),
    join(dir('noto-sans'), '700Bold/NotoSans_700Bold.ttf'),
    join(dir('noto-serif'), '400Regular/NotoSerif_400Regular.ttf'),
    join(dir('noto-serif'), '700Bold/NotoSerif_700Bold.ttf'),
  ];
}

let compiler: Compiler | null = null;

function getCompiler(): Compiler {
  if (compiler) return compiler;
  const { NodeCompiler } = require('@myriaddreamin/typst-ts-node-compiler') as typeof import('@myriaddreamin/typst-ts-node-compiler');
  compiler = NodeCompiler.create({ workspace: '/statement', fontArgs: [{ fontPaths: fontPaths() }] });
  return compiler;
}

/** What the daemon posts to the worker: plain data (structured clone), the logo's bytes included. */
export interface RenderJob {
  document: StatementDocument;
  /** The report's ready time: the PDF's creation date (UTC parts). */
  atMs: number;
  logo: { bytes: Uint8Array; contentType: 'image/png' | 'image/jpeg' } | null;
}

export class RenderError extends Error {}

function dateParts(ms: number) {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
}

/** The PDF of one statement; RenderError when Typst reports an error (the report then fails). */
export function renderStatement(job: RenderJob): Buffer {
  const c = getCompiler();
  c.resetShadow();
  let logoPath: string | null = null;
  if (job.logo) {
    logoPath = job.logo.contentType === 'image/png' ? '/logo.png' : '/logo.jpg';
    c.mapShadow(`/statement${logoPath}`, Buffer.from(job.logo.bytes.buffer, job.logo.bytes.byteOffset, job.logo.bytes.byteLength));
  }
  const data = JSON.stringify({ ...job.document, logo_path: logoPath, date: dateParts(job.atMs) });
  try {
    const res = c.compile({ mainFileContent: STATEMENT_TEMPLATE, inputs: { data } });
    const doc = res.result;
    if (res.hasError() || !doc) {
      const diag = res.takeDiagnostics()?.shortDiagnostics ?? [];
      throw new RenderError(`typst: ${JSON.stringify(diag).slice(0, 500)}`);
    }
    return c.pdf(doc, { creationTimestamp: Math.floor(job.atMs / 1000) });
  } finally {
    c.evictCache(10);
  }
}

/** A job as posted to the worker (render-worker.ts), numbered by the queue (render-queue.ts). */
export interface RenderRequest {
  seq: number;
  job: RenderJob;
}

/** The worker's answer: the PDF's bytes (a transferred ArrayBuffer) or why Typst refused. */
export type RenderAnswer = { seq: number; ok: true; pdf: ArrayBuffer } | { seq: number; ok: false; message: string };
