// Can the statement renderer draw this logo? Reports embed the logo with Typst, whose decoders (the
// Rust `png` crate and `zune-jpeg`) refuse some files that start like an image, and abort the whole
// process on a few (a PLTE chunk that is not a whole number of entries). So an upload is read here the
// way those decoders read it, and refused with a reason unless they would draw it (docs/branding.md,
// "Logo"): PNG in png-structure.ts, JPEG in jpeg-structure.ts, both bounded by the limits here before
// anything is inflated, so a small file cannot make the daemon (or, later, the renderer) hold 128 MiB.

/** Logos wider or taller than this are refused (a report prints them 1.1 cm tall). */
export const MAX_LOGO_SIDE = 2048;

/** The decoded pixels, as the renderer holds them (RGBA, 8 or 16 bits a channel), are at most this. */
export const MAX_LOGO_DECODED_BYTES = 16 * 1024 * 1024;

/**
 * Why a logo of these dimensions is refused, or null: each side 1..MAX_LOGO_SIDE, and the pixels
 * expanded to RGBA at `bytesPerChannel` at most MAX_LOGO_DECODED_BYTES.
 */
export function sizeProblem(width: number, height: number, bytesPerChannel: 1 | 2): string | null {
  if (width === 0 || height === 0) return 'it has no pixels';
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE)
    return `it is ${width} x ${height} pixels; at most ${MAX_LOGO_SIDE} a side`;
  const decoded = width * height * 4 * bytesPerChannel;
  if (decoded > MAX_LOGO_DECODED_BYTES) {
    const mib = Math.round(decoded / (1024 * 1024)); // whole MiB, for the message only
    return (
      `its pixels decode to ${mib} MiB (${width} x ${height} at ${bytesPerChannel * 8} bits a channel); at most ` +
      `${MAX_LOGO_DECODED_BYTES / (1024 * 1024)} MiB`
    );
  }
  return null;
}
