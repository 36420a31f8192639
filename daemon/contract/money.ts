// Integer micros as text for people: the one formatter of the daemon's messages and the CLI's output.
// Integer and BigInt arithmetic only (no float ever touches a money path): thousands separated, at least
// `minDecimals` decimals and more only when the value has them (85.5 EGP -> "85.50", 0.855 -> "0.855").
// NAVs and fund units are stated with all six decimals (minDecimals 6). The API itself never formats.
const MICROS_PER_ONE = 1_000_000n;

/** Digits grouped by three with commas, by hand: toLocaleString goes through Intl, which costs more than the rest of a message. */
function groupThousands(digits: string): string {
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += ',' + digits.slice(i, i + 3);
  return out;
}

export function formatMicros(micros: number, minDecimals = 2): string {
  const abs = BigInt(Math.abs(micros));
  const whole = groupThousands((abs / MICROS_PER_ONE).toString());
  const frac = (abs % MICROS_PER_ONE).toString().padStart(6, '0').replace(/0+$/, '').padEnd(minDecimals, '0');
  return `${micros < 0 ? '-' : ''}${whole}${frac ? '.' + frac : ''}`;
}

/** EGP for display: "1,234.50". */
export function formatEgp(micros: number): string {
  return formatMicros(micros, 2);
}
