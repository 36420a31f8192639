// How the daemon's main function runs: at once, when the bundle is loaded as a script (daemon/start.ts); or,
// when the snapshot builder loads it (daemon/process/snapshot-builder.ts), later, once Node has restored the
// snapshot in a new process. The builder leaves a function under DEFER_MAIN_KEY that takes the main function
// instead of running it.

/** Where the snapshot builder leaves the function that takes the daemon's main function. */
export const DEFER_MAIN_KEY = Symbol.for('svc.daemon.deferMain');

type Holder = Record<symbol, ((run: () => void) => void) | undefined>;

/** Runs `run` now, or hands it to the snapshot builder, which runs it when a process starts from the blob. */
export function runOrDefer(run: () => void): void {
  const defer = (globalThis as unknown as Holder)[DEFER_MAIN_KEY];
  if (defer) defer(run);
  else run();
}
