import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { LineInput } from '../input/LineInput.js';
import { useConsoleState } from '../state/context.js';
import type { ChatEntry } from '../state/types.js';
import { markdownLines } from '../text/markdown-lines.js';
import { wrap } from './format.js';
import { type Line, ScrollLines } from './ScrollLines.js';

const COLORS: Record<ChatEntry['role'], string | undefined> = { user: 'cyan', assistant: undefined, notice: 'gray', error: 'red' };
const PREFIX: Record<ChatEntry['role'], string> = { user: '› ', assistant: '', notice: '· ', error: '✗ ' };

/** The conversation (settled entries, then the live tail), scrolled from its newest line, and the input line. */
export function ChatPane({ width, height, focused }: { width: number; height: number; focused: boolean }) {
  const s = useConsoleState();
  const inner = Math.max(10, width - 2);
  // Every keystroke re-renders this pane; re-wrap the conversation only when it or the width changes.
  const settled = useMemo(() => s.chat.flatMap((e) => entryLines(e, inner)), [s.chat, inner]);
  const lines = useMemo(() => (s.live ? [...settled, ...liveLines(s.live, inner)] : settled), [settled, s.live, inner]);
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={focused ? 'cyan' : 'gray'}>
      <ScrollLines lines={lines} width={inner} height={Math.max(1, height - 3)} target="chat" fromBottom keys="PgUp/PgDn Home/End" />
      <Box>
        <Text color={s.busy ? 'yellow' : 'cyan'}>{s.busy ? '… ' : '› '}</Text>
        <LineInput edit={{ value: s.draft, cursor: s.draftCursor }} focus={focused} width={inner - 2} placeholder={s.busy ? 'working (Ctrl-C cancels)' : 'ask about the incident (? keys, : commands)'} />
      </Box>
    </Box>
  );
}

/** An entry's lines at the width they were made for: a new word re-renders the live tail only. */
const entryCache = new WeakMap<ChatEntry, { cells: number; lines: Line[] }>();

function entryLines(e: ChatEntry, cells: number): Line[] {
  const hit = entryCache.get(e);
  if (hit?.cells === cells) return hit.lines;
  // Answers are Markdown; questions and notices are shown as typed.
  const lines: Line[] = e.role === 'assistant' ? markdownLines(e.text, cells) : wrap(`${PREFIX[e.role]}${e.text}`, cells).map((l) => ({ text: l, color: COLORS[e.role], bold: e.role === 'user' }));
  if (e.citations?.length) lines.push({ text: `  sources: ${e.citations.map((n) => `[${n}]`).join(' ')} (tool calls pane)`, color: 'gray' });
  lines.push({ text: '' });
  entryCache.set(e, { cells, lines });
  return lines;
}

export function chatLines(chat: ChatEntry[], live: string, cells: number): Line[] {
  return [...chat.flatMap((e) => entryLines(e, cells)), ...liveLines(live, cells)];
}

/** The answer being written, as Markdown whose last line is still open. */
export const liveLines = (live: string, cells: number): Line[] => (live ? markdownLines(live, cells, { open: true }) : []);
