// `svc admin alerts`: trade surveillance (cli/commands/admin-alerts.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(admin: Command): void {
  const alerts = admin
    .command('alerts')
    .description('trade surveillance alerts: list (default), show, run, escalate, close (default --as admin)')
    .addHelpText(
      'after',
      examples(
        'svc admin alerts --state open',
        'svc admin alerts escalate alr_0123456789 --note "pattern repeats"',
        'svc admin alerts close alr_0123456789 --note "client rebalanced"',
      ),
    );
  alerts
    .command('list', { isDefault: true })
    .description('alerts, oldest first')
    .option('--state <state>', 'open, escalated or closed')
    .option('--rule <rule>', 'wash_trade, layering or concentration')
    .option('--investor <id>', 'only this investor')
    .option('--symbol <symbol>', 'only this symbol')
    .option('--session <YYYY-MM-DD>', 'only this session')
    .option('--limit <n>', '1-500 (default 100)')
    .addHelpText('after', examples('svc admin alerts', 'svc admin alerts list --state open --json'))
    .action(lazy(async () => (await import('./admin-alerts.js')).list));
  alerts
    .command('show <alert_id>')
    .description('one alert with its evidence: window, orders, fills, measured values')
    .addHelpText('after', examples('svc admin alerts show alr_0123456789'))
    .action(lazy(async () => (await import('./admin-alerts.js')).show));
  alerts
    .command('run')
    .description('run the rules now over a session (they also run at every session close)')
    .option('--date <YYYY-MM-DD>', 'a trading day up to today (default the latest session that has opened)')
    .addHelpText('after', examples('svc admin alerts run', 'svc admin alerts run --date 2026-11-24 --json'))
    .action(lazy(async () => (await import('./admin-alerts.js')).run));
  alerts
    .command('escalate <alert_id>')
    .description('escalate an open alert')
    .option('--note <text>', 'an optional note')
    .addHelpText('after', examples('svc admin alerts escalate alr_0123456789 --note "third time this month"'))
    .action(lazy(async () => (await import('./admin-alerts.js')).escalate));
  alerts
    .command('close <alert_id>')
    .description('close an open or escalated alert; final')
    .option('--note <text>', 'why (required)')
    .addHelpText(
      'after',
      examples('svc admin alerts close alr_0123456789 --note "client rebalanced; no intent to mislead"'),
    )
    .action(lazy(async () => (await import('./admin-alerts.js')).close));
}
