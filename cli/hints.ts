// What the CLI tells people to do next: `svc` commands, never HTTP routes. The error registry's remedy
// (daemon/contract/errors.ts) speaks to API clients ("List symbols with GET /v1/instruments"); here each
// code whose remedy names a route says the svc command that does the same. Every command named keeps
// the --home the user passed, so it can be pasted and run against the same sandbox.
import { realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { ERROR_CODES, isErrorCode, type ErrorCode } from '../daemon/contract/errors.js';

let home: string | undefined;
let program = 'svc';

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The program as the user would type it again: `svc` when `svc` on the PATH is this very program
 * (npm link, a global install), else the script's path from the working directory (`./bin/svc`, the
 * README's way in a checkout), else its absolute path. `scriptPath` is process.argv[1].
 */
export function invokedName(scriptPath: string, pathEnv: string, cwd: string): string {
  const self = realOrNull(scriptPath) ?? scriptPath;
  const onPath = pathEnv
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => realOrNull(join(dir, 'svc')) === self);
  if (onPath) return 'svc';
  const rel = relative(cwd, scriptPath);
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return shellWord(`./${rel}`);
  return shellWord(self);
}

/** The name this run was invoked by (main.ts sets it once at start; `svc` until then). */
export function useProgram(name: string): void {
  program = name;
}

/** The --home of this run (main.ts sets it before a command runs); undefined: none was given. */
export function useHome(dir: string | undefined): void {
  home = dir;
}

/** A word as a shell reads it back: single-quoted unless it is plainly safe. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `svc ARGS` as the user should type it: the program as they invoked it (`./bin/svc` in a checkout,
 * `svc` on the PATH), with `--home DIR` when this run was given --home.
 */
export function svc(args: string): string {
  return home === undefined ? `${program} ${args}` : `${program} --home ${shellWord(home)} ${args}`;
}

/** The codes whose registry remedy names an HTTP route, as svc commands (ARGS in capitals are yours to fill). */
const CLI_REMEDIES: Partial<Record<ErrorCode, () => string>> = {
  ROUTE_NOT_FOUND: () => `Check the path against the API's routes: ${svc('api GET /openapi.json')}`,
  METHOD_NOT_ALLOWED: () => `Check the method against the API's routes: ${svc('api GET /openapi.json')}`,
  UNAUTHENTICATED: () =>
    `The keys in use do not match this sandbox (unset SVC_API_KEY, or check the profile): ${svc('sandbox env')}`,
  SIGNATURE_INVALID: () =>
    `The signing secret in use does not match this sandbox (unset SVC_SIGNING_SECRET, or check the profile): ` +
    `${svc('sandbox env')}`,
  UNKNOWN_SYMBOL: () => `List the symbols: ${svc('market quotes')}`,
  TRANSFER_NOT_PENDING_APPROVAL: () => `List the waiting transfers: ${svc('desk funding list')}`,
  DAILY_TRANSFER_LIMIT_EXCEEDED: () =>
    `Send at most the remaining amount named in the message, or wait for the next Cairo day: ` +
    `${svc('clock advance --days 1')}`,
  TICK_VIOLATION: () =>
    `Round the price to the tick (0.01 EGP at 2 EGP and above, 0.001 below); the tick and band: ` +
    `${svc('market quotes SYMBOL')}`,
  PRICE_OFF_TICK: () =>
    `Round the price to the tick (0.01 EGP at 2 EGP and above, 0.001 below); the tick and band: ` +
    `${svc('market quotes SYMBOL')}`,
  ORDER_NOT_CANCELLABLE: () => `No action needed; the order's final state: ${svc('order show ORDER_ID')}`,
  INVALID_CURSOR: () =>
    `Page with the next_before the previous page named (--before ID), or leave --before out for the newest items`,
  PRICE_BAND_EXCEEDED: () => `Price inside today's band: ${svc('market quotes SYMBOL')}`,
  MARKET_CLOSED: () =>
    `Send a day or gtc order (--tif day), or wait for the open: ${svc('clock advance --until next_open')}`,
  INSUFFICIENT_SETTLED_CASH: () =>
    `Deposit (${svc('transfer deposit AMOUNT_EGP')}), wait for settlement, or reduce the quantity or amount; ` +
    `the settled cash: ${svc('balances')}`,
  INSUFFICIENT_SETTLED_SECURITIES: () =>
    `Reduce the quantity or wait for settlement (T+2); the settled shares: ${svc('balances')}`,
  INSUFFICIENT_BUYING_POWER: () => `Deposit or reduce the quantity: ${svc('transfer deposit AMOUNT_EGP')}`,
  SUITABILITY_REQUIRED: () => `Record the questionnaire: ${svc('investor suitability INVESTOR_ID')}`,
  RISK_ACK_REQUIRED: () => `Accept the risk disclosure: ${svc('investor suitability INVESTOR_ID --ack-risk')}`,
  INVESTOR_NOT_APPROVED: () =>
    `Open an account and wait for approval: ${svc('kyc apply')}, then ${svc('kyc status APPLICATION_ID')}`,
  ORDER_NOT_IN_QUEUE: () => `List the waiting orders: ${svc('desk queue')}`,
  NO_EXECUTIONS: () => `Wait for a fill, then ask again: ${svc('order show ORDER_ID')}`,
  UNKNOWN_FUND: () => `List the funds: ${svc('fund list')}`,
  DATE_IN_PAST: () => `Send today or a later date; the clock: ${svc('clock show')}`,
  APPLICATION_ALREADY_SUBMITTED: () => `Follow the broker's decision: ${svc('kyc status APPLICATION_ID')}`,
  APPLICATION_ALREADY_DECIDED: () =>
    `After a rejection, apply again (${svc('kyc apply')}); the decision: ${svc('kyc status APPLICATION_ID')}`,
  APPLICATION_NOT_REFERRED: () => `List the review queue: ${svc('desk kyc list')}`,
  UNKNOWN_DOCUMENT_SIDE: () =>
    `Upload both sides with --front FILE --back FILE (or --sample-documents): ${svc('kyc apply')}`,
  REPORT_NOT_READY: () =>
    `Ask again until state is ready (two simulated minutes after it was asked for; a frozen clock: ` +
    `${svc('clock advance --minutes 2')}): ${svc('report status REPORT_ID')}`,
  REPORT_PURGED: () =>
    `The retention has passed; ask for a new statement: ${svc('report create --from YYYY-MM-DD --to YYYY-MM-DD')}`,
  UNSUPPORTED_LOCALE: () => `Ask for en (English) or ar (Arabic): ${svc('report create --locale ar')}`,
  INVALID_PERIOD: () => `Give --from <= --to <= today on the sandbox clock, as YYYY-MM-DD; today: ${svc('clock show')}`,
  NOT_AVAILABLE: () =>
    `Only narrating an order that was not rejected needs a provider; with --ai none everything else answers. ` +
    `Templates, no model: ${svc('sandbox start --ai registry')} (a running sandbox: ` +
    `${svc('sandbox reset --ai registry')}, which empties it)`,
};

/** The hint for an error code: its svc command where one does it, else the registry's remedy. */
export function cliHint(code: string): string | undefined {
  if (!isErrorCode(code)) return undefined;
  return CLI_REMEDIES[code]?.() ?? ERROR_CODES[code].remedy;
}
