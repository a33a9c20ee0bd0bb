import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useConsoleState } from '../state/context.js';
import type { ToolCallEntry } from '../state/types.js';
import { TAG_COLORS } from '../theme/palette.js';
import { cut, fit, ms, padStart, shortArgs, width as cells, wrap } from './format.js';
import { type Line, ScrollLines } from './ScrollLines.js';

const GLYPH: Record<ToolCallEntry['status'], { g: string; color: string }> = {
  running: { g: '⋯', color: 'cyan' },
  done: { g: '✓', color: 'green' },
  failed: { g: '✗', color: TAG_COLORS.error },
  cancelled: { g: '⊘', color: 'gray' },
};

/** The opened call: where it went, its full arguments, then its whole result (or how it ended). */
export function callLines(c: ToolCallEntry, cells: number): Line[] {
  const state = c.status === 'running' ? '(running)' : c.status === 'cancelled' ? '(cancelled)' : c.status === 'failed' ? `(failed: ${c.text ?? ''})` : '';
  return [
    { text: `${c.seq !== undefined ? `[${c.seq}] ` : ''}${c.server}/${c.tool}${c.durationMs !== undefined ? ` · ${ms(c.durationMs)}` : ''}`, color: 'cyan', bold: true },
    ...wrap(`args ${JSON.stringify(c.args)}`, cells).map((text) => ({ text, color: 'gray' })),
    ...(c.status === 'done' ? wrap(c.text ?? '', cells).map((text) => ({ text })) : wrap(state, cells).map((text) => ({ text, color: c.status === 'failed' ? TAG_COLORS.error : 'gray' }))),
  ];
}

/** One line per tool call (status, tool, short arguments, elapsed); the selected one opens and scrolls. */
export function ToolCallsPane({ width, height, focused, now }: { width: number; height: number; focused: boolean; now: number }) {
  const s = useConsoleState();
  const inner = width - 2;
  const expanded = s.toolCalls.find((c) => c.id === s.expandedTool);
  const listHeight = Math.max(1, expanded ? Math.min(3, Math.floor((height - 2) / 3)) : height - 2);
  const start = Math.max(0, Math.min(s.toolCursor - listHeight + 1, s.toolCalls.length - listHeight));
  const visible = s.toolCalls.slice(start, start + listHeight);
  const detail = useMemo(() => (expanded ? callLines(expanded, inner) : []), [expanded, inner]);
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={focused ? 'cyan' : 'gray'}>
      {s.toolCalls.length === 0 && <Text color="gray">{fit('No tool calls yet.', inner)}</Text>}
      {visible.map((c, i) => {
        const g = GLYPH[c.status];
        const label = `${c.seq !== undefined ? `[${c.seq}] ` : ''}${c.tool.replace(/^coral_|^honeycomb_/, '')} `;
        const time = c.status === 'cancelled' ? 'cancelled' : ms(c.durationMs ?? Math.max(0, now - c.startedAt));
        // The time always shows; the label gives way before it, the arguments before both.
        const timeCells = cells(time) + 1;
        const shown = cut(label, Math.max(0, inner - 2 - timeCells));
        const argsCells = Math.max(0, inner - 2 - cells(shown) - timeCells);
        return (
          <Text key={c.id} inverse={focused && start + i === s.toolCursor}>
            <Text color={g.color}>{g.g} </Text>
            {shown}
            <Text color="gray">{fit(shortArgs(c.args, argsCells), argsCells)}</Text>
            {padStart(time, timeCells)}
          </Text>
        );
      })}
      {expanded && <ScrollLines lines={detail} width={inner} height={Math.max(1, height - 2 - listHeight)} target="tool" />}
    </Box>
  );
}
