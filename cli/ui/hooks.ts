// React hooks of the live screens: polling a loader on an interval, the direction each quote last
// moved, and the terminal's size.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStdout } from 'ink';
import type { Quote } from '../live/source.js';

export interface Polled<T> {
  value: T | null;
  /** The last refresh's failure; cleared by the next success. */
  error: Error | null;
  /** Successful refreshes so far. */
  refreshes: number;
  /** Load again now (and restart the interval). */
  refresh(): void;
}

/**
 * Calls `load` now and `intervalMs` after each answer (never two at once). A new `key` (say another
 * investor) starts over at once; the last value stays on screen until the new one arrives.
 */
export function usePolling<T>(load: () => Promise<T>, intervalMs: number, key: string): Polled<T> {
  const [state, setState] = useState<{ value: T | null; error: Error | null; refreshes: number }>({
    value: null,
    error: null,
    refreshes: 0,
  });
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // key and nonce are the triggers that reload; load is read through a ref.
  // biome-ignore lint/correctness/useExhaustiveDependencies: as said above
  useEffect(() => {
    let live = true;
    let timer: NodeJS.Timeout | undefined;
    const run = async () => {
      try {
        const value = await loadRef.current();
        if (live) setState((s) => ({ value, error: null, refreshes: s.refreshes + 1 }));
      } catch (err) {
        if (live) setState((s) => ({ ...s, error: err as Error }));
      }
      if (live) timer = setTimeout(run, intervalMs);
    };
    void run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, intervalMs, nonce]);
  const refresh = useCallback(() => setNonce((n) => n + 1), []);
  return { ...state, refresh };
}

export interface Move {
  direction: 'up' | 'down';
  /** The price changed at the latest refresh. */
  fresh: boolean;
}

/** Each symbol's last price move, kept until the next one (a frozen clock keeps its arrows). */
export function nextMoves(before: Map<string, number>, moves: Map<string, Move>, quotes: Quote[]): Map<string, Move> {
  const out = new Map<string, Move>();
  for (const q of quotes) {
    const prev = before.get(q.symbol);
    if (prev !== undefined && prev !== q.price_micros)
      out.set(q.symbol, { direction: q.price_micros > prev ? 'up' : 'down', fresh: true });
    else {
      const kept = moves.get(q.symbol);
      if (kept) out.set(q.symbol, { ...kept, fresh: false });
    }
  }
  return out;
}

export function useMoves(quotes: Quote[] | undefined): Map<string, Move> {
  const ref = useRef<{ seen: Quote[] | undefined; prices: Map<string, number>; moves: Map<string, Move> }>({
    seen: undefined,
    prices: new Map(),
    moves: new Map(),
  });
  if (quotes && quotes !== ref.current.seen) {
    const moves = nextMoves(ref.current.prices, ref.current.moves, quotes);
    ref.current = {
      seen: quotes,
      prices: new Map([...ref.current.prices, ...quotes.map((q) => [q.symbol, q.price_micros] as const)]),
      moves,
    };
  }
  return ref.current.moves;
}

/** Columns and rows, updated when the terminal is resized. */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 100, rows: stdout.rows || 30 });
  const [size, setSize] = useState(read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: subscribes once; read() only reads the same stdout
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
