// `svc branding` (cli/commands/branding.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const branding = program
    .command('branding')
    .description("the tenant's branding for its reports: display name, colours, font, footer and logo")
    .addHelpText(
      'after',
      examples(
        'svc branding show',
        'svc branding set --primary-color "#0A7E8C" --font "Noto Serif"',
        'svc branding logo ./logo.png',
      ),
    );
  branding
    .command('show')
    .description('every branding field (the defaults until one is set)')
    .addHelpText('after', examples('svc branding show', 'svc branding show --json'))
    .action(lazy(async () => (await import('./branding.js')).show));
  branding
    .command('set')
    .description(
      'change the fields given (the others stay): colours #rrggbb, a font of the embedded set (Noto Sans, Noto ' +
        'Serif, Amiri)',
    )
    .option('--display-name <name>', 'the name reports show, 1-80 characters')
    .option('--primary-color <#rrggbb>', 'headings and rules')
    .option('--accent-color <#rrggbb>', 'highlights')
    .option('--font <name>', 'Noto Sans, Noto Serif or Amiri')
    .option('--footer-text <text>', 'printed at the foot of every report page, 0-300 characters ("" for none)')
    .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
    .addHelpText(
      'after',
      examples(
        'svc branding set --display-name "Nile Wealth" --primary-color "#0A7E8C"',
        'svc branding set --font Amiri --footer-text "Licensed by the FRA" --json',
      ),
    )
    .action(lazy(async () => (await import('./branding.js')).set));
  branding
    .command('logo <file>')
    .description('upload the logo: a PNG or JPEG file (judged by its bytes; SVG is refused), at most 512 KiB')
    .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
    .addHelpText('after', examples('svc branding logo ./logo.png', 'svc branding logo ./logo.jpg --json'))
    .action(lazy(async () => (await import('./branding.js')).logo));
}
