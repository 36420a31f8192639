// `alive(pid)` decides whether `svc sandbox stop` still waits, whether a locator is stale and who holds a port.
// A process that exited but was not reaped yet (a zombie) still answers kill(pid, 0); it is not running.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { alive } from '../../cli/daemon-process.js';

describe('alive', () => {
  it('a running process is alive; one that exited and was reaped is not', async () => {
    const child = spawn('sleep', ['30']);
    expect(alive(child.pid!)).toBe(true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(alive(child.pid!)).toBe(false);
  });

  it('a process that exited but whose parent has not reaped it (a zombie) is not alive, though kill(pid, 0) succeeds', async () => {
    // the shell starts a short sleep in the background and becomes a long one, which never waits for it: the
    // short one ends after the exec (the shell would have reaped it before), and stays a zombie
    const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const [line] = (await once(parent.stdout!, 'data')) as [Buffer];
    const pid = Number(line.toString().trim());
    try {
      let state = '';
      for (let i = 0; i < 300 && state !== 'Z'; i++) {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        state = stat.charAt(stat.lastIndexOf(')') + 2);
        if (state !== 'Z') await new Promise((r) => setTimeout(r, 10));
      }
      expect(state).toBe('Z');
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(alive(pid)).toBe(false);
      expect(alive(parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
