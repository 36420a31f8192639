// A warm start (docs/architecture.md, "A start spawns the daemon first"): `svc sandbox start` spawns the daemon
// before it has read its own command line, with only WARM_FD_FLAG; the daemon restores its heap meanwhile and
// waits on that descriptor for its orders, one JSON line. The CLI sends them once it has decided to start a
// daemon, or closes the descriptor without a word when it has not (the home already runs one, a wrong flag,
// --help), and the daemon exits having touched nothing.

/** The daemon's only flag when it is spawned warm: the descriptor its orders arrive on (and its ready line leaves). */
export const WARM_FD_FLAG = '--warm-fd';

/** What the CLI sends a warm daemon: the flags a cold spawn would have had, and the file for its stdout and stderr. */
export interface WarmOrders {
  argv: string[];
  out: string;
}

/** A warm daemon could not put its stdout and stderr on `out`: the CLI starts one the cold way instead. */
export const EXIT_WARM_FAILED = 15;
