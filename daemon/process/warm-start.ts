// The daemon's side of a warm start (daemon/contract/warm-start.ts): wait for the orders, then take the output
// file a cold spawn would have been given as stdout and stderr.
import { closeSync, openSync, readSync } from 'node:fs';
import type { WarmOrders } from '../contract/warm-start.js';

/** The orders, read blocking (the process has nothing else to do); null when the CLI closed without sending any. */
export function awaitOrders(fd: number): WarmOrders | null {
  const buf = Buffer.alloc(16 * 1024);
  let text = '';
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch {
      return null;
    }
    if (n === 0) return null;
    text += buf.toString('utf8', 0, n);
    const end = text.indexOf('\n');
    if (end < 0) continue;
    try {
      const orders = JSON.parse(text.slice(0, end)) as WarmOrders;
      return Array.isArray(orders.argv) && typeof orders.out === 'string' ? orders : null;
    } catch {
      return null;
    }
  }
}

/**
 * Makes descriptors 1 and 2 the file `out` (appending), as a cold spawn's stdio are: a crash's trace lands there.
 * Node has no dup2, but open returns the lowest free descriptor, so closing 1 and opening makes the new file 1.
 * False when `out` cannot be opened, or if the numbers came out otherwise (nothing else opens files at this point,
 * so only in theory).
 */
export function redirectOutput(out: string): boolean {
  try {
    closeSync(1);
    const stdout = openSync(out, 'a');
    closeSync(2);
    const stderr = openSync(out, 'a');
    return stdout === 1 && stderr === 2;
  } catch {
    return false;
  }
}
