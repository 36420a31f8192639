// Text normalisation for the firewall and the intent stage: one canonical spelling per phrase, so a
// rule written once matches every way of writing it. Arabic: diacritics (harakat, tanween, shadda,
// sukun, dagger alef, Quranic marks) and tatweel removed; alef, yaa and taa marbuta variants folded
// (أ إ آ ٱ -> ا, ى -> ي, ة -> ه, ؤ -> و, ئ -> ي); Arabic-Indic and Persian digits to ASCII. Latin:
// NFKC (full-width letters, ligatures, presentation forms), lower case, Cyrillic and Greek look-alikes
// to Latin letters (Armenian too), digits inside a word read as the letters they imitate (b3st ->
// best); a decimal digit of any script (fullwidth, mathematical, Devanagari, ...) reads as its ASCII
// digit. Invisible characters (every Default_Ignorable_Code_Point: zero-width, bidi controls, soft
// hyphen, variation selectors, tag characters) are dropped; punctuation becomes a space and runs of
// spaces collapse, so rules match on words. Deterministic and total: never throws.

const ARABIC_MARKS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E8\u06EA-\u06ED\u08D3-\u08FF]/g;
const TATWEEL = /\u0640/g;
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u061C\u180E\u200E\u200F\u202A-\u202E]/gu;
const DIGIT = /\p{Nd}/u;

const LETTER_FOLD: Record<string, string> = {
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ٲ: 'ا',
  ٳ: 'ا',
  ى: 'ي',
  ی: 'ي',
  ې: 'ي',
  ئ: 'ي',
  ة: 'ه',
  ۀ: 'ه',
  ە: 'ه',
  ؤ: 'و',
  ک: 'ك',
  ڪ: 'ك',
};

/** Cyrillic, Greek and other look-alikes of Latin letters (after lower-casing). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ү: 'y',
  һ: 'h',
  ɡ: 'g',
  ı: 'i',
  ɩ: 'i',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  օ: 'o',
  ս: 'u',
  հ: 'h',
  ո: 'n',
  ց: 'g',
  զ: 'q',
  ժ: 'd',
  ɑ: 'a',
  ʋ: 'u',
  ʏ: 'y',
  ꜱ: 's',
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ʀ: 'r',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ᴢ: 'z',
};

/** Digits and signs that stand for letters inside a Latin word. */
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
};

/** A decimal digit's value: Unicode encodes each script's digits 0-9 in contiguous runs. */
function digitValue(cp: number): string {
  let start = cp;
  while (start > 0 && cp - start < 60 && DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return String((cp - start) % 10);
}

function foldChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp > 0x7f && DIGIT.test(ch)) return digitValue(cp);
  return LETTER_FOLD[ch] ?? HOMOGLYPHS[ch] ?? ch;
}

/** A Latin word with letters and look-alike digits or signs in it reads as letters (b3st, 5h0uld, $ell). */
function unleet(word: string): string {
  if (!/[a-z]/.test(word) || !/[0-9@$]/.test(word) || /^[0-9]+[a-z]{0,2}$/.test(word)) return word;
  return [...word].map((c) => LEET[c] ?? c).join('');
}

/** The canonical form of a text for matching rules: see the file header. */
export function normalise(text: string): string {
  let s = typeof text === 'string' ? text : String(text);
  s = s.normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
  s = s.replace(ARABIC_MARKS, '').replace(TATWEEL, '');
  s = [...s].map(foldChar).join('');
  s = s.replace(/[^\p{L}\p{N}@$%+]+/gu, ' ');
  return s.split(' ').filter(Boolean).map(unleet).join(' ');
}

/** Whether a text mixes Latin and Arabic (or look-alike) letters inside one word: a disguise, not a term. */
export function mixedScript(text: string): boolean {
  return text
    .normalize('NFKC')
    .split(/\s+/)
    .some((w) => /\p{Script=Latin}/u.test(w) && /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Arabic}]/u.test(w));
}
