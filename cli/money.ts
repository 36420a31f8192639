// Amounts typed by people: EGP, or fund units, as a decimal string, converted to integer micros
// exactly with string and BigInt arithmetic (a float would turn 0.29 into 289999.99...).
const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;
const MICROS_PER_ONE = 1_000_000n;

/** A decimal string with up to 6 decimals -> micros of `unit` (EGP or units), exactly. */
function parseMicros(text: string, unit: string, example: string): number {
  const s = text.trim();
  const m = DECIMAL_RE.exec(s);
  if (!m) {
    if (/^-/.test(s)) throw new Error(`${text} is negative; give a positive amount in ${unit}`);
    throw new Error(`${text} is not an amount in ${unit} (digits with an optional decimal point, e.g. ${example})`);
  }
  const [, whole, frac = ''] = m;
  if (frac.length > 6) throw new Error(`${text} has more than 6 decimals; 0.000001 ${unit} (one micro) is the smallest unit`);
  const micros = BigInt(whole) * MICROS_PER_ONE + BigInt(frac.padEnd(6, '0'));
  if (micros > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`${text} ${unit} is too large to represent exactly in micros`);
  return Number(micros);
}

/**
 * "1500", "1500.5", "0.000001" -> micros. Refuses signs, exponents, separators, more than 6 decimals
 * (finer than a micro) and anything above Number.MAX_SAFE_INTEGER micros; zero is returned as 0.
 */
export function parseEgp(text: string): number {
  return parseMicros(text, 'EGP', '1500.25');
}

/** Fund units the same way: "600", "12.5", "0.000001" -> unit-micros (1 unit = 1,000,000). */
export function parseUnits(text: string): number {
  return parseMicros(text, 'units', '12.5');
}
