import { Box, Text, useInput } from 'ink';
import TextInput from 'ink-text-input';
import { useMemo, useRef, useState } from 'react';
import { useConsoleActions, useConsoleState } from '../state/context.js';
import type { ChatEntry } from '../state/types.js';
import { wrap } from './format.js';

const COLORS: Record<ChatEntry['role'], string | undefined> = { user: 'cyan', assistant: undefined, notice: 'gray', error: 'red' };
const PREFIX: Record<ChatEntry['role'], string> = { user: '› ', assistant: '', notice: '· ', error: '✗ ' };

/** The conversation (settled entries, then the live tail) and the input line, windowed to the bottom. */
export function ChatPane({ width, height, focused, inputActive }: { width: number; height: number; focused: boolean; inputActive: boolean }) {
  const s = useConsoleState();
  const { actions, dispatch } = useConsoleActions();
  const [value, setValue] = useState('');
  // ink-text-input may submit the previous render's value when text and Enter arrive together (T4).
  const latest = useRef('');
  const historyAt = useRef<number | null>(null);
  const inner = Math.max(10, width - 2);
  // Every keystroke re-renders this pane; re-wrap the conversation only when it or the width changes.
  const lines = useMemo(() => chatLines(s.chat, s.live, inner), [s.chat, s.live, inner]);
  const room = Math.max(1, height - 4);
  const shown = lines.slice(-room);
  useInput((_input, key) => {
    if (!key.upArrow && !key.downArrow) return;
    const h = historyEntry(s.history, historyAt.current, key.upArrow ? -1 : 1);
    historyAt.current = h.at;
    latest.current = h.text;
    setValue(h.text);
  }, { isActive: focused && inputActive });
  const submit = (raw: string) => {
    // A paste arrives as one event with its newlines (T5): they end up as spaces, Enter submits.
    const text = (latest.current || raw).replace(/[\r\n]+/g, ' ').trim();
    latest.current = '';
    setValue('');
    historyAt.current = null;
    if (s.busy) return;
    if (text) dispatch({ type: 'history_push', text });
    actions.submit(text);
  };
  const onChange = (v: string) => {
    if (/[\r\n]/.test(v)) {
      latest.current = v;
      submit(v);
      return;
    }
    latest.current = v;
    setValue(v);
  };
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={focused ? 'cyan' : 'gray'}>
      <Box flexDirection="column" height={room}>
        {shown.map((l, i) => (
          <Text key={i} color={l.color} bold={l.bold} wrap="truncate">{l.text || ' '}</Text>
        ))}
      </Box>
      <Box>
        <Text color={s.busy ? 'yellow' : 'cyan'}>{s.busy ? '… ' : '› '}</Text>
        {inputActive ? (
          <TextInput value={value} onChange={onChange} onSubmit={submit} focus={focused && !s.busy} placeholder={s.busy ? 'working (Ctrl-C cancels)' : 'ask about the incident'} />
        ) : (
          <Text color="gray">{value || (s.busy ? 'working (Ctrl-C cancels)' : 'ask about the incident')}</Text>
        )}
      </Box>
    </Box>
  );
}

type ChatLine = { text: string; color?: string; bold?: boolean };

function chatLines(chat: ChatEntry[], live: string, width: number): ChatLine[] {
  const lines: ChatLine[] = [];
  for (const e of chat) {
    for (const l of wrap(`${PREFIX[e.role]}${e.text}`, width)) lines.push({ text: l, color: COLORS[e.role], bold: e.role === 'user' });
    if (e.citations?.length) lines.push({ text: `  sources: ${e.citations.map((_, i) => `[${i + 1}]`).join(' ')} (tool calls pane)`, color: 'gray' });
    lines.push({ text: '' });
  }
  if (live) for (const l of wrap(live, width)) lines.push({ text: l });
  return lines;
}

/** History navigation lives with the registry's chat.history binding. */
export function historyEntry(history: string[], at: number | null, delta: number): { at: number | null; text: string } {
  if (history.length === 0) return { at: null, text: '' };
  const next = at === null ? (delta < 0 ? history.length - 1 : null) : at + delta;
  if (next === null || next >= history.length) return { at: null, text: '' };
  const i = Math.max(0, next);
  return { at: i, text: history[i] };
}
