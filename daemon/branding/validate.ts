// What a logo must be (docs/branding.md, "Logo"): PNG or JPEG by its magic bytes, whatever the
// Content-Type said (else 415 UNSUPPORTED_MEDIA_TYPE), at most 512 KiB, and a file the statement
// renderer can draw, within the size bounds (else 422 LOGO_NOT_RENDERABLE naming why: png-structure.ts,
// jpeg-structure.ts, image-structure.ts). SVG is refused by name: reports embed raster images, and an
// SVG is a document that can carry scripts and external references. The theme fields are checked by
// their wire schema (daemon/contract/schemas/branding.ts) and by the table's constraints.
import { imageTypeOf } from '../contract/kyc.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { MAX_LOGO_BYTES, type LogoType } from '../contract/schemas/branding.js';
import { jpegProblem } from './jpeg-structure.js';
import { pngProblem } from './png-structure.js';

/** An SVG (or any XML) document: text starting, after an optional BOM and white space, with '<'. */
function looksLikeMarkup(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  return head.startsWith('<');
}

export function checkLogo(bytes: Buffer): Outcome<LogoType> {
  if (bytes.length > MAX_LOGO_BYTES) return refuse('PAYLOAD_TOO_LARGE', `A logo is at most ${MAX_LOGO_BYTES} bytes (512 KiB); this one is ${bytes.length}.`);
  if (bytes.length === 0) return refuse('UNSUPPORTED_MEDIA_TYPE', 'The body is empty: send the raw bytes of a PNG or JPEG file.');
  const type = imageTypeOf(bytes);
  if (type) {
    const problem = type === 'image/png' ? pngProblem(bytes) : jpegProblem(bytes);
    const name = type === 'image/png' ? 'PNG' : 'JPEG';
    return problem === null ? ok(type) : refuse('LOGO_NOT_RENDERABLE', `The logo starts like a ${name} but the statement renderer could not draw it: ${problem}.`);
  }
  if (looksLikeMarkup(bytes)) return refuse('UNSUPPORTED_MEDIA_TYPE', 'SVG (or other markup) is not accepted as a logo: send a PNG or JPEG.');
  return refuse('UNSUPPORTED_MEDIA_TYPE', 'The logo must be a PNG or JPEG image (judged by its first bytes, whatever the Content-Type says).');
}
