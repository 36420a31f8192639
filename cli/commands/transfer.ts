// svc transfer deposit|withdraw|list. Amounts are typed in EGP and sent as exact integer micros. The
// investor is --investor or $SVC_INVESTOR_ID.
//
// --wait: a transfer moves one rail step per simulated minute. On a running clock the command polls
// GET /v1/transfers/{id} until completed or failed (the daemon runs due steps as it answers), at most
// --timeout seconds. On a frozen clock nothing moves by itself, so it returns at once with the
// transfer and tells the user to run `svc clock advance --minutes 3`. A transfer waiting for a dealer
// (manual funding approval) is reported as such. Exit 1 when the transfer failed or the wait timed out.
import { setTimeout as sleep } from 'node:timers/promises';
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { CliExit, EXIT, chalk, egp, info, ok, printJson, table, usage } from '../output.js';
import { parseEgp } from '../money.js';
import { svc } from '../hints.js';
import { TRANSFER_FINAL_STATES, TRANSFER_STATES } from '../../daemon/contract/funding.js';
import type { SandboxState } from '../../daemon/contract/schemas/sandbox.js';
import type { Transfer, TransferList } from '../../daemon/contract/schemas/funding.js';

const POLL_MS = 1000;

export interface CreateOptions {
  investor?: string;
  wait?: boolean;
  timeout?: string;
  idempotencyKey?: string;
}

export interface ListOptions {
  investor?: string;
  state?: string;
  limit?: string;
}

function investorOf(opts: { investor?: string }): string {
  const id = opts.investor ?? process.env.SVC_INVESTOR_ID;
  if (!id) usage('missing --investor INV (or set SVC_INVESTOR_ID)');
  return id;
}

function isFinal(t: Transfer): boolean {
  return (TRANSFER_FINAL_STATES as readonly string[]).includes(t.state);
}

function stateText(t: Transfer): string {
  if (t.state === 'completed') return chalk.green(t.state);
  if (t.state === 'failed') return chalk.red(`${t.state} (${t.reason_code})`);
  return t.approval === 'pending' ? chalk.yellow(`${t.state}, awaiting dealer approval`) : t.state;
}

function render(t: Transfer): string {
  const rail = t.rail_ref ? `  rail ${t.rail_ref}` : '';
  return (
    `${t.transfer_id}  ${t.direction} ${egp(t.amount_micros)} EGP  ${stateText(t)}${rail}  ` +
    `${chalk.dim(t.updated_at)}\n`
  );
}

function print(t: Transfer, json: boolean): void {
  if (json) printJson(t);
  else process.stdout.write(render(t));
}

/** The sandbox clock mode, or null when this profile has no admin key to ask with. */
async function clockMode(profile: Profile): Promise<'frozen' | 'running' | null> {
  if (!profile.admin_key) return null;
  const res = await api<SandboxState>(profile, 'GET', '/admin/sandbox/state');
  return res.status === 200 ? res.body.clock.mode : null;
}

async function waitFor(profile: Profile, first: Transfer, timeoutS: number, json: boolean): Promise<Transfer> {
  let t = first;
  if (t.approval === 'pending')
    info(`${t.transfer_id} waits for a dealer: ${svc(`desk funding approve ${t.transfer_id}`)}`);
  if ((await clockMode(profile)) === 'frozen') {
    info(
      `The sandbox clock is frozen: the transfer moves one step per simulated minute. Run: ` +
        `${svc('clock advance --minutes 3')}`,
    );
    return t;
  }
  const deadline = Date.now() + timeoutS * 1000;
  while (!isFinal(t)) {
    if (Date.now() >= deadline) {
      print(t, json);
      info(`${t.transfer_id} is still ${t.state} after ${timeoutS} s.`);
      throw new CliExit(EXIT.apiError);
    }
    await sleep(POLL_MS);
    const next = ok(await api<Transfer>(profile, 'GET', `/v1/transfers/${encodeURIComponent(t.transfer_id)}`), json);
    if (!json && next.state !== t.state)
      info(`  ${t.state} -> ${next.state}${next.rail_ref ? ` (rail ${next.rail_ref})` : ''}`);
    t = next;
  }
  return t;
}

async function create(
  direction: 'deposit' | 'withdrawal',
  opts: CreateOptions,
  g: GlobalOptions,
  amountArg: string,
): Promise<void> {
  const json = Boolean(g.json);
  const investorId = investorOf(opts);
  let amountMicros: number;
  try {
    amountMicros = parseEgp(amountArg);
  } catch (err) {
    usage(`AMOUNT_EGP: ${(err as Error).message}`);
  }
  if (amountMicros === 0) usage('AMOUNT_EGP must be greater than 0');
  const timeoutS = Number(opts.timeout);
  if (!Number.isInteger(timeoutS) || timeoutS <= 0)
    usage(`--timeout ${opts.timeout} must be a positive whole number of seconds`);
  const profile = resolveProfile(g);
  const body = { investor_id: investorId, direction, amount_micros: amountMicros };
  let t = ok(
    await api<Transfer>(profile, 'POST', '/v1/transfers', { body, idempotencyKey: opts.idempotencyKey }),
    json,
  );
  if (opts.wait) t = await waitFor(profile, t, timeoutS, json);
  print(t, json);
  if (t.state === 'failed') {
    info(`${t.transfer_id} failed: ${t.reason_code}`);
    throw new CliExit(EXIT.apiError);
  }
}

export async function deposit(opts: CreateOptions, g: GlobalOptions, args: string[]): Promise<void> {
  await create('deposit', opts, g, args[0]);
}

export async function withdraw(opts: CreateOptions, g: GlobalOptions, args: string[]): Promise<void> {
  await create('withdrawal', opts, g, args[0]);
}

export async function list(opts: ListOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const params = new URLSearchParams();
  const investorId = opts.investor ?? process.env.SVC_INVESTOR_ID;
  if (investorId) params.set('investor_id', investorId);
  if (opts.state !== undefined) {
    if (!(TRANSFER_STATES as readonly string[]).includes(opts.state))
      usage(`--state must be one of ${TRANSFER_STATES.join(', ')}`);
    params.set('state', opts.state);
  }
  if (opts.limit !== undefined) params.set('limit', String(opts.limit));
  const qs = params.size ? `?${params}` : '';
  const res = ok(await api<TransferList>(resolveProfile(g), 'GET', `/v1/transfers${qs}`), json);
  if (json) {
    printJson(res);
    return;
  }
  if (res.transfers.length === 0) {
    process.stdout.write('No transfers.\n');
    return;
  }
  process.stdout.write(
    `${table(
      ['transfer', 'investor', 'direction', 'EGP', 'state', 'approval', 'rail_ref', 'reason', 'created'],
      res.transfers.map((t) => [
        t.transfer_id,
        t.investor_id,
        t.direction,
        egp(t.amount_micros),
        t.state,
        t.approval,
        t.rail_ref ?? '-',
        t.reason_code ?? '-',
        t.created_at,
      ]),
    )}\n`,
  );
}
