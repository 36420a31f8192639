// The render queue: one long-lived worker thread (render-worker.ts) that renders statements in the
// order they were asked, off the daemon's event loop. The worker keeps one warm Typst compiler, which
// is why it is started once (on the first render) and kept; it holds the process open only while it
// has work. If it dies (a crash, an exit, terminate), every render it had not answered fails with
// RenderFailed, and the next render starts a new worker: the daemon itself never goes down with it.
//
// Where the worker's code is: next to the daemon's bundle in production (dist/daemon/render-worker.js,
// built by scripts/build.mjs), or the TypeScript source when the daemon runs from sources (tests, tsx),
// loaded through tsx's API since a worker thread does not inherit the parent's loader.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { RenderAnswer, RenderJob, RenderRequest } from './render.js';

/** A render that gave no PDF: Typst refused the document, or the worker stopped before answering. */
export class RenderFailed extends Error {}

export interface RenderQueue {
  /** The PDF of one statement, rendered after every job asked before it. */
  render(job: RenderJob): Promise<Buffer>;
  /** Renders asked and not answered yet. */
  inFlight(): number;
  /** Ends the current worker as a crash would (its unanswered renders fail); the next render starts a new one. */
  restart(): Promise<void>;
  /** Ends the worker for good (the app is closing): unanswered renders fail, later ones are refused. */
  close(): Promise<void>;
}

function spawnWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./render-worker.js', here));
  // From sources: the worker imports its TypeScript entry through tsx's ESM API (the module file, not
  // the CommonJS one, which resolves its loader relative to itself and fails in an eval'd script).
  const api = pathToFileURL(createRequire(here).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const entry = new URL('./render-worker.ts', here).href;
  const src =
    `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}))` +
    '.catch((err) => setImmediate(() => { throw err; }));';
  return new Worker(src, { eval: true });
}

interface Waiter {
  resolve(pdf: Buffer): void;
  reject(err: RenderFailed): void;
}

export function createRenderQueue(): RenderQueue {
  let worker: Worker | null = null;
  let seq = 0;
  let closed = false;
  const waiting = new Map<number, Waiter>();

  function failAll(reason: string): void {
    const all = [...waiting.values()];
    waiting.clear();
    for (const w of all) w.reject(new RenderFailed(reason));
  }

  function start(): Worker {
    const w = spawnWorker();
    let crash = '';
    w.on('message', (a: RenderAnswer) => {
      const waiter = waiting.get(a.seq);
      if (!waiter) return;
      waiting.delete(a.seq);
      if (waiting.size === 0) w.unref();
      if (a.ok) waiter.resolve(Buffer.from(a.pdf));
      else waiter.reject(new RenderFailed(a.message));
    });
    // Without this listener a worker's uncaught error would be thrown on the daemon's thread.
    w.on('error', (err) => void (crash = `: ${err.message}`));
    w.on('exit', (code) => {
      if (worker !== w) return;
      worker = null;
      failAll(`the render worker stopped (exit code ${code})${crash}`);
    });
    return w;
  }

  async function stop(reason: string): Promise<void> {
    const w = worker;
    worker = null;
    failAll(reason);
    if (w) await w.terminate();
  }

  return {
    render(job) {
      if (closed) return Promise.reject(new RenderFailed('the daemon is closing'));
      worker ??= start();
      worker.ref();
      const n = ++seq;
      const answer = new Promise<Buffer>((resolve, reject) => waiting.set(n, { resolve, reject }));
      const req: RenderRequest = { seq: n, job };
      worker.postMessage(req);
      return answer;
    },
    inFlight: () => waiting.size,
    restart: () => stop('the render worker was restarted'),
    close() {
      closed = true;
      return stop('the daemon is closing');
    },
  };
}
