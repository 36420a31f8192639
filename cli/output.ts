// One output switch: JSON on stdout for scripts (--json), plain text otherwise. Progress and logs go
// to stderr. NO_COLOR and FORCE_COLOR are honoured here (chalk alone ignores NO_COLOR).
import chalk from 'chalk';
import { formatMicros, formatMoney, formatNav, formatPrice, formatUnits } from '../daemon/contract/money.js';
import { DaemonUnreachable, refusalOf, type ApiResponse } from './client/answers.js';
import { cliHint, svc } from './hints.js';

// An empty NO_COLOR or FORCE_COLOR counts as unset (no-color.org, force-color.org); chalk would read an
// empty FORCE_COLOR as "force", and FORCE_COLOR=0 or false turns colour off.
const noColor = process.env.NO_COLOR ?? '';
const forceColor = process.env.FORCE_COLOR ?? '';
if (noColor !== '') chalk.level = 0;
else if (forceColor === '0' || forceColor === 'false') chalk.level = 0;
else if (forceColor !== '') chalk.level = Math.max(chalk.level, 1) as 1;
else if (process.env.FORCE_COLOR !== undefined && !process.stdout.isTTY) chalk.level = 0;

export { chalk };

export const EXIT = { ok: 0, apiError: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

/** A failure already explained to the user; main() turns it into the exit code. */
export class CliExit extends Error {
  constructor(
    readonly code: number,
    message = '',
  ) {
    super(message);
  }
}

export function printJson(data: unknown): void {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
}

/**
 * Text wrapped between words to fit `width` columns (a word longer than the width stays whole on its
 * own line): for prose the terminal would otherwise break mid-word.
 */
export function wrapWords(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/** Columns of the terminal messages go to (stderr), 80 without one; one spare so no line fills it. */
export function messageWidth(): number {
  return Math.max(20, (process.stderr.columns || 80) - 1);
}

export function info(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** What to do about an error code, as svc commands (cli/hints.ts), when the code is one of the registry's. */
export function errorHint(code: string): string | undefined {
  return cliHint(code);
}

/**
 * Writes an API error for people on stderr: code, HTTP status, message, request id, and the hint: the
 * one given (the caller knows more than the code, e.g. which identity asked), else the registry's.
 */
export function describeApiError(res: ApiResponse, knownHint?: string): void {
  const refusal = refusalOf(res.body);
  const err = refusal?.error;
  if (!err) {
    process.stderr.write(`${chalk.red('error')} HTTP ${res.status}: ${String(res.raw)}\n`);
    return;
  }
  const hint = knownHint ?? errorHint(String(err.code));
  process.stderr.write(`${chalk.red('error')} ${chalk.bold(err.code)} (HTTP ${res.status}): ${err.message}\n`);
  if (refusal.request_id) process.stderr.write(chalk.dim(`  request_id ${refusal.request_id}\n`));
  if (hint) process.stderr.write(`  hint: ${hint}\n`);
}

/** Reports an API error (the body as JSON on stdout with --json, else described on stderr) and exits non-zero. */
export function apiError(res: ApiResponse, json: boolean, hint?: string): never {
  if (json) printJson(res.body);
  else describeApiError(res, hint);
  throw new CliExit(EXIT.apiError);
}

/** Returns the body of a 2xx response, or reports the error and exits. */
export function ok<T>(res: ApiResponse<T>, json: boolean): T {
  if (res.status >= 200 && res.status < 300) return res.body;
  apiError(res, json);
}

export function usage(message: string): never {
  process.stderr.write(`${chalk.red('error')} ${message}\n`);
  throw new CliExit(EXIT.usage);
}

export function handleFatal(err: unknown): number {
  if (err instanceof CliExit) return err.code;
  // Ctrl-C inside an @inquirer prompt: the user left; nothing was sent after it (exit 130, as a shell
  // reports a command ended by SIGINT)
  if ((err as Error)?.name === 'ExitPromptError') {
    process.stderr.write('cancelled\n');
    return EXIT.interrupted;
  }
  if (err instanceof DaemonUnreachable) {
    // The message ends with the command that starts a sandbox: with the --home in use.
    process.stderr.write(`${chalk.red('error')} ${err.message.replace(/svc sandbox start$/, svc('sandbox start'))}\n`);
    return EXIT.unreachable;
  }
  process.stderr.write(`${chalk.red('error')} ${(err as Error)?.stack ?? err}\n`);
  return EXIT.apiError;
}

// Display only (daemon/contract/money.ts; integer arithmetic, no float); null or undefined shows "-".

/** A money amount in EGP: two decimals, rounded, thousands separated ("1,234,567.50"). */
export function egp(micros: number | null | undefined): string {
  return micros === null || micros === undefined ? '-' : formatMoney(micros);
}

/** A price per share at its tick's decimals; an average off the grid is rounded ("85.64", "1.235"). */
export function price(micros: number | null | undefined): string {
  return micros === null || micros === undefined ? '-' : formatPrice(micros);
}

/** A tick size as it is: "0.01", "0.001". */
export function tick(micros: number): string {
  return formatMicros(micros, 0);
}

/** Fund units (unit-micros), six decimals. */
export function units(unitMicros: number | null | undefined): string {
  return unitMicros === null || unitMicros === undefined ? '-' : formatUnits(unitMicros);
}

/** A fund NAV, six decimals as the funds state it. */
export function nav(navMicros: number | null | undefined): string {
  return navMicros === null || navMicros === undefined ? '-' : formatNav(navMicros);
}

export function pct(fraction: number): string {
  const s = (fraction * 100).toFixed(2);
  return `${fraction > 0 ? '+' : ''}${s}%`;
}

/** A plain aligned table; numeric-looking columns right-aligned. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((r) => r.map(String));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map(
    (_h, i) => cells.length > 0 && cells.every((r) => /^[-+]?[\d,.]+%?$|^-$/.test(r[i] ?? '')),
  );
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [chalk.bold(fmt(headers)), ...cells.map(fmt)].join('\n');
}
