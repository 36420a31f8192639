// A real terminal for screen tests: a private tmux server (its own socket), a session of a given size
// running one command, keys sent with send-keys and the screen read with capture-pane.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

let sessions = 0;

export class TmuxSession {
  readonly socket = `svc-test-${process.pid}-${++sessions}`;

  /** Starts `command` (a shell command line) in a detached width x height session. */
  constructor(command: string, opts: { width?: number; height?: number; cwd?: string } = {}) {
    this.tmux(
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(opts.width ?? 160),
      '-y',
      String(opts.height ?? 50),
      ...(opts.cwd ? ['-c', opts.cwd] : []),
      command,
    );
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** send-keys: key names (Enter, Tab, Down, Escape, C-c) or literal text. */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  /** Literal text, never read as key names. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'main');
  }

  alive(): boolean {
    try {
      this.tmux('has-session', '-t', 'main');
      return true;
    } catch {
      return false;
    }
  }

  /** The screen once it matches, else an error showing the last screen. */
  async waitFor(expected: string | RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = this.alive() ? this.screen() : '(the session has ended)';
      if (typeof expected === 'string' ? last.includes(expected) : expected.test(last)) return last;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the terminal never showed ${expected}; last screen:\n${last}`);
  }

  async waitForExit(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.alive()) {
      if (Date.now() > deadline) throw new Error(`the session is still running:\n${this.screen()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
    // tmux leaves the socket file behind
    rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, this.socket), { force: true });
  }
}
