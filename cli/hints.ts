// What the CLI tells people to do next: `svc` commands, never HTTP routes. The error registry's remedy
// (daemon/contract/errors.ts) speaks to API clients ("List symbols with GET /v1/instruments"); here each
// code whose remedy names a route says the svc command that does the same. Every command named keeps
// the --home the user passed, so it can be pasted and run against the same sandbox.
import { ERROR_CODES, isErrorCode, type ErrorCode } from '../daemon/contract/errors.js';

let home: string | undefined;

/** The --home of this run (main.ts sets it before a command runs); undefined: none was given. */
export function useHome(dir: string | undefined): void {
  home = dir;
}

/** A word as a shell reads it back: single-quoted unless it is plainly safe. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `svc ARGS` as the user should type it: `svc --home DIR ARGS` when this run was given --home. */
export function svc(args: string): string {
  return home === undefined ? `svc ${args}` : `svc --home ${shellWord(home)} ${args}`;
}

/** The codes whose registry remedy names an HTTP route, as svc commands (ARGS in capitals are yours to fill). */
const CLI_REMEDIES: Partial<Record<ErrorCode, () => string>> = {
  ROUTE_NOT_FOUND: () => `Check the path against the API's routes: ${svc('api GET /openapi.json')}.`,
  METHOD_NOT_ALLOWED: () => `Check the method against the API's routes: ${svc('api GET /openapi.json')}.`,
  UNAUTHENTICATED: () => `The keys in use do not match this sandbox: check ${svc('sandbox status')} and ${svc('sandbox env')} (or unset SVC_API_KEY).`,
  SIGNATURE_INVALID: () => `The signing secret in use does not match this sandbox: check ${svc('sandbox env')} (or unset SVC_SIGNING_SECRET).`,
  UNKNOWN_SYMBOL: () => `List the symbols with ${svc('market quotes')}.`,
  TRANSFER_NOT_PENDING_APPROVAL: () => `List the waiting transfers with ${svc('desk funding list')}.`,
  DAILY_TRANSFER_LIMIT_EXCEEDED: () => `Send at most the remaining amount named in the message, or wait for the next Cairo day: ${svc('clock advance --days 1')}.`,
  PRICE_BAND_EXCEEDED: () => `Read the band with ${svc('market quotes SYMBOL')} and price inside it.`,
  MARKET_CLOSED: () => `Send a day or gtc order (--tif day), or wait for the open: ${svc('clock advance --until next_open')}.`,
  INSUFFICIENT_SETTLED_CASH: () => `See the settled cash with ${svc('balances')}; deposit with ${svc('transfer deposit AMOUNT_EGP')}, wait for settlement, or reduce the quantity or amount.`,
  INSUFFICIENT_SETTLED_SECURITIES: () => `See the settled shares with ${svc('balances')}; reduce the quantity or wait for settlement (T+2).`,
  INSUFFICIENT_BUYING_POWER: () => `Deposit with ${svc('transfer deposit AMOUNT_EGP')} or reduce the quantity.`,
  SUITABILITY_REQUIRED: () => `Record the questionnaire with ${svc('investor suitability INVESTOR_ID')}.`,
  RISK_ACK_REQUIRED: () => `Accept the risk disclosure with ${svc('investor suitability INVESTOR_ID --ack-risk')}.`,
  INVESTOR_NOT_APPROVED: () => `Open an account with ${svc('kyc apply')} and wait for approval (${svc('kyc status APPLICATION_ID')}).`,
  ORDER_NOT_IN_QUEUE: () => `List the waiting orders with ${svc('desk queue')}.`,
  NO_EXECUTIONS: () => `Wait for a fill (${svc('order show ORDER_ID')}), then ask for the contract note again.`,
  UNKNOWN_FUND: () => `List the funds with ${svc('fund list')}.`,
  DATE_IN_PAST: () => `Read the clock with ${svc('clock show')} and send today or a later date.`,
  APPLICATION_ALREADY_SUBMITTED: () => `Follow the broker's decision with ${svc('kyc status APPLICATION_ID')}.`,
  APPLICATION_ALREADY_DECIDED: () => `Read the decision with ${svc('kyc status APPLICATION_ID')}; after a rejection, apply again with ${svc('kyc apply')}.`,
  APPLICATION_NOT_REFERRED: () => `List the review queue with ${svc('desk kyc list')}.`,
  UNKNOWN_DOCUMENT_SIDE: () => `Upload both sides with ${svc('kyc apply')} (--front FILE --back FILE, or --sample-documents).`,
  REPORT_NOT_READY: () => `Ask again in a moment: ${svc('api GET /v1/reports/REPORT_ID')} until state is ready.`,
  NOT_AVAILABLE: () => `Start the sandbox with the registry-grounded assistant: ${svc('sandbox start --ai registry')}.`,
};

/** The hint for an error code: its svc command where one does it, else the registry's remedy. */
export function cliHint(code: string): string | undefined {
  if (!isErrorCode(code)) return undefined;
  return CLI_REMEDIES[code]?.() ?? ERROR_CODES[code].remedy;
}
