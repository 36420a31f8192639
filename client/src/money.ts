// Money without surprises: the API counts money in integer micros (1 EGP = 1,000,000 micros). These
// helpers convert decimal EGP strings to micros and back with string and bigint arithmetic, never a float.

export type Rounding = 'refuse' | 'half-up' | 'down';

const MICROS = 1_000_000n;

/**
 * "85.125" EGP to micros (85_125_000). A string with more than 6 decimals is refused (a RangeError)
 * unless `rounding` says how to round it: 'half-up' (away from zero at .5) or 'down' (toward zero).
 * A number is refused (a float cannot carry money exactly); so is a result beyond Number.MAX_SAFE_INTEGER.
 */
export function egpToMicros(egp: string, rounding: Rounding = 'refuse'): number {
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(egp.trim());
  if (!m) throw new RangeError(`not a decimal EGP amount: ${JSON.stringify(egp)}`);
  const [, sign, whole, frac = ''] = m;
  let micros = BigInt(whole) * MICROS + BigInt(frac.slice(0, 6).padEnd(6, '0'));
  const rest = frac.slice(6);
  if (/[1-9]/.test(rest)) {
    if (rounding === 'refuse') throw new RangeError(`${egp} EGP is finer than a micro (6 decimals)`);
    if (rounding === 'half-up' && rest[0] >= '5') micros += 1n;
  }
  const signed = sign ? -micros : micros;
  if (signed > BigInt(Number.MAX_SAFE_INTEGER) || signed < -BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`${egp} EGP is beyond the exact range of micros as a number`);
  return Number(signed);
}

/** Micros to a decimal EGP string: 85_125_000 -> "85.125", 85_000_000 -> "85.00" (at least `minDecimals`). */
export function microsToEgp(micros: number | bigint, minDecimals = 2): string {
  if (typeof micros === 'number' && !Number.isSafeInteger(micros))
    throw new RangeError(`micros must be a safe integer: ${micros}`);
  const v = BigInt(micros);
  const abs = v < 0n ? -v : v;
  const frac = (abs % MICROS).toString().padStart(6, '0').replace(/0+$/, '').padEnd(minDecimals, '0');
  return `${v < 0n ? '-' : ''}${abs / MICROS}${frac ? `.${frac}` : ''}`;
}
