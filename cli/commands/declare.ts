// What every command declaration (cli/commands/*.command.ts) shares: the lazy action, the help's
// examples block, the --ai option. Declarations are loaded on every start, so this file and they import
// commander and small modules only; a command's code is imported when the command runs.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { useHome } from '../hints.js';
import type { GlobalOptions } from '../context.js';
import { AI_PROVIDER_USAGE, parseAiProvider } from '../../daemon/contract/ai-provider.js';
import { parseRateLimit, RATE_LIMIT_USAGE } from '../../daemon/contract/rate-limit.js';

/** A command's action: its own options (an interface per command), the global ones, the arguments. */
export type Action<Options> = (opts: Options, global: GlobalOptions, args: string[]) => Promise<void>;

/** The help's closing "Examples:" block (every command has one; a test walks the tree). */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
}

/** Wraps a lazily imported action and merges the global options (cli/main.ts maps failures to exit codes). */
export function lazy<Options>(load: () => Promise<Action<Options>>) {
  return async (...received: unknown[]) => {
    const cmd = received[received.length - 1] as Command;
    // What commander parsed for the options the command declares, as its interface names them.
    const opts = received[received.length - 2] as Options;
    const args = received.slice(0, -2).flat() as string[];
    const global = cmd.optsWithGlobals() as GlobalOptions;
    // Hints name svc commands with the --home in use (cli/hints.ts).
    useHome(global.home);
    const action = await load();
    await action(opts, global, args);
  };
}

/** --ai <provider>: none, registry or openai:<base_url>; anything else is a usage error (exit 2). */
export function aiOption(description: string): Option {
  return new Option('--ai <provider>', `${description}: ${AI_PROVIDER_USAGE}`).argParser((v: string) => {
    if (parseAiProvider(v) === null) throw new InvalidArgumentError(`must be ${AI_PROVIDER_USAGE}`);
    return v;
  });
}

/** --rate-limit <n/window>: "200/min" (docs/faults.md); reset also takes off. */
export function rateLimitOption(description: string): Option {
  return new Option('--rate-limit <n/window>', `${description}: ${RATE_LIMIT_USAGE}`).argParser((v: string) => {
    if (v !== 'off' && parseRateLimit(v) === null) throw new InvalidArgumentError(`must be ${RATE_LIMIT_USAGE}`);
    return v;
  });
}
