// Renders a statement document to PDF bytes with Typst (`@myriaddreamin/typst-ts-node-compiler`, a
// prebuilt native binary). It runs in the render worker (render-worker.ts), never on the daemon's
// thread: a 500-trade statement takes about a second of CPU. Deterministic: the fonts are the embedded
// TTFs only (no font fallback, so never a system font). Typst would draw a character none of them has
// as nothing, without an error, so every string of the document is checked against the fonts' cmaps
// first (daemon/contract/font-coverage.ts) and such a statement is a RenderError (the report fails
// RENDER_FAILED) rather than a ready PDF with text missing. The document
// date is the report's ready time, and nothing else varies: the same inputs give the same bytes
// (docs/reports.md). The compiler is created once per thread and reused (a warm compiler renders far
// faster), which is why the worker lives as long as the daemon.
import { createRequire } from 'node:module';
import type { NodeCompiler as Compiler } from '@myriaddreamin/typst-ts-node-compiler';
import { DEFAULT_BRAND_FONT, isBrandFont, type BrandFont } from '../contract/brand-fonts.js';
import { embeddedFontFiles, undrawable } from '../contract/font-coverage.js';
import { STATEMENT_TEMPLATE } from './template.js';
import type { StatementDocument } from './document.js';

const require = createRequire(import.meta.url);

/**
 * The first string of the document the fonts would not draw (Typst drops such a glyph without an
 * error, fallback being off), with where it is; null when every character has a glyph.
 */
function droppedGlyph(document: StatementDocument): string | null {
  const font: BrandFont = isBrandFont(document.brand.font) ? document.brand.font : DEFAULT_BRAND_FONT;
  const stack: Array<[unknown, string]> = [[document, '']];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      const bad = undrawable(v, font);
      if (bad) return `${at.slice(1)}: ${bad}`;
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) stack.push([x, `${at}.${k}`]);
    }
  }
  return null;
}

let compiler: Compiler | null = null;

function getCompiler(): Compiler {
  if (compiler) return compiler;
  const { NodeCompiler } =
    require('@myriaddreamin/typst-ts-node-compiler') as typeof import('@myriaddreamin/typst-ts-node-compiler');
  compiler = NodeCompiler.create({ workspace: '/statement', fontArgs: [{ fontPaths: embeddedFontFiles() }] });
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
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** The PDF of one statement; RenderError when Typst reports an error (the report then fails). */
export function renderStatement(job: RenderJob): Buffer {
  const dropped = droppedGlyph(job.document);
  if (dropped)
    throw new RenderError(
      `the statement would drop a glyph none of its fonts has (${dropped}); refusing to render it without`,
    );
  const c = getCompiler();
  c.resetShadow();
  let logoPath: string | null = null;
  if (job.logo) {
    logoPath = job.logo.contentType === 'image/png' ? '/logo.png' : '/logo.jpg';
    c.mapShadow(
      `/statement${logoPath}`,
      Buffer.from(job.logo.bytes.buffer, job.logo.bytes.byteOffset, job.logo.bytes.byteLength),
    );
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
