// The CLI's two ways to send a request. A command that sends a few requests and exits uses Node's own fetch
// (the default): it is built into node and loads in about a fifth of the time the npm undici package takes
// (about 100 ms of CPU, most of a short command's own), at about 0.2 ms more per request. A process that
// sends thousands (the scenario runner, the live screens) asks for undici's `request` instead
// (`preferUndici`), loaded on its first use (docs/bench.md, "Start-up").
let loading: Promise<typeof import('undici')> | undefined;
let preferred = false;

export function loadUndici(): Promise<typeof import('undici')> {
  loading ??= import('undici');
  return loading;
}

/** From now on, this process's requests go through undici's `request` (cli/client/http.ts). */
export function preferUndici(): void {
  preferred = true;
}

export function prefersUndici(): boolean {
  return preferred;
}
