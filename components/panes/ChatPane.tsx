import { Box, Text, useInput, useStdin } from 'ink';
import { useMemo, useRef } from 'react';
import { LineInput } from '../input/LineInput.js';
import { useConsoleActions, useConsoleState } from '../state/context.js';
import type { ChatEntry } from '../state/types.js';
import { wrap } from './format.js';
import { type Line, ScrollLines } from './ScrollLines.js';

const COLORS: Record<ChatEntry['role'], string | undefined> = { user: 'cyan', assistant: undefined, notice: 'gray', error: 'red' };
const PREFIX: Record<ChatEntry['role'], string> = { user: '› ', assistant: '', notice: '· ', error: '✗ ' };

/**
 * The conversation (settled entries, then the live tail), scrolled from its newest line, and the
 * input line. `?` and `:` typed on an empty input open the help and the command line instead.
 */
export function ChatPane({ width, height, focused }: { width: number; height: number; focused: boolean }) {
  const s = useConsoleState();
  const { actions, dispatch } = useConsoleActions();
  const { isRawModeSupported } = useStdin();
  const historyAt = useRef<number | null>(null);
  const inner = Math.max(10, width - 2);
  // Every keystroke re-renders this pane; re-wrap the conversation only when it or the width changes.
  const lines = useMemo(() => chatLines(s.chat, s.live, inner), [s.chat, s.live, inner]);
  useInput((_input, key) => {
    if (!key.upArrow && !key.downArrow) return;
    const h = historyEntry(s.history, historyAt.current, key.upArrow ? -1 : 1);
    historyAt.current = h.at;
    dispatch({ type: 'draft', text: h.text });
  }, { isActive: focused && isRawModeSupported === true });
  const submit = (raw: string) => {
    const text = raw.trim();
    if (s.busy) {
      dispatch({ type: 'status', patch: { message: 'Still answering: wait, or Ctrl-C to cancel (your question is kept)' } });
      return;
    }
    dispatch({ type: 'draft', text: '' });
    historyAt.current = null;
    if (text) dispatch({ type: 'history_push', text });
    actions.submit(text);
  };
  const onChange = (next: string, prev: string) => {
    if (prev === '' && (next === '?' || next === ':')) {
      dispatch({ type: 'overlay', overlay: next === '?' ? 'help' : 'command' });
      return;
    }
    dispatch({ type: 'draft', text: next });
  };
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={focused ? 'cyan' : 'gray'}>
      <ScrollLines lines={lines} width={inner} height={Math.max(1, height - 3)} target="chat" fromBottom keys="PgUp/PgDn Home/End" />
      <Box>
        <Text color={s.busy ? 'yellow' : 'cyan'}>{s.busy ? '… ' : '› '}</Text>
        <LineInput value={s.draft} onChange={onChange} onSubmit={submit} focus={focused} width={inner - 2} placeholder={s.busy ? 'working (Ctrl-C cancels)' : 'ask about the incident (? keys, : commands)'} />
      </Box>
    </Box>
  );
}

export function chatLines(chat: ChatEntry[], live: string, cells: number): Line[] {
  const lines: Line[] = [];
  for (const e of chat) {
    for (const l of wrap(`${PREFIX[e.role]}${e.text}`, cells)) lines.push({ text: l, color: COLORS[e.role], bold: e.role === 'user' });
    if (e.citations?.length) lines.push({ text: `  sources: ${e.citations.map((_, i) => `[${i + 1}]`).join(' ')} (tool calls pane)`, color: 'gray' });
    lines.push({ text: '' });
  }
  if (live) for (const l of wrap(live, cells)) lines.push({ text: l });
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
