// Onboarding rules shared by the daemon and the CLI wizard (no imports: the CLI loads this without
// zod): KYC field rules, the national id structure, document sides, dealer decline reasons and the
// suitability questionnaire's vocabulary. docs/onboarding.md explains each choice.

export const KYC_STATES = ['received', 'screened', 'screening_referred', 'approved', 'rejected'] as const;
export type KycState = (typeof KYC_STATES)[number];

export const KYC_PATHS = ['documents', 'dossier'] as const;
export type KycPath = (typeof KYC_PATHS)[number];

export const DOCUMENT_SIDES = ['national_id_front', 'national_id_back'] as const;
export type DocumentSide = (typeof DOCUMENT_SIDES)[number];

export const MAX_DOCUMENT_BYTES = 512 * 1024;

/** Reasons a broker declines an application; SCREENING_MATCH is the sandbox's `0000` outcome. */
export const KYC_DECLINE_REASONS = [
  'SCREENING_MATCH',
  'IDENTITY_NOT_VERIFIED',
  'DOCUMENTS_ILLEGIBLE',
  'DOCUMENTS_MISMATCH',
  'DUPLICATE_INVESTOR',
  'OTHER',
] as const;
export type KycDeclineReason = (typeof KYC_DECLINE_REASONS)[number];

/** Sandbox magic values (docs/onboarding.md): the last four digits of the national id decide the review. */
export const MAGIC_REJECT_SUFFIX = '0000';
export const MAGIC_REFER_SUFFIX = '9999';

/** Adults only: 18 full years at the simulated date (see docs/onboarding.md). */
export const MIN_AGE_YEARS = 18;

export const NAME_MIN = 2;
export const NAME_MAX = 120;
export const ADDRESS_MIN = 5;
export const ADDRESS_MAX = 300;
export const EMAIL_MAX = 254;

