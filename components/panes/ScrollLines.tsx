import { Box, Text } from 'ink';
import { useEffect } from 'react';
import { useConsoleActions, useConsoleState } from '../state/context.js';
import type { Scrollable } from '../state/types.js';
import type { StyledLine } from '../text/markdown-lines.js';
import { cut, spansIn } from '../text/width.js';
import { scrollWindow } from './scroll.js';

/** A screen line; `spans`: styled in parts (rendered Markdown), `text` then being their text joined. */
export type Line = StyledLine;


/** Lines in a fixed height, scrolled by the state's offset for `target`, with a position line. */
export function ScrollLines({ lines, width: cells, height, target, fromBottom = false, keys }: { lines: Line[]; width: number; height: number; target: Scrollable; fromBottom?: boolean; keys?: string }) {
  const s = useConsoleState();
  const { dispatch } = useConsoleActions();
  const w = scrollWindow(lines.length, height, s.scroll[target], fromBottom, keys);
  // Scrolling past either end is undone, so the next key in the other direction moves at once.
  useEffect(() => {
    if (w.offset !== s.scroll[target]) dispatch({ type: 'scroll_set', target, to: w.offset });
  }, [w.offset, s.scroll, target, dispatch]);
  return (
    <Box flexDirection="column" height={height}>
      {lines.slice(w.start, w.end).map((l, i) => (
        // Cut, not padded: ink fills the rest of the row, and every character written costs a frame.
        <Text key={w.start + i} color={l.color} bold={l.bold}>
          {l.spans
            ? spansIn(l.spans, cells).map((p, k) => <Text key={k} bold={p.bold} italic={p.italic} color={p.color}>{p.text}</Text>)
            : cut(l.text, cells) || ' '}
        </Text>
      ))}
      {w.indicator && <Text color="gray">{cut(w.indicator, cells)}</Text>}
    </Box>
  );
}
