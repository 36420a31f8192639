// The quote strip's render helper: the only way commands reach its Ink components.
import { render } from 'ink';
import type { LiveSource } from '../../live/source.js';
import { Watch } from './Watch.js';

export async function renderWatch(
  source: LiveSource,
  opts: { symbols: string[]; intervalMs: number; count: number | null },
): Promise<void> {
  const app = render(<Watch source={source} symbols={opts.symbols} intervalMs={opts.intervalMs} count={opts.count} />);
  await app.waitUntilExit();
}