/** Letters of any script (Arabic included), combining marks, and space ' ’ - . between them. */
export const FULL_NAME_RE = /^[\p{L}\p{M}]+(?:[ '’.-]+[\p{L}\p{M}]+)*\.?$/u;
/** Egyptian mobile numbers (docs/onboarding.md, "Identifiers"). */
export const PHONE_RE = /^(?:\+20|0)(10|11|12|15)\d{8}$/;
/** A pragmatic address check: one @, a dot in the domain, no spaces. */
export const EMAIL_RE = new RegExp(
  "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?" +
    String.raw`(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$`,
);
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Governorate codes of the national id (docs/onboarding.md, "Identifiers"). */
export const GOVERNORATES: Readonly<Record<string, string>> = {
  '01': 'Cairo',
  '02': 'Alexandria',
  '03': 'Port Said',
  '04': 'Suez',
  '11': 'Damietta',
  '12': 'Dakahlia',
  '13': 'Sharqia',
  '14': 'Qalyubia',
  '15': 'Kafr El Sheikh',
  '16': 'Gharbia',
  '17': 'Monufia',
  '18': 'Beheira',
  '19': 'Ismailia',
  '21': 'Giza',
  '22': 'Beni Suef',
  '23': 'Fayoum',
  '24': 'Minya',
  '25': 'Asyut',
  '26': 'Sohag',
  '27': 'Qena',
  '28': 'Aswan',
  '29': 'Luxor',
  '31': 'Red Sea',
  '32': 'New Valley',
  '33': 'Matrouh',
  '34': 'North Sinai',
  '35': 'South Sinai',
  '88': 'Born abroad',
};

/** True when y-m-d names a day of the proleptic Gregorian calendar. */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

/** A YYYY-MM-DD string that names a real day, or null. */
export function parseIsoDate(s: string): { year: number; month: number; day: number } | null {
  if (!DATE_RE.test(s)) return null;
  const [year, month, day] = s.split('-').map(Number);
  return isRealDate(year, month, day) ? { year, month, day } : null;
}

export type NationalIdCheck = { ok: true; birthDate: string; governorate: string } | { ok: false; reason: string };

/**
 * Structure of the 14-digit national id `C YYMMDD GG SSS G K`: century 2 (1900s) or 3 (2000s), a real
 * birth date, a known governorate. The check digit is not validated (no official rule), so the
 * sandbox's magic suffixes 0000 and 9999 stay usable. Messages never echo the id.
 */
export function checkNationalId(id: string): NationalIdCheck {
  if (!/^\d{14}$/.test(id)) return { ok: false, reason: 'must be exactly 14 digits 0-9' };
  const century = id[0];
  if (century !== '2' && century !== '3')
    return { ok: false, reason: 'the first digit (century) must be 2 (born 1900-1999) or 3 (born 2000-2099)' };
  const year = (century === '2' ? 1900 : 2000) + Number(id.slice(1, 3));
  const month = Number(id.slice(3, 5));
  const day = Number(id.slice(5, 7));
  if (!isRealDate(year, month, day)) return { ok: false, reason: 'digits 2-7 (YYMMDD) are not a real birth date' };
  const gov = id.slice(7, 9);
  if (!(gov in GOVERNORATES))
    return { ok: false, reason: `digits 8-9 are not a governorate code (${Object.keys(GOVERNORATES).join(', ')})` };
  const pad = (n: number) => String(n).padStart(2, '0');
  return { ok: true, birthDate: `${year}-${pad(month)}-${pad(day)}`, governorate: GOVERNORATES[gov] };
}

/** Full years between a birth date and a date, both YYYY-MM-DD (a 29 February birthday counts on 1 March). */
export function ageInYears(birthDate: string, onDate: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const [y, m, d] = onDate.split('-').map(Number);
  let age = y - by;
  if (m < bm || (m === bm && d < bd)) age--;
  return age;
}

export function isValidFullName(s: string): boolean {
  const t = s.trim();
  return t.length >= NAME_MIN && t.length <= NAME_MAX && FULL_NAME_RE.test(t);
}

export function isValidEmail(s: string): boolean {
  return s.length <= EMAIL_MAX && EMAIL_RE.test(s);
}

export function isValidPhone(s: string): boolean {
  return PHONE_RE.test(s);
}

export function isValidAddress(s: string): boolean {
  const t = s.trim();
  return t.length >= ADDRESS_MIN && t.length <= ADDRESS_MAX && !/[\x00-\x1f\x7f]/.test(t);
}

/** Which image the bytes are, by their magic bytes; null when neither JPEG nor PNG. */
export function imageTypeOf(bytes: Uint8Array): 'image/jpeg' | 'image/png' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return null;
}

// Suitability questionnaire vocabulary. Bands are EGP per year (income) and EGP (net worth).
export const EXPERIENCE_LEVELS = ['none', 'limited', 'moderate', 'extensive'] as const;
export const HORIZON_BANDS = ['under_1y', '1_3y', '3_5y', 'over_5y'] as const;
export const RISK_TOLERANCES = ['low', 'medium', 'high'] as const;
export const INCOME_BANDS = ['under_120k', '120k_300k', '300k_1m', 'over_1m'] as const;
export const NET_WORTH_BANDS = ['under_250k', '250k_1m', '1m_5m', 'over_5m'] as const;
export const OBJECTIVES = ['capital_preservation', 'income', 'growth', 'speculation'] as const;

export type ExperienceLevel = (typeof EXPERIENCE_LEVELS)[number];
export type HorizonBand = (typeof HORIZON_BANDS)[number];
export type RiskTolerance = (typeof RISK_TOLERANCES)[number];
export type IncomeBand = (typeof INCOME_BANDS)[number];
export type NetWorthBand = (typeof NET_WORTH_BANDS)[number];
export type Objective = (typeof OBJECTIVES)[number];

export interface Questionnaire {
  investment_experience: ExperienceLevel;
  horizon: HorizonBand;
  risk_tolerance: RiskTolerance;
  annual_income_band: IncomeBand;
  net_worth_band: NetWorthBand;
  objectives: Objective[];
  shariah_only: boolean;
}

export const TIER_NAMES = { 0: 'none', 1: 'conservative', 2: 'balanced', 3: 'growth' } as const;
export type SuitabilityTier = 1 | 2 | 3;

export const ACCOUNT_STATUSES = ['active', 'restricted', 'closed'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
