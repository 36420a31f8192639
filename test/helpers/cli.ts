// Runs the real `svc` binary non-interactively (no TTY, CI=1, NO_COLOR=1) against a sandbox home.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { nationalId } from './onboarding.js';

export const SVC = resolve('bin/svc');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

export function runSvc(
  args: string[],
  opts: { home?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
  const fullArgs = opts.home ? ['--home', opts.home, ...args] : args;
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      [SVC, ...fullArgs],
      {
        env: { ...process.env, NO_COLOR: '1', CI: '1', ...opts.env },
        timeout: opts.timeoutMs ?? 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as any).code === 'number' ? (err as any).code : 1) : 0;
        let json: any;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolvePromise({ code, stdout, stderr, json });
      },
    );
  });
}

export interface CliSandbox {
  home: string;
  info: any;
  svc(args: string[], env?: Record<string, string>): Promise<CliResult>;
  stop(): Promise<void>;
}

/** Starts a real daemon in a fresh home on a free port through `svc sandbox start --json`. */
export async function startSandbox(extra: string[] = []): Promise<CliSandbox> {
  const home = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  const started = await runSvc(['sandbox', 'start', '--port', '0', '--json', ...extra], { home });
  if (started.code !== 0) throw new Error(`sandbox start failed (${started.code}): ${started.stderr}`);
  return {
    home,
    info: started.json,
    svc: (args, env) => runSvc(args, { home, env }),
    async stop() {
      await runSvc(['sandbox', 'stop'], { home });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface CliOnboarding {
  fullName: string;
  /** Upload the bundled sample ID images (default) or take the dossier-only path. */
  documents?: boolean;
  /** Record a balanced questionnaire with the risk acknowledgment. */
  suitability?: boolean;
  /** Deposit this many EGP and advance the clock until it completes. */
  depositEgp?: string;
}

/** Onboards an approved investor through the real `svc` binary, as a script would (no TTY). */
export async function onboardViaCli(sbx: CliSandbox, o: CliOnboarding): Promise<string> {
  const { nationalId: id, dateOfBirth } = nationalId();
  const email = `${o.fullName.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;
  const must = (r: CliResult, what: string) => {
    if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${r.stderr}`);
    return r;
  };
  const kyc = must(
    await sbx.svc([
      'kyc',
      'apply',
      '--full-name',
      o.fullName,
      '--national-id',
      id,
      '--dob',
      dateOfBirth,
      '--email',
      email,
      '--phone',
      '01012345678',
      '--address',
      '12 Tahrir Street, Cairo',
      o.documents === false ? '--no-documents' : '--sample-documents',
      '--json',
    ]),
    'svc kyc apply',
  );
  const inv: string = kyc.json.investor_id;
  if (o.suitability) {
    must(
      await sbx.svc([
        'investor',
        'suitability',
        inv,
        '--experience',
        'moderate',
        '--horizon',
        '3_5y',
        '--risk',
        'medium',
        '--income',
        '300k_1m',
        '--net-worth',
        '1m_5m',
        '--objectives',
        'growth',
        '--ack-risk',
        '--json',
      ]),
      'svc investor suitability',
    );
  }
  if (o.depositEgp) {
    must(await sbx.svc(['transfer', 'deposit', o.depositEgp, '--investor', inv, '--json']), 'svc transfer deposit');
    must(await sbx.svc(['clock', 'advance', '--minutes', '3', '--json']), 'svc clock advance');
  }
  return inv;
}
