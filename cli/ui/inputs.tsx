// Small input pieces of the live screens (no extra Ink packages): per-key input, a menu, a field's look.
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { Box, Text, useInput, type Key } from 'ink';
import { splitKeys, useKeyQueue } from './key-router.js';

/**
 * useInput, one call per key, always to the handler of the latest render: a key pressed right after a
 * refresh is drawn sees that refresh's data, not the closure of the render before it. Inside a
 * KeyRouter the keys come through its queue, so none is lost while a new screen is being drawn.
 */
export function useKeys(handler: (input: string, key: Key) => void, options?: { isActive?: boolean }): void {
  const latest = useRef(handler);
  latest.current = handler;
  const queue = useKeyQueue();
  const active = options?.isActive !== false;
  useLayoutEffect(() => (queue && active ? queue.register(latest) : undefined), [queue, active]);
  const onInput = useCallback((input: string, key: Key) => {
    for (const e of splitKeys(input, key)) latest.current(e.input, e.key);
  }, []);
  useInput(onInput, { isActive: queue === null && active });
}

export interface MenuItem {
  label: string;
  detail?: string;
}

/** A bordered menu: arrows (or j/k) choose, Enter or a digit 1-9 selects, Esc goes back. */
export function SelectList(props: {
  title: string;
  items: MenuItem[];
  initial?: number;
  onSelect(index: number): void;
  onCancel(): void;
}) {
  const { items } = props;
  const [index, setIndex] = useState(Math.min(props.initial ?? 0, Math.max(0, items.length - 1)));
  // Keys arriving together (↓↓Enter) must each see the index the previous one left.
  const at = useRef(index);
  const moveTo = (i: number) => {
    at.current = i;
    setIndex(i);
  };
  useKeys((input, key) => {
    if (key.escape) props.onCancel();
    else if (key.upArrow || input === 'k') moveTo((at.current - 1 + items.length) % items.length);
    else if (key.downArrow || input === 'j') moveTo((at.current + 1) % items.length);
    else if (key.return && items.length > 0) props.onSelect(at.current);
    else if (/^[1-9]$/.test(input) && Number(input) <= items.length) props.onSelect(Number(input) - 1);
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold color="cyan">
        {props.title}
      </Text>
      {items.length === 0 ? <Text dimColor>(nothing to choose)</Text> : null}
      {items.map((it, i) => (
        <Text key={i} inverse={i === index}>
          {`${i < 9 ? i + 1 : ' '}  ${it.label}`}
          {it.detail ? <Text dimColor>{`  ${it.detail}`}</Text> : null}
        </Text>
      ))}
      <Text dimColor>↑↓ choose · Enter or 1-9 select · Esc back</Text>
    </Box>
  );
}

/** A labelled field; the active one shows a cursor. Choice fields show their options with ←→. */
export function Field(props: {
  label: string;
  value: string;
  active: boolean;
  choices?: readonly string[];
  note?: string;
  invalid?: string | null;
}) {
  const body = props.choices
    ? props.choices.map((c) => (c === props.value ? `[${c}]` : ` ${c} `)).join(' ')
    : `${props.value}${props.active ? '█' : ''}`;
  return (
    <Text>
      <Text
        color={props.active ? 'cyan' : undefined}
        bold={props.active}
      >{`${props.active ? '›' : ' '} ${props.label.padEnd(9)}`}</Text>
      <Text>{body}</Text>
      {props.choices && props.active ? <Text dimColor>{'  ←→ change'}</Text> : null}
      {props.invalid ? (
        <Text color="red">{`  ${props.invalid}`}</Text>
      ) : props.note ? (
        <Text dimColor>{`  ${props.note}`}</Text>
      ) : null}
    </Text>
  );
}
