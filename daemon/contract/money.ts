// Integer micros as text for people: the one formatter of the daemon's messages and the CLI's output.
// Integer and BigInt arithmetic only (no float ever touches a money path), thousands separated.
// - formatMicros / formatEgp: exact, at least `minDecimals` decimals and more only when the value has
//   them (85.5 EGP -> "85.50", 0.855 -> "0.855"); the daemon's messages use these.
// - formatMoney: a money amount for display, rounded half away from zero to 2 decimals ("1,234,567.50").
// - formatPrice: a price per share at the decimals of its tick (2 at 2 EGP and above, 3 below), rounded
//   the same way: an average of 85.641538 shows as "85.64".
// - formatUnits / formatNav: fund units and NAVs as the funds state them, all six decimals.
// - egpNeeded / egpHeld: an amount in a refusal, for people and exact at once: two decimals like
//   formatMoney, rounded so the words stay true (what is needed up, what is held down: "needs
//   8,571.81 EGP" of a need of 8,571.8025, never "needs 8,571.80" beside "8,571.80 is available"),
//   then the exact micros: "8,571.81 EGP (8571802500 micros)".
// The API itself never formats: it keeps integer micros.
import { TICK_HIGH_MICROS, tickNeighbours, tickSize } from './tick.js';

const MICROS_PER_ONE = 1_000_000n;

/** Digits grouped by three with commas, by hand: toLocaleString goes through Intl, which costs more than the rest of a
 * message. */
function groupThousands(digits: string): string {
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

export function formatMicros(micros: number, minDecimals = 2): string {
  const abs = BigInt(Math.abs(micros));
  const whole = groupThousands((abs / MICROS_PER_ONE).toString());
  const frac = (abs % MICROS_PER_ONE).toString().padStart(6, '0').replace(/0+$/, '').padEnd(minDecimals, '0');
  return `${micros < 0 ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** EGP, exact: "1,234.50", "0.855". */
export function formatEgp(micros: number): string {
  return formatMicros(micros, 2);
}

/** Exactly `decimals` decimals (0-6), rounded half away from zero. */
export function formatRounded(micros: number, decimals: number): string {
  const step = 10n ** BigInt(6 - decimals);
  const abs = BigInt(Math.abs(micros));
  const rounded = ((abs + step / 2n) / step) * step;
  const whole = groupThousands((rounded / MICROS_PER_ONE).toString());
  const frac = (rounded % MICROS_PER_ONE).toString().padStart(6, '0').slice(0, decimals);
  const sign = micros < 0 && rounded > 0n ? '-' : '';
  return `${sign}${whole}${decimals > 0 ? `.${frac}` : ''}`;
}

/** Exactly `decimals` decimals (0-6), rounded towards +infinity ('up') or -infinity ('down'). */
function formatDirected(micros: number, decimals: number, direction: 'up' | 'down'): string {
  const step = 10n ** BigInt(6 - decimals);
  const value = BigInt(micros);
  let q = value / step; // truncates towards zero
  if (value % step !== 0n && (direction === 'up') === value > 0n) q += value > 0n ? 1n : -1n;
  // a whole number of steps: formatRounded shows it as it is
  return formatRounded(Number(q * step), decimals);
}

/** An amount someone needs, for a refusal: two decimals rounded up, then the exact micros ("8,571.81 EGP (8571802500
 * micros)"). */
export function egpNeeded(micros: number): string {
  return `${formatDirected(micros, 2, 'up')} EGP (${micros} micros)`;
}

/** An amount someone has (or may still use), for a refusal: two decimals rounded down, then the exact micros. */
export function egpHeld(micros: number): string {
  return `${formatDirected(micros, 2, 'down')} EGP (${micros} micros)`;
}

/** A money amount for people: two decimals, rounded ("1,234,567.50"). */
export function formatMoney(micros: number): string {
  return formatRounded(micros, 2);
}

/** The decimals of a price's tick: 2 at 2 EGP and above (0.01), 3 below (0.001). */
export function priceDecimals(priceMicros: number): number {
  return tickSize(Math.abs(priceMicros)) === TICK_HIGH_MICROS ? 2 : 3;
}

/** A price per share at its tick's decimals ("85.64", "1.235"); an average off the grid is rounded. */
export function formatPrice(micros: number): string {
  return formatRounded(micros, priceDecimals(micros));
}

/**
 * Why a price off the tick grid cannot be placed, the one sentence the daemon's refusal (TICK_VIOLATION,
 * PRICE_OFF_TICK), the order wizard and the dashboard's form all say: the price and the tick in EGP, then
 * the nearest prices on the grid ("85.125 EGP is not on the 0.01 EGP tick: use 85.12 or 85.13 EGP").
 */
export function offTickMessage(priceMicros: number): string {
  const n = tickNeighbours(priceMicros);
  const nearest =
    n.belowMicros > 0 ? `${formatPrice(n.belowMicros)} or ${formatPrice(n.aboveMicros)}` : formatPrice(n.aboveMicros);
  const tick = formatMicros(n.tickMicros, 0);
  return `${formatMicros(priceMicros, 0)} EGP is not on the ${tick} EGP tick: use ${nearest} EGP`;
}

/** Fund units (unit-micros) with all six decimals: "1,234.567891". */
export function formatUnits(unitMicros: number): string {
  return formatRounded(unitMicros, 6);
}

/** A fund NAV (EGP micros per unit) with all six decimals, as the funds state it: "10.012345". */
export function formatNav(navMicros: number): string {
  return formatRounded(navMicros, 6);
}
