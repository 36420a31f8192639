// Progress for long operations, always on stderr (stdout stays for results and --json). On a terminal a
// spinner with the elapsed time redraws one line and erases it when done; without one, a line is
// written only if the work is still going after `quietMs`, and again every `everyMs`, so quick runs and
// logs stay clean.
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface ProgressOptions {
  stream?: NodeJS.WriteStream;
  /** Redraw period of the spinner. */
  frameMs?: number;
  /** Without a terminal: the first line after this long, then one every `everyMs`. */
  quietMs?: number;
  everyMs?: number;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

export async function withProgress<T>(label: string, work: () => Promise<T>, opts: ProgressOptions = {}): Promise<T> {
  const stream = opts.stream ?? process.stderr;
  const started = Date.now();
  let timer: NodeJS.Timeout;
  if (stream.isTTY) {
    let frame = 0;
    const draw = () =>
      stream.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label} ${seconds(Date.now() - started)}\x1b[K`);
    draw();
    timer = setInterval(draw, opts.frameMs ?? 80);
  } else {
    const every = opts.everyMs ?? 10_000;
    const tick = () => {
      stream.write(`${label} (${seconds(Date.now() - started)} so far)\n`);
      timer = setTimeout(tick, every);
    };
    timer = setTimeout(tick, opts.quietMs ?? 2_000);
  }
  try {
    return await work();
  } finally {
    clearInterval(timer);
    clearTimeout(timer);
    if (stream.isTTY) stream.write('\r\x1b[K');
  }
}
