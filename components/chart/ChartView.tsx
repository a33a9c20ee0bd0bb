import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useConsoleState } from '../state/context.js';
import { cut, spansIn } from '../text/width.js';
import { chartLines } from './chart-lines.js';


/** The Chart tab: a pure function of the chart's state and the pane's size (chart-lines.ts), drawn line by line. */
export function ChartView({ width, height }: { width: number; height: number }) {
  const s = useConsoleState();
  const zoom = !s.zoomed;
  const lines = useMemo(() => chartLines(s.chart, width, height, { zoom }), [s.chart, width, height, zoom]);
  return (
    <Box flexDirection="column">
      {lines.map((l, i) => (
        <Text key={i} color={l.color} bold={l.bold}>
          {l.spans && l.text.trim() ? spansIn(l.spans, width).map((p, k) => <Text key={k} bold={p.bold} color={p.color}>{p.text}</Text>) : cut(l.text, width) || ' '}
        </Text>
      ))}
    </Box>
  );
}
