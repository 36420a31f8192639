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
import { sha256 } from '../store/crypto.js';

/** An SVG (or any XML) document: text starting, after an optional BOM and white space, with '<'. */
function looksLikeMarkup(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 512)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<');
}

export function checkLogo(bytes: Buffer): Outcome<LogoType> {
  if (bytes.length > MAX_LOGO_BYTES)
    return refuse(
      'PAYLOAD_TOO_LARGE',
      `A logo is at most ${MAX_LOGO_BYTES} bytes (512 KiB); this one is ${bytes.length}.`,
    );
  if (bytes.length === 0)
    return refuse('UNSUPPORTED_MEDIA_TYPE', 'The body is empty: send the raw bytes of a PNG or JPEG file.');
  const type = imageTypeOf(bytes);
  if (type) {
    const problem = type === 'image/png' ? pngProblem(bytes) : jpegProblem(bytes);
    const name = type === 'image/png' ? 'PNG' : 'JPEG';
    return problem === null
      ? ok(type)
      : refuse(
          'LOGO_NOT_RENDERABLE',
          `The logo starts like a ${name} but the statement renderer could not draw it: ${problem}.`,
        );
  }
  if (looksLikeMarkup(bytes))
    return refuse('UNSUPPORTED_MEDIA_TYPE', 'SVG (or other markup) is not accepted as a logo: send a PNG or JPEG.');
  return refuse(
    'UNSUPPORTED_MEDIA_TYPE',
    'The logo must be a PNG or JPEG image (judged by its first bytes, whatever the Content-Type says).',
  );
}

/** Verdicts on stored logos by the digest of their bytes: a tenant renders many statements with one logo. */
const verdicts = new Map<string, string | null>();
const VERDICTS_KEPT = 64;

/**
 * Why a stored logo must not reach the renderer, or null: checked again before every render (cached by
 * the digest of its bytes, computed here, never read from the row), so a logo stored before the upload
 * check existed, or one carried in by an imported snapshot, fails its report with RENDER_FAILED
 * instead of reaching a decoder that can abort the process (docs/branding.md, "Reports").
 */
export function storedLogoProblem(bytes: Buffer, contentType: LogoType): string | null {
  const key = `${contentType}:${sha256(bytes)}`;
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    const checked = checkLogo(bytes);
    if (!checked.ok) verdict = checked.message ?? checked.code;
    else
      verdict =
        checked.value === contentType ? null : `the logo's bytes are a ${checked.value}, its row says ${contentType}`;
    if (verdicts.size >= VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value ?? '');
    verdicts.set(key, verdict);
  }
  return verdict;
}
