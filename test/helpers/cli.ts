// Runs the real `svc` binary non-interactively (no TTY, CI=1, NO_COLOR=1) against a sandbox home.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const SVC = resolve('bin/svc');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

export function runSvc(args: string[], opts: { home?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliResult> {
  const fullArgs = opts.home ? ['--home', opts.home, ...args] : args;
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      [SVC, ...fullArgs],
      { env: { ...process.env, NO_COLOR: '1', CI: '1', ...opts.env }, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 16 * 1024 * 1024 },
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
