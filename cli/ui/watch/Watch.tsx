// svc market watch on a terminal: one strip of quotes redrawn every refresh, with the direction of each
// symbol's last move. Reads through a LiveSource (tests pass a fake one).
import { useEffect } from 'react';
import { Box, Text, useApp } from 'ink';
import type { LiveSource, Quote } from '../../live/source.js';
import { quotePrice, signedPct, wallTime } from '../format.js';
import { useMoves, usePolling, type Move } from '../hooks.js';
import { useKeys } from '../inputs.js';

export function QuoteStrip(props: { quotes: Quote[]; moves: Map<string, Move> }) {
  return (
    <Box flexWrap="wrap" columnGap={3}>
      {props.quotes.map((q) => {
        const move = props.moves.get(q.symbol);
        return (
          <Text key={q.symbol}>
            <Text bold>{q.symbol}</Text> <Text inverse={move?.fresh}>{quotePrice(q)}</Text>
            <Text color={move?.direction === 'up' ? 'green' : 'red'}>
              {move ? (move.direction === 'up' ? ' ▲' : ' ▼') : '  '}
            </Text>{' '}
            <Text color={q.change_pct > 0 ? 'green' : q.change_pct < 0 ? 'red' : undefined}>
              {signedPct(q.change_pct)}
            </Text>
            {q.halted ? (
              <Text color="red" bold>
                {' '}
                HALTED
              </Text>
            ) : null}
          </Text>
        );
      })}
    </Box>
  );
}

export interface WatchProps {
  source: LiveSource;
  symbols: string[];
  intervalMs: number;
  /** Stop after this many refreshes (null: until q or Ctrl-C). */
  count: number | null;
}

export function Watch(props: WatchProps) {
  const { exit } = useApp();
  const polled = usePolling(() => props.source.quotes(props.symbols), props.intervalMs, props.symbols.join(','));
  const moves = useMoves(polled.value ?? undefined);
  useKeys((input) => {
    if (input === 'q') exit();
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: checks the count each time a refresh lands; exit is stable
  useEffect(() => {
    if (props.count !== null && polled.refreshes >= props.count) exit();
  }, [polled.refreshes]);
  const quotes = polled.value ?? [];
  const first = quotes[0];
  return (
    <Box flexDirection="column">
      <Text dimColor>
        {first ? `${wallTime(first.as_of)} Cairo · market ${first.session_open ? 'open' : 'closed'}` : 'loading…'}
        {` · refresh ${polled.refreshes}${props.count !== null ? `/${props.count}` : ''} every ` +
          `${props.intervalMs / 1000}s · q quits`}
      </Text>
      <QuoteStrip quotes={quotes} moves={moves} />
      {polled.error ? <Text color="red">{`refresh failed: ${polled.error.message}`}</Text> : null}
    </Box>
  );
}
