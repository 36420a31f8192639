// The request's logger (req.log), made when the request first logs. Fastify gives every request a
// child of the daemon's pino logger bound to its request id; making one (pino's child with its
// bindings serialized) costs every request a few thousand instructions, while only writes, errors and
// slow reads ever log (main.ts). The lines are the same: the child is made with the same bindings and
// options, on first use. docs/bench.md, "The fourth pass".
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type Args = Parameters<FastifyBaseLogger['info']>;

class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): FastifyBaseLogger['level'] {
    return this.made ? this.made.level : this.parent.level;
  }

  set level(level: FastifyBaseLogger['level']) {
    this.real.level = level;
  }

  fatal(...args: Args): void {
    this.real.fatal(...args);
  }

  error(...args: Args): void {
    this.real.error(...args);
  }

  warn(...args: Args): void {
    this.real.warn(...args);
  }

  info(...args: Args): void {
    this.real.info(...args);
  }

  debug(...args: Args): void {
    this.real.debug(...args);
  }

  trace(...args: Args): void {
    this.real.trace(...args);
  }

  silent(...args: Args): void {
    this.real.silent(...args);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: the child pino would make, made on first use. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
