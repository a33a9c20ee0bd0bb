import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { LineInput } from '../input/LineInput.js';
import { useConsoleState } from '../state/context.js';
import type { ChatEntry } from '../state/types.js';
import { wrap } from './format.js';
import { type Line, ScrollLines } from './ScrollLines.js';
import { queuedLines } from './queued-lines.js';

const COLORS: Record<ChatEntry['role'], string | undefined> = { user: 'cyan', assistant: undefined, notice: 'gray', error: 'red' };
const PREFIX: Record<ChatEntry['role'], string> = { user: '› ', assistant: '', notice: '· ', error: '✗ ' };

/** The conversation (settled entries, then the live tail), scrolled from its newest line, and the input line. */
export function ChatPane({ width, height, focused }: { width: number; height: number; focused: boolean }) {
  const s = useConsoleState();
  const inner = Math.max(10, width - 2);
  // Every keystroke re-renders this pane; re-wrap the conversation only when it or the width changes.
  const lines = useMemo(() => [...chatLines(s.chat, s.live, inner), ...queuedLines(s.queued, inner)], [s.chat, s.live, s.queued, inner]);
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={focused ? 'cyan' : 'gray'}>
      <ScrollLines lines={lines} width={inner} height={Math.max(1, height - 3)} target="chat" fromBottom keys="PgUp/PgDn Home/End" />
      <Box>
        <Text color={s.busy ? 'yellow' : 'cyan'}>{s.busy ? '… ' : '› '}</Text>
        <LineInput edit={{ value: s.draft, cursor: s.draftCursor }} focus={focused} width={inner - 2} placeholder={s.busy ? 'working (Ctrl-C cancels, Enter queues)' : 'ask about the incident (? keys, : commands)'} />
      </Box>
    </Box>
  );
}

export function chatLines(chat: ChatEntry[], live: string, cells: number): Line[] {
  const lines: Line[] = [];
  for (const e of chat) {
    for (const l of wrap(`${PREFIX[e.role]}${e.text}`, cells)) lines.push({ text: l, color: COLORS[e.role], bold: e.role === 'user' });
    if (e.citations?.length) lines.push({ text: `  sources: ${e.citations.map((n) => `[${n}]`).join(' ')} (tool calls pane)`, color: 'gray' });
    lines.push({ text: '' });
  }
  if (live) for (const l of wrap(live, cells)) lines.push({ text: l });
  return lines;
}
