// One way in for the keys of a screen with several key handlers (the dashboard's main keys, its menus
// and its order form), so that no key is lost when keys come faster than the screen is drawn.
//
// Ink hands each handler the keys from the moment its useInput is attached, which happens in a passive
// effect after the frame that shows it: a key typed right after `b` (a paste, tmux send-keys, a fast
// typist) reached the main keys, not the form that `b` opened, or nobody. Here one useInput takes every
// key into a queue; a handler that changes which handlers listen (opening or closing a form) holds
// the queue, and the keys behind it go on once that screen is committed, to the handlers it registered
// (registration is a layout effect, so it is done by then). An action in flight pauses the queue too.
import { createContext, useCallback, useContext, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useInput, type Key } from 'ink';

export type KeyHandler = (input: string, key: Key) => void;

export interface KeyEvent {
  input: string;
  key: Key;
}

/**
 * Ink hands a run of plain characters that arrived together (a paste, tmux send-keys, a fast typist)
 * to useInput as one string, "\r" and "\t" included. This splits such a run into one event per key.
 */
export function splitKeys(input: string, key: Key): KeyEvent[] {
  if (input.length <= 1 || key.ctrl || key.meta) return [{ input, key }];
  const none = Object.fromEntries(Object.keys(key).map((k) => [k, false])) as unknown as Key;
  return [...input].map((ch) => {
    if (ch === '\r' || ch === '\n') return { input: '', key: { ...none, return: true } };
    if (ch === '\t') return { input: '', key: { ...none, tab: true } };
    if (ch === '\x7f' || ch === '\b') return { input: '', key: { ...none, backspace: true } };
    return { input: ch, key: { ...none, shift: /[A-Z]/.test(ch) } };
  });
}

export class KeyQueue {
  private readonly handlers = new Set<{ current: KeyHandler }>();
  private readonly queue: KeyEvent[] = [];
  private waiting = false;
  private pauses = 0;
  private draining = false;
  private scheduled = false;
  /** Asks the provider to draw again, so its layout effect (`committed`) runs after that commit. */
  redraw: () => void = () => undefined;

  /** Adds a handler (a ref, so it is always the latest render's); returns its removal. */
  register(handler: { current: KeyHandler }): () => void {
    this.handlers.add(handler);
    return () => {
      this.handlers.delete(handler);
    };
  }

  push(events: KeyEvent[]): void {
    this.queue.push(...events);
    this.drain();
  }

  /** The key being handled changes which handlers listen: the next keys wait for that screen. */
  hold(): void {
    this.waiting = true;
    this.redraw();
  }

  /** Keys wait until `resume` (an action in flight); Ctrl-C still quits, through Ink. */
  pause(): void {
    this.pauses++;
  }

  resume(): void {
    this.pauses = Math.max(0, this.pauses - 1);
    this.later();
  }

  /** A frame is committed and its handlers registered: held keys may go on. */
  committed(): void {
    if (!this.waiting) return;
    this.waiting = false;
    this.later();
  }

  /** Keys typed and not handled yet. */
  get pending(): number {
    return this.queue.length;
  }

  private later(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.waiting && this.pauses === 0) {
        const e = this.queue.shift()!;
        for (const h of [...this.handlers]) h.current(e.input, e.key);
      }
    } finally {
      this.draining = false;
    }
  }
}

const KeyContext = createContext<KeyQueue | null>(null);

/** The queue of the screen around this component, if it has one. */
export function useKeyQueue(): KeyQueue | null {
  return useContext(KeyContext);
}

/** Takes every key of the screen inside it into one queue (see the top of this file). */
export function KeyRouter(props: { children: ReactNode }) {
  const ref = useRef<KeyQueue | null>(null);
  if (ref.current === null) ref.current = new KeyQueue();
  const queue = ref.current;
  const [, setFrame] = useState(0);
  queue.redraw = () => setFrame((n) => n + 1);
  const onInput = useCallback((input: string, key: Key) => queue.push(splitKeys(input, key)), [queue]);
  useInput(onInput);
  useLayoutEffect(() => queue.committed());
  return <KeyContext.Provider value={queue}>{props.children}</KeyContext.Provider>;
}
