import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SVC, startSandbox } from '../helpers/cli.js';

function waitFor(read: () => string, pattern: RegExp, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (pattern.test(read())) return resolve();
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${pattern}; saw:\n${read()}`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

describe('svc sandbox start --foreground stays attached; Ctrl-C stops the daemon', () => {
  it('prints the banner, serves requests, and SIGINT closes the daemon and removes its locator', async () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-fg-'));
    const child = spawn(
      process.execPath,
      [SVC, '--home', home, 'sandbox', 'start', '--foreground', '--port', '0', '--clock', 'frozen'],
      {
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      await waitFor(() => out, /Ctrl-C stops the daemon/);
      const base = /base_url\s+(\S+)/.exec(out)![1];
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGINT');
      await exited;
      expect(existsSync(join(home, 'daemon.json'))).toBe(false);
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('svc sandbox logs -f keeps printing new lines', () => {
  it('a request made after it starts shows up (an error: quick successful reads log at debug only)', async () => {
    const sb = await startSandbox();
    const child = spawn(process.execPath, [SVC, '--home', sb.home, 'sandbox', 'logs', '-f', '-n', '0'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    try {
      // `logs -f` needs a moment to start watching (longer under load): keep making requests until one
      // shows up, rather than guessing how long that moment is.
      const poke = setInterval(
        () =>
          void fetch(`${sb.info.base_url}/v1/calendar?start=2026-02-30`, {
            headers: { authorization: `Bearer ${sb.info.api_key}` },
          }),
        200,
      );
      try {
        await waitFor(() => out, /GET \/v1\/calendar 422/);
      } finally {
        clearInterval(poke);
      }
    } finally {
      child.kill('SIGKILL');
      await sb.stop();
    }
  });
});
