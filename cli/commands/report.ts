// svc report create|status|download: client statements as PDFs (docs/reports.md).
//
// create: the investor is --investor or $SVC_INVESTOR_ID; the period defaults to the first of the
// month up to today, both on the sandbox clock (GET /v1/clock, never the machine's); locale and
// sections go to the daemon as typed, so its refusals (UNSUPPORTED_LOCALE, INVALID_PERIOD, ...) are
// printed as every command prints them. --wait: a statement is ready two simulated minutes after it is
// asked for. On a running clock the command polls GET /v1/reports/{id} until ready or failed, at most
// --timeout seconds; on a frozen clock nothing moves by itself, so it returns at once and says to run
// `svc clock advance --minutes 2` (as svc transfer and svc order do). Exit 1 when it failed or timed out.
//
// download: writes the PDF (0600) under the daemon's file name or -o FILE, never over an existing
// file without --force, and checks its sha256 against the report's.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { CliExit, EXIT, apiError, chalk, info, ok, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import type { Clock, SandboxState } from '../../daemon/contract/schemas/sandbox.js';
import type { ReportCreated, ReportSchema } from '../../daemon/contract/schemas/reports.js';

/** GET /v1/reports/{id}, as /openapi.json names it (Report). */
export type Report = z.infer<typeof ReportSchema>;
type Created = z.infer<typeof ReportCreated>;

export interface CreateOptions {
  investor?: string;
  from?: string;
  to?: string;
  sections?: string;
  locale?: string;
  wait?: boolean;
  timeout?: string;
  idempotencyKey?: string;
}

export interface DownloadOptions {
  output?: string;
  force?: boolean;
  open?: boolean;
}

const POLL_MS = 500;
const FINAL = new Set(['ready', 'failed']);
const LOCALES: Record<string, string> = { en: 'English', ar: 'Arabic' };

