import { Box, Text } from 'ink';
import { useConsoleState } from '../state/context.js';
import type { ToolCallEntry } from '../state/types.js';
import { fit, ms, shortArgs, wrap } from './format.js';

const GLYPH: Record<ToolCallEntry['status'], { g: string; color: string }> = {
  running: { g: '⋯', color: 'yellow' },
  done: { g: '✓', color: 'green' },
  failed: { g: '✗', color: 'red' },
};

/** One line per tool call (status, tool, short arguments, elapsed); the selected one can expand. */
export function ToolCallsPane({ width, height, focused, now }: { width: number; height: number; focused: boolean; now: number }) {
  const s = useConsoleState();
  const inner = width - 2;
  const expanded = s.toolCalls.find((c) => c.id === s.expandedTool);
  const listHeight = Math.max(1, (expanded ? Math.floor((height - 2) / 3) : height - 2));
  const start = Math.max(0, Math.min(s.toolCursor - listHeight + 1, s.toolCalls.length - listHeight));
  const visible = s.toolCalls.slice(Math.max(0, start), Math.max(0, start) + listHeight);
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={focused ? 'cyan' : 'gray'}>
      {s.toolCalls.length === 0 && <Text color="gray">{fit('No tool calls yet.', inner)}</Text>}
      {visible.map((c, i) => {
        const index = Math.max(0, start) + i;
        const elapsed = c.durationMs ?? now - c.startedAt;
        const g = GLYPH[c.status];
        const label = `${c.tool.replace(/^coral_|^honeycomb_/, '')} `;
        const time = ` ${ms(elapsed)}`;
        return (
          <Text key={c.id} inverse={focused && index === s.toolCursor} wrap="truncate">
            <Text color={g.color}>{g.g} </Text>
            {label}
            <Text color="gray">{shortArgs(c.args, Math.max(0, inner - label.length - time.length - 2))}</Text>
            {time}
          </Text>
        );
      })}
      {expanded && (
        <Box flexDirection="column" marginTop={0} height={height - 2 - listHeight} overflow="hidden">
          <Text color="cyan" wrap="truncate">{fit(`${expanded.server}/${expanded.tool} ${JSON.stringify(expanded.args)}`, inner)}</Text>
          {wrap(expanded.text ?? '(running)', inner).slice(0, Math.max(0, height - 3 - listHeight)).map((l, i) => (
            <Text key={i} wrap="truncate">{l || ' '}</Text>
          ))}
        </Box>
      )}
    </Box>
  );
}
