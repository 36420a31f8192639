// undici, the CLI's HTTP client, loaded on first use rather than with the CLI: it is the largest thing
// the CLI loads (about 100 ms), and `svc sandbox start` loads it while the daemon starts on another core
// instead of before spawning it (docs/bench.md, "Start-up").
let loading: Promise<typeof import('undici')> | undefined;

export function loadUndici(): Promise<typeof import('undici')> {
  loading ??= import('undici');
  return loading;
}
