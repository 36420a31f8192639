// `svc ai`: the information-only assistant (cli/commands/ai.ts).
import { type Command, Option } from 'commander';
import { examples, lazy } from './declare.js';

const langOption = () => new Option('--lang <lang>', 'language of the answer').choices(['ar', 'en']).default('en');

export function register(program: Command): void {
  const ai = program
    .command('ai')
    .description(
      'the information-only assistant: explains orders, terms and error codes from the registries; never advice',
    )
    .addHelpText(
      'after',
      examples(
        'svc ai explain ord_0123456789',
        'svc ai glossary t-plus-2 --lang ar',
        'svc ai error INSUFFICIENT_SETTLED_CASH',
        'svc ai disclosure --json',
      ),
    );
  ai.command('explain <order_id>')
    .description(
      "why an order is where it is: a rejection's cause and remedy, or the order's facts (needs --ai registry " +
        'or openai: for orders that were not rejected)',
    )
    .addOption(langOption())
    .addHelpText('after', examples('svc ai explain ord_0123456789', 'svc ai explain ord_0123456789 --lang ar --json'))
    .action(lazy(async () => (await import('./ai.js')).explain));
  ai.command('glossary [term]')
    .description('the glossary of this market: every term, or one article by its exact slug')
    .addOption(langOption())
    .addHelpText(
      'after',
      examples('svc ai glossary', 'svc ai glossary t-plus-2', 'svc ai glossary stamp-duty --lang ar'),
    )
    .action(lazy(async () => (await import('./ai.js')).glossary));
  ai.command('disclosure')
    .description('the canonical disclosures: the assistant is not advice, and the risk of investing')
    .addOption(langOption())
    .addHelpText('after', examples('svc ai disclosure', 'svc ai disclosure --lang ar'))
    .action(lazy(async () => (await import('./ai.js')).disclosure));
  ai.command('error <code>')
    .description('cause and remedy of an API error code or an order reject code')
    .addOption(langOption())
    .addHelpText('after', examples('svc ai error TICK_VIOLATION', 'svc ai error INSUFFICIENT_SETTLED_CASH --lang ar'))
    .action(lazy(async () => (await import('./ai.js')).error));
}
