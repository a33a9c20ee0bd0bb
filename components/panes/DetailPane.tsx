import { Box, Text } from 'ink';
import { useConsoleState } from '../state/context.js';
import { TABS } from '../state/types.js';
import { TraceView } from '../trace/TraceView.js';
import { ColumnsView } from './ColumnsView.js';
import { MetricsView } from './MetricsView.js';
import { SummaryView } from '../summary/SummaryView.js';
import { ChartView } from '../chart/ChartView.js';
import { tabLabels } from './tab-strip.js';

const TITLES = { traces: '1 Traces', columns: '2 Columns', metrics: '3 Metrics', summary: '4 Summary', chart: '5 Chart' } as const;

/** The tabbed detail area: trace view, Honeycomb columns, metrics table, where to look first, a chart. */
export function DetailPane({ width, height, focused }: { width: number; height: number; focused: boolean }) {
  const s = useConsoleState();
  const inner = { width: width - 2, height: height - 3 };
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={focused ? 'cyan' : 'gray'}>
      <Text wrap="truncate">
        {tabLabels(TABS, TITLES, s.tab, inner.width).map((l, i) => (
          <Text key={TABS[i]} bold={s.tab === TABS[i]} color={s.tab === TABS[i] ? 'cyan' : 'gray'}>{l}</Text>
        ))}
      </Text>
      {/* No overflow clipping: each view draws only what fits, and clipping costs ink a slice per write. */}
      <Box flexDirection="column" height={inner.height}>
        {s.tab === 'traces' && <TraceView width={inner.width} height={inner.height} />}
        {s.tab === 'columns' && <ColumnsView width={inner.width} height={inner.height} />}
        {s.tab === 'metrics' && <MetricsView width={inner.width} height={inner.height} />}
        {s.tab === 'summary' && <SummaryView width={inner.width} height={inner.height} />}
        {s.tab === 'chart' && <ChartView width={inner.width} height={inner.height} />}
      </Box>
    </Box>
  );
}
