// The render worker's entry (a worker thread, render-queue.ts starts it): renders each posted job in
// order with the thread's one warm Typst compiler (render.ts) and answers its PDF bytes, transferred
// rather than copied. Any error of a job is that job's answer (the report fails RENDER_FAILED); the
// thread lives on for the next one. Built as its own file next to the daemon's bundle
// (dist/daemon/render-worker.js, scripts/build.mjs).
import { parentPort } from 'node:worker_threads';
import { renderStatement, type RenderAnswer, type RenderRequest } from './render.js';

function answer(req: RenderRequest): { msg: RenderAnswer; transfer: ArrayBuffer[] } {
  try {
    const pdf = renderStatement(req.job);
    // a copy into an ArrayBuffer of its own: the compiler's Buffer is native memory, not detachable
    const bytes = pdf.buffer.slice(pdf.byteOffset, pdf.byteOffset + pdf.byteLength) as ArrayBuffer;
    return { msg: { seq: req.seq, ok: true, pdf: bytes }, transfer: [bytes] };
  } catch (err) {
    return {
      msg: { seq: req.seq, ok: false, message: err instanceof Error ? err.message : String(err) },
      transfer: [],
    };
  }
}

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs as a worker thread (render-queue.ts starts it)');
port.on('message', (req: RenderRequest) => {
  const { msg, transfer } = answer(req);
  port.postMessage(msg, transfer);
});
