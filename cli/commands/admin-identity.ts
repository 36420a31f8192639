// Shared by the `svc admin` commands: which operator identity a command acts as (`--as ROLE`, else the
// command's own default), taken from the sandbox's credentials (the profile, else the home's
// credentials.json, where the first start wrote each identity's key and step-up secret), and the
// display helpers every admin screen uses (times in Cairo, EGP or shares by asset).
import { join } from 'node:path';
import { api, type ApiResponse, type RequestOptions } from '../client/http.js';
import { readJson, resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { apiError, egp, table, usage } from '../output.js';
import { identityHint } from '../identity-hint.js';

/** The identities `--as` can name: the bootstrap roles that own a key of their own. */
export const ADMIN_IDENTITIES = ['security', 'approver', 'admin', 'dealer', 'compliance', 'auditor'] as const;
export type AdminIdentity = (typeof ADMIN_IDENTITIES)[number];

export interface AdminGlobals extends GlobalOptions {
  /** `--as`, given on the `svc admin` group (before or after the subcommand). */
  as?: string;
}

/** A connection acting as one identity: its key sent as X-Admin-Key and its step-up secret for codes. */
export interface AdminConnection {
  profile: Profile;
  identity: AdminIdentity;
  /** The command's own identity (acted as without --as). */
  defaultIdentity: AdminIdentity;
  json: boolean;
}

type Creds = Record<string, string | undefined>;

/**
 * The connection of `--as` (or `fallback`): the identity's key and step-up secret from the profile,
 * else from the home's credentials.json. A sandbox without that identity is a usage error (exit 2).
 */
export function adminConnection(g: AdminGlobals, fallback: AdminIdentity): AdminConnection {
  const identity = (g.as ?? fallback) as AdminIdentity;
  if (!(ADMIN_IDENTITIES as readonly string[]).includes(identity))
    usage(`--as must be one of ${ADMIN_IDENTITIES.join(', ')}`);
  const profile = resolveProfile(g);
  const fromProfile = profile as unknown as Creds;
  const fromHome = readJson<Creds>(join(profile.home, 'credentials.json')) ?? {};
  const key = fromProfile[`${identity}_key`] ?? fromHome[`${identity}_key`];
  const stepUp = fromProfile[`${identity}_step_up`] ?? fromHome[`${identity}_step_up`];
  if (!key)
    usage(
      `this sandbox has no ${identity} identity: its credentials (${join(profile.home, 'credentials.json')}) ` +
        `hold no ${identity}_key`,
    );
  // The client sends admin_key as X-Admin-Key (the dealer's key as X-Console-Key, its realm) and
  // computes X-Step-Up-Code from the secret paired with the key it sends: pairing them here makes every
  // request act as the chosen identity.
  const acting =
    identity === 'dealer' ? { dealer_key: key, dealer_step_up: stepUp } : { admin_key: key, admin_step_up: stepUp };
  return { profile: { ...profile, ...acting }, identity, defaultIdentity: fallback, json: Boolean(g.json) };
}

/** Sends one request as the connection's identity. */
export function send<T>(
  c: AdminConnection,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const as: RequestOptions = c.identity === 'dealer' ? { identity: 'dealer' } : { adminKey: c.profile.admin_key };
  return api<T>(c.profile, method, path, { ...opts, ...as });
}

/**
 * Sends one request and returns its 2xx body; a refusal prints its code, message and hint and exits 1.
 * A refusal about the identity (it lacks the route's grant) gets a hint naming who holds it.
 */
export async function call<T>(c: AdminConnection, method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send<T>(c, method, path, opts);
  if (res.status >= 200 && res.status < 300) return res.body;
  const hint = c.json
    ? undefined
    : await identityHint(
        c.profile,
        { identity: c.identity, prefer: c.defaultIdentity, identities: ADMIN_IDENTITIES },
        { method, path },
        res,
      );
  apiError(res, c.json, hint);
}

/** A query string of the options given (undefined ones left out), with its leading "?". */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  return q.size ? `?${q}` : '';
}

const CAIRO = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Africa/Cairo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An instant as Cairo's wall clock, "2026-11-24 10:05"; null shows "-". */
export function cairo(iso: string | null | undefined): string {
  if (!iso) return '-';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const p = Object.fromEntries(CAIRO.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** An amount of an asset: EGP for cash (micros), whole shares for an equity. */
export function amountOf(asset: string, value: number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  return asset === 'cash:EGP' ? egp(value) : String(value);
}

/** The asset as people say it: "EGP" for cash, the symbol (shares) otherwise. */
export const assetLabel = (asset: string): string => (asset === 'cash:EGP' ? 'EGP' : asset);

/** Checks a positive integer option (--limit); usage error otherwise. */
export function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) usage(`${name} must be a positive whole number (got ${value})`);
  return Number(value);
}

/** Checks an option against its allowed values; usage error otherwise. */
export function oneOf(name: string, value: string | undefined, allowed: readonly string[]): string | undefined {
  if (value !== undefined && !allowed.includes(value))
    usage(`${name} must be one of ${allowed.join(', ')} (got ${value})`);
  return value;
}

/** A required text option, not blank; usage error otherwise. */
export function required(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') usage(`missing ${name} TEXT`);
  return value;
}

/** The terminal's columns; 100 when stdout is not a terminal. */
export const terminalWidth = (): number =>
  process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 100;

/** Cuts text to `max` characters, ending with "…" when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * Rows of a table cut to the terminal's width (100 columns when not a terminal): the last column gets
 * what the others leave, at least 12 characters.
 */
export function fitLast(headers: string[], rows: string[][]): string[][] {
  const width = terminalWidth();
  const last = headers.length - 1;
  const others = headers
    .slice(0, last)
    .reduce((sum, h, i) => sum + Math.max(h.length, ...rows.map((r) => r[i].length)) + 2, 0);
  const room = Math.max(12, width - others);
  return rows.map((r) => [...r.slice(0, last), clip(r[last], room)]);
}

/**
 * A table that fits the terminal (100 columns when not one): the columns named in `optional` are left
 * out, in that order, until it fits; with `clipLast` (a minimum width), the last column (free text)
 * is cut to the room the others leave, at least that minimum (else optional columns go first).
 */
export function fittedTable(headers: string[], rows: string[][], optional: string[], clipLast?: number): string {
  const width = terminalWidth();
  const lastIndex = headers.length - 1;
  let keep = headers.map((_h, i) => i);
  const colWidth = (i: number) => Math.max(headers[i].length, ...rows.map((r) => r[i].length));
  const span = (cols: number[]) => cols.reduce((sum, i) => sum + colWidth(i), 0) + 2 * (cols.length - 1);
  const fixed = () => keep.filter((i) => !(clipLast !== undefined && i === lastIndex));
  const needed = () => span(fixed()) + (clipLast !== undefined && keep.includes(lastIndex) ? 2 + clipLast : 0);
  for (const name of optional) {
    if (needed() <= width) break;
    keep = keep.filter((i) => headers[i] !== name);
  }
  const room = Math.max(clipLast ?? 0, width - span(fixed()) - 2);
  const cut = rows.map((r) => keep.map((i) => (clipLast !== undefined && i === lastIndex ? clip(r[i], room) : r[i])));
  return table(
    keep.map((i) => headers[i]),
    cut,
  );
}