/** A size as people read it: "48.3 KiB (49,441 bytes)". */
export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB (${bytes.toLocaleString('en-US')} bytes)`;
}

function stateText(r: Report): string {
  if (r.state === 'ready') return chalk.green(r.state);
  if (r.state === 'failed') return chalk.red(`${r.state} (${r.reason_code ?? 'no reason'})`);
  return chalk.yellow(r.state);
}

/** A line: id, state, period, locale and, once ready, the size (and the sha256 on a second line). */
export function reportLine(r: Report): string {
  const done = r.state === 'ready' && r.bytes !== null ? `  ${kib(r.bytes)}\n  sha256 ${r.sha256}` : '';
  return `${r.report_id}  ${stateText(r)}  ${r.period_start} to ${r.period_end}  ${r.locale}${done}\n`;
}

/** Every field, one a line; `now` (the sandbox clock) tells whether the retention has passed. */
export function renderReport(r: Report, now?: string): string {
  const purged = now !== undefined && Date.parse(now) >= Date.parse(r.expires_at);
  const rows: Array<[string, string]> = [
    ['report', r.report_id],
    ['investor', r.investor_id],
    ['type', r.type.replace(/_/g, ' ')],
    ['period', `${r.period_start} to ${r.period_end} (inclusive, Cairo)`],
    ['sections', `${r.sections.join(', ')}, then the disclosures`],
    ['locale', `${r.locale} (${LOCALES[r.locale] ?? r.locale})`],
    ['state', stateText(r)],
    ['created', r.created_at],
    ['ready', r.ready_at ?? '-'],
    ['expires', purged ? `${r.expires_at} (passed: the PDF is purged)` : `${r.expires_at} (then the PDF is purged)`],
    ['size', r.bytes === null ? '-' : kib(r.bytes)],
    ['sha256', r.sha256 ?? '-'],
  ];
  if (r.reason_code !== null) rows.push(['reason', r.reason_code]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return `${rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n`;
}

/** What to do next, on stderr. */
function nextStep(r: Report, purged = false): void {
  if (purged)
    info(
      `The retention has passed; a new statement of the period: ` +
        svc(
          `report create --investor ${r.investor_id} --from ${r.period_start} --to ${r.period_end} ` +
            `--locale ${r.locale}`,
        ),
    );
  else if (r.state === 'ready') info(chalk.dim(`Next: ${svc(`report download ${r.report_id}`)}`));
  else if (r.state === 'failed')
    info(`${r.report_id} failed (${r.reason_code}): ask for it again with ${svc('report create')}`);
  else
    info(
      chalk.dim(
        `Ready two simulated minutes after it was asked for; ask again: ${svc(`report status ${r.report_id}`)}`,
      ),
    );
}

/** After --wait on a frozen clock: the statement moves only when the clock does. */
function frozenHint(r: Report): void {
  info(`The sandbox clock is frozen: a statement is ready two simulated minutes after it is asked for.`);
  info(`  Move the clock: ${svc('clock advance --minutes 2')}`);
  info(`  then: ${svc(`report status ${r.report_id}`)}`);
}

function getReport(profile: Profile, id: string, json: boolean): Promise<Report> {
  return api<Report>(profile, 'GET', `/v1/reports/${encodeURIComponent(id)}`).then((res) => ok(res, json));
}

/** The sandbox clock mode, or null when this profile has no admin key to ask with. */
async function clockMode(profile: Profile): Promise<'frozen' | 'running' | null> {
  if (!profile.admin_key) return null;
  const res = await api<SandboxState>(profile, 'GET', '/admin/sandbox/state');
  return res.status === 200 ? res.body.clock.mode : null;
}

/** The period: --from and --to, else the first of --to's month and today, on the sandbox clock. */
async function periodOf(profile: Profile, opts: CreateOptions, json: boolean): Promise<{ from: string; to: string }> {
  let to = opts.to;
  if (to === undefined) {
    // The clock's timestamps carry the Cairo offset: their first ten characters are Cairo's date.
    to = ok(await api<Clock>(profile, 'GET', '/v1/clock'), json).timestamp.slice(0, 10);
  }
  const from = opts.from ?? (/^\d{4}-\d{2}-/.test(to) ? `${to.slice(0, 8)}01` : to);
  return { from, to };
}

function sectionsOf(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (list.length === 0)
    usage('--sections: give one or more of summary, performance, holdings, trades, comma-separated');
  return list;
}

/** Follows the report to ready or failed; on a frozen clock says how to move it and answers null. */
async function waitFor(profile: Profile, first: Report, timeoutS: number, json: boolean): Promise<Report | null> {
  let r = first;
  if (FINAL.has(r.state)) return r;
  if ((await clockMode(profile)) === 'frozen') return null;
  const deadline = Date.now() + timeoutS * 1000;
  while (!FINAL.has(r.state)) {
    if (Date.now() >= deadline) {
      if (json) printJson(r);
      else process.stdout.write(reportLine(r));
      info(`${r.report_id} is still ${r.state} after ${timeoutS} s.`);
      throw new CliExit(EXIT.apiError);
    }
    await sleep(POLL_MS);
    const next = await getReport(profile, r.report_id, json);
    if (!json && next.state !== r.state) info(`  ${r.state} -> ${next.state}`);
    r = next;
  }
  return r;
}

export async function create(opts: CreateOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const investorId = (opts.investor ?? process.env.SVC_INVESTOR_ID) || undefined;
  if (investorId === undefined) usage('missing --investor INV (or set SVC_INVESTOR_ID)');
  const timeoutS = Number(opts.timeout ?? '300');
  if (!Number.isInteger(timeoutS) || timeoutS <= 0)
    usage(`--timeout ${opts.timeout} must be a positive whole number of seconds`);
  const sections = sectionsOf(opts.sections);
  const profile = resolveProfile(g);
  const { from, to } = await periodOf(profile, opts, json);
  const body: Record<string, unknown> = {
    investor_id: investorId,
    type: 'client_statement',
    period_start: from,
    period_end: to,
  };
  if (sections !== undefined) body.sections = sections;
  if (opts.locale !== undefined) body.locale = opts.locale;
  const created = ok(
    await api<Created>(profile, 'POST', '/v1/reports', { body, idempotencyKey: opts.idempotencyKey }),
    json,
  );
  let r = await getReport(profile, created.report_id, json);
  const waited = opts.wait ? await waitFor(profile, r, timeoutS, json) : r;
  r = waited ?? r;
  if (json) printJson(r);
  else process.stdout.write(reportLine(r));
  if (waited === null) frozenHint(r);
  else if (!json) nextStep(r);
  if (r.state === 'failed') throw new CliExit(EXIT.apiError);
}

export async function status(_opts: object, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const profile = resolveProfile(g);
  const r = await getReport(profile, args[0], json);
  if (json) {
    printJson(r);
    return;
  }
  const clock = await api<Clock>(profile, 'GET', '/v1/clock');
  const now = clock.status === 200 ? clock.body.timestamp : undefined;
  process.stdout.write(renderReport(r, now));
  nextStep(r, now !== undefined && Date.parse(now) >= Date.parse(r.expires_at));
}

/** The file name of a Content-Disposition header, reduced to a plain name (never a path). */
export function dispositionName(header: unknown): string | undefined {
  const m = /filename="?([^";]+)"?/i.exec(String(header ?? ''));
  const name = m ? basename(m[1].replace(/\\/g, '/')) : '';
  return /^[\w.@+-]+$/.test(name) && !name.startsWith('.') ? name : undefined;
}

/** Where to write: -o FILE (or into -o DIR), else the daemon's name in the working directory. */
function targetOf(opts: DownloadOptions, suggested: string): string {
  if (opts.output === undefined) return resolve(suggested);
  const out = resolve(opts.output);
  return existsSync(out) && statSync(out).isDirectory() ? join(out, suggested) : out;
}

function refuseExisting(file: string, opts: DownloadOptions): void {
  if (!opts.force && existsSync(file))
    usage(`${file} already exists; nothing was written (--force replaces it, -o FILE writes elsewhere)`);
  if (existsSync(file) && statSync(file).isDirectory()) usage(`${file} is a directory`);
}

/** Writes the file readable by its owner only: created exclusively, or (--force) renamed into place. */
function writePrivate(file: string, data: Buffer, force: boolean): void {
  if (!force) {
    writeFileSync(file, data, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return;
  }
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** The program that opens a file with its default application, when this machine has one on PATH. */
function opener(): string | undefined {
  const name = process.platform === 'darwin' ? 'open' : 'xdg-open';
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

function openFile(file: string): boolean {
  const program = opener();
  if (program === undefined) return false;
  const child = spawn(program, [file], { detached: true, stdio: 'ignore' });
  child.on('error', () => undefined);
  child.unref();
  return true;
}

export async function download(opts: DownloadOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const id = args[0];
  if (opts.output !== undefined) refuseExisting(targetOf(opts, `${id}.pdf`), opts);
  const profile = resolveProfile(g);
  const res = await api(profile, 'GET', `/v1/reports/${encodeURIComponent(id)}/download`, {
    headers: { accept: 'application/pdf, application/json' },
  });
  if (res.status !== 200) apiError(res, json);
  const file = targetOf(opts, dispositionName(res.headers['content-disposition']) ?? `${id}.pdf`);
  refuseExisting(file, opts);
  const sha256 = createHash('sha256').update(res.raw).digest('hex');
  const report = await getReport(profile, id, json);
  if (report.sha256 !== null && report.sha256 !== sha256) {
    info(
      `${chalk.red('error')} the PDF received (sha256 ${sha256}) is not the report's (${report.sha256}); ` +
        `nothing was written`,
    );
    throw new CliExit(EXIT.apiError);
  }
  writePrivate(file, res.raw, Boolean(opts.force));
  const opened = opts.open ? openFile(file) : false;
  if (json)
    printJson({
      report_id: id,
      path: file,
      bytes: res.raw.length,
      sha256,
      content_type: String(res.headers['content-type'] ?? ''),
      opened,
    });
  else {
    process.stdout.write(`${file}\n  ${kib(res.raw.length)}\n  sha256 ${sha256} (the report's)\n`);
  }
  if (opts.open)
    info(
      opened
        ? `opening ${file}`
        : `Nothing on this machine opens files (no ${process.platform === 'darwin' ? 'open' : 'xdg-open'} on ` +
            `PATH): the statement is at ${file}`,
    );
}
