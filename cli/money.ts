// Amounts typed by people: EGP, or fund units, as a decimal string, converted to integer micros
// exactly with string and BigInt arithmetic (a float would turn 0.29 into 289999.99...); and the checks
// of a limit price while it is typed (the tick grid of daemon/contract/tick.ts, today's band).
import { formatPrice, offTickMessage } from '../daemon/contract/money.js';
import { isOnTick } from '../daemon/contract/tick.js';

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
  if (frac.length > 6)
    throw new Error(`${text} has more than 6 decimals; 0.000001 ${unit} (one micro) is the smallest unit`);
  const micros = BigInt(whole) * MICROS_PER_ONE + BigInt(frac.padEnd(6, '0'));
  if (micros > BigInt(Number.MAX_SAFE_INTEGER))
    throw new Error(`${text} ${unit} is too large to represent exactly in micros`);
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

/** Today's band of a symbol, as a quote carries it. */
export interface BandMicros {
  lower_micros: number;
  upper_micros: number;
}

/**
 * Why a limit price typed in EGP cannot be placed, or null: not an amount, not above 0, off the tick
 * grid (naming the two nearest prices on it), or outside today's band. Checked in this order, the
 * daemon's own (TICK_VIOLATION before PRICE_BAND_EXCEEDED), so the order wizard and the dashboard's
 * form refuse while typing what the daemon would refuse after sending.
 */
export function limitPriceProblem(text: string, band: BandMicros | null): string | null {
  let micros: number;
  try {
    micros = parseEgp(text);
  } catch (err) {
    return (err as Error).message;
  }
  if (micros <= 0) return 'a limit above 0';
  if (!isOnTick(micros)) return offTickMessage(micros);
  if (band && (micros < band.lower_micros || micros > band.upper_micros)) {
    const range = `${formatPrice(band.lower_micros)}-${formatPrice(band.upper_micros)}`;
    return `${text.trim()} is outside today's band ${range} EGP`;
  }
  return null;
}
