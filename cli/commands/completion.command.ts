// `svc completion`: a shell completion script derived from the whole command tree (cli/commands/completion.ts).
import { Argument, type Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  program
    .command('completion')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .description('print a shell completion script (bash, zsh or fish) for the commands, subcommands and options')
    .addHelpText(
      'after',
      examples(
        'source <(svc completion bash)        # add to ~/.bashrc',
        'source <(svc completion zsh)         # add to ~/.zshrc, after compinit',
        'svc completion fish > ~/.config/fish/completions/svc.fish',
      ),
    )
    .action(lazy(async () => (await import('./completion.js')).completion(program)));
}
