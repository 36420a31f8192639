// `svc market` (cli/commands/market.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const market = program
    .command('market')
    .description('market data: quotes, a live quote strip and the trading calendar')
    .addHelpText(
      'after',
      examples(
        'svc market quotes COMI TMGH',
        'svc market watch COMI TMGH',
        'svc market calendar --start 2026-12-01 --end 2026-12-31',
      ),
    );
  market
    .command('quotes [symbols...]')
    .description('live quotes (all equities when no symbol is given)')
    .addHelpText('after', examples('svc market quotes', 'svc market quotes COMI FWRY --json'))
    .action(lazy(async () => (await import('./market.js')).quotes));
  market
    .command('calendar')
    .description('trading days with their T+2 settlement dates')
    .option('--start <date>', 'YYYY-MM-DD')
    .option('--end <date>', 'YYYY-MM-DD')
    .addHelpText(
      'after',
      examples('svc market calendar --start 2026-12-01 --end 2026-12-31', 'svc market calendar --json'),
    )
    .action(lazy(async () => (await import('./market.js')).calendar));
  market
    .command('watch <symbols...>')
    .description(
      'a live quote strip: redrawn on a terminal, one line per refresh otherwise (--json: one JSON object per line)',
    )
    .option('--interval <s>', 'seconds between refreshes', '1')
    .option('--count <n>', 'stop after N refreshes (for scripts)')
    .addHelpText(
      'after',
      `\nOn a frozen clock prices move only when the clock is advanced (svc clock advance).` +
        examples(
          'svc market watch COMI TMGH FWRY',
          'svc market watch COMI --count 5 --json',
          'svc market watch COMI --interval 5 > quotes.log',
        ),
    )
    .action(lazy(async () => (await import('./market.js')).watch));
}
