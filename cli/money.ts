// Amounts typed by people: EGP as a decimal string, converted to integer micros exactly with string
// and BigInt arithmetic (a float would turn 0.29 into 289999.99...).
const EGP_RE = /^(\d+)(?:\.(\d+))?$/;
const MICROS_PER_EGP = 1_000_000n;

/**
 * "1500", "1500.5", "0.000001" -> micros. Refuses signs, exponents, separators, more than 6 decimals
 * (finer than a micro) and anything above Number.MAX_SAFE_INTEGER micros; zero is returned as 0.
 */
export function parseEgp(text: string): number {
  const s = text.trim();
  const m = EGP_RE.exec(s);
  if (!m) {
    if (/^-/.test(s)) throw new Error(`${text} is negative; give a positive amount in EGP`);
    throw new Error(`${text} is not an amount in EGP (digits with an optional decimal point, e.g. 1500.25)`);
  }
  const [, whole, frac = ''] = m;
  if (frac.length > 6) throw new Error(`${text} has more than 6 decimals; 0.000001 EGP (one micro) is the smallest unit`);
  const micros = BigInt(whole) * MICROS_PER_EGP + BigInt(frac.padEnd(6, '0'));
  if (micros > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`${text} EGP is too large to represent exactly in micros`);
  return Number(micros);
}
