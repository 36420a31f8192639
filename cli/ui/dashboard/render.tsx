// The dashboard's render helper: the only way commands reach its Ink components.
import { render } from 'ink';
import type { LiveSource } from '../../live/source.js';
import { onAlternateScreen } from '../fullscreen.js';
import { Dashboard } from './Dashboard.js';

export interface DashboardOptions {
  investorId: string | null;
  symbols: string[];
  intervalMs: number;
}

/** Draws the dashboard full screen until the user quits. */
export async function renderDashboard(source: LiveSource, opts: DashboardOptions): Promise<void> {
  await onAlternateScreen(process.stdout, async () => {
    const app = render(
      <Dashboard source={source} investorId={opts.investorId} symbols={opts.symbols} intervalMs={opts.intervalMs} />,
      { exitOnCtrlC: true },
    );
    await app.waitUntilExit();
  });
}
