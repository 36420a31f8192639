// `svc desk`, the dealer desk: each capability adds its subgroup or commands to the one `desk` command,
// each declared beside its code (cli/commands/desk-*.command.ts).
import type { Command } from 'commander';
import { examples } from './declare.js';
import { register as kycCommands } from './desk-kyc.command.js';
import { register as fundingCommands } from './desk-funding.command.js';
import { register as orderCommands } from './desk-orders.command.js';
import { register as eodCommand } from './desk-eod.command.js';
import { register as referenceCommand } from './desk-reference.command.js';

export function register(program: Command): void {
  const desk = program
    .command('desk')
    .description('the dealer desk (X-Console-Key): reviews and approvals')
    .addHelpText('after', examples('svc desk kyc list', 'svc desk funding list', 'svc desk queue'));
  for (const capability of [kycCommands, fundingCommands, orderCommands, eodCommand, referenceCommand])
    capability(desk);
}
