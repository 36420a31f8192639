// JSON with exact big integers: the fields the API documents as possibly beyond 2^53 (a company's
// market_cap_micros and net_income_micros) are parsed as bigint from their source digits; everything
// else is JSON.parse. Node 20's reviver has no access to the source text, so a small scanner first
// quotes the digits of those keys (outside strings only) and the reviver turns them into bigints.

/** The keys parsed as bigint wherever they appear. */
export const BIG_INTEGER_KEYS: ReadonlySet<string> = new Set(['market_cap_micros', 'net_income_micros']);

const MARK = 'svc-bigint:';

/** The value of a key of BIG_INTEGER_KEYS: bigint instead of number, throughout a response type. */
export type Exact<T> = T extends Uint8Array
  ? T
  : T extends readonly (infer E)[]
    ? Exact<E>[]
    : T extends object
      ? { [K in keyof T]: K extends 'market_cap_micros' | 'net_income_micros' ? Big<T[K]> : Exact<T[K]> }
      : T;
type Big<V> = V extends number ? bigint : V;

/** Whether the text names a key of BIG_INTEGER_KEYS at all (most answers do not: then JSON.parse alone). */
const NAMES_BIG_INTEGER = new RegExp([...BIG_INTEGER_KEYS].join('|'));

export function parseJson(text: string): unknown {
  if (!NAMES_BIG_INTEGER.test(text)) return JSON.parse(text);
  return JSON.parse(quoteBigIntegers(text), (key, value) =>
    BIG_INTEGER_KEYS.has(key) && typeof value === 'string' && value.startsWith(MARK)
      ? BigInt(value.slice(MARK.length))
      : value,
  );
}

/** The index just after the string literal that starts at `i` (a '"'). */
function endOfString(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** The text with each integer value of a BIG_INTEGER_KEYS key written as the string MARK + digits. */
export function quoteBigIntegers(text: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '"') {
      i++;
      continue;
    }
    const end = endOfString(text, i);
    const key = text.slice(i + 1, end - 1);
    i = end;
    if (!BIG_INTEGER_KEYS.has(key)) continue;
    const m = /^\s*:\s*(-?\d+)(?![\d.eE])/.exec(text.slice(i, i + 64));
    if (!m) continue;
    const digitsAt = i + m[0].length - m[1].length;
    out += `${text.slice(from, digitsAt)}"${MARK}${m[1]}"`;
    i = from = digitsAt + m[1].length;
  }
  return out + text.slice(from);
}
