// `svc scenario` (cli/commands/scenario.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const scenario = program
    .command('scenario')
    .description('scripted walkthroughs (YAML): requests, clock advances, controls, assertions')
    .addHelpText('after', examples('svc scenario run scenarios/*.yaml', 'svc scenario run my-flow.yaml --json'));
  scenario
    .command('run <files...>')
    .description(
      'run scenario files, each against an isolated sandbox of its own (seed, start and clock from the file); ' +
        'exits non-zero if a step fails',
    )
    .option('--keep-going', 'run the remaining steps after a failed one (default: a failed step skips the rest)')
    .option('--junit <file>', 'also write a JUnit XML report (a testsuite per file, a testcase per step)')
    .option(
      '--against <url>',
      'run against this already running sandbox (credentials from the profile) instead of an isolated one',
    )
    .option('--reset', "with --against: reset that sandbox to the file's seed, start and clock first")
    .option(
      '--timings',
      'include durations in the --json and --junit reports (left out by default so reports compare byte for byte)',
    )
    .option(
      '--jobs <n>',
      'run N files at once, each with its own sandbox; the reports are the same as one at a time ' +
        '(default: the number of cores; 1 with --against)',
    )
    .option(
      '--env <name=value>',
      "set ${env.NAME} (overrides the file's env); repeatable",
      (v: string, acc?: string[]) => [...(acc ?? []), v],
    )
    .addHelpText(
      'after',
      `
A FILE may be a directory (its *.yaml files, sorted) or a pattern such as scenarios/*.yaml.
Exit codes: 0 all passed, 1 a step failed, 2 an invalid file, 3 the --against sandbox does not answer.
Examples:
  $ svc scenario run scenarios/*.yaml
  $ svc scenario run scenarios/onboarding.yaml --json
  $ svc scenario run scenarios --junit out.xml --jobs 4
  $ svc scenario run my-flow.yaml --against http://127.0.0.1:4710 --reset`,
    )
    .action(lazy(async () => (await import('./scenario.js')).run));
}
