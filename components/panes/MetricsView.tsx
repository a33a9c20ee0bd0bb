import { Box, Text } from 'ink';
import { useConsoleState } from '../state/context.js';
import { TAG_COLORS } from '../theme/palette.js';
import { fit, ms, plural, wrap } from './format.js';
import { METRIC_SORT_TITLES, type MetricRow as Row, type MetricsJson as Metrics, metricRows, operationName as op } from './metric-rows.js';
import { useStickyStart } from './sticky-window.js';
import { type Column, cell, droppedNote, layoutTable } from './table.js';
const pct = (v: number | null, atLeast: boolean) => (v === null ? '' : `${atLeast ? '>' : ''}${ms(v)}`);

/** The RED table: the operation is never dropped; P50 goes first, then P99, then requests. */
export const METRIC_COLUMNS: Column<Row>[] = [
  { title: 'source', cells: 6, priority: 0, value: (r) => (r.source === 'ebpf' ? '[eBPF]' : '[OTLP]'), color: (r) => (r.source === 'ebpf' ? TAG_COLORS.ebpf : TAG_COLORS.otlp) },
  { title: 'operation', cells: 14, priority: 0, flex: true, value: op },
  { title: 'requests', cells: 8, priority: 3, align: 'right', value: (r) => String(r.requests) },
  { title: 'P50', cells: 7, priority: 5, align: 'right', value: (r) => pct(r.p50Ms, r.percentilesAtLeast) },
  { title: 'P95', cells: 7, priority: 0, align: 'right', value: (r) => pct(r.p95Ms, r.percentilesAtLeast) },
  { title: 'P99', cells: 7, priority: 4, align: 'right', value: (r) => pct(r.p99Ms, r.percentilesAtLeast) },
  { title: 'errors', cells: 6, priority: 0, align: 'right', value: (r) => `${(r.errorRate * 100).toFixed(1)}%`, color: (r) => (r.errorRate >= 0.05 ? TAG_COLORS.error : undefined) },
];

/** Below this many cells the source is one letter (e, o), so the operation keeps room for its name. */
const COMPACT_SOURCE_BELOW = 40;
const COMPACT_SOURCE: Column<Row> = { ...METRIC_COLUMNS[0], title: 'src', cells: 3, value: (r) => (r.source === 'ebpf' ? 'e' : 'o') };

/** The RED table's columns for a pane `width` cells wide. */
export const metricColumns = (width: number): Column<Row>[] => (width < COMPACT_SOURCE_BELOW ? [COMPACT_SOURCE, ...METRIC_COLUMNS.slice(1)] : METRIC_COLUMNS);

/** RED metrics from coral_query_metrics: one row per operation and source. */
export function MetricsView({ width, height }: { width: number; height: number }) {
  const s = useConsoleState();
  const m = s.metrics as Metrics | null;
  if (!m) return <Text color="gray">{fit('No metrics yet: run :metrics <service>', width)}</Text>;
  if (m.error) return <Box flexDirection="column">{wrap(`✗ ${m.error}`, width).map((l, i) => <Text key={i} color={TAG_COLORS.error}>{l}</Text>)}</Box>;
  const rows = metricRows(s.metrics, s.metricsView.sort);
  if (rows.length === 0) {
    const text = m.unknownService ?? `No metrics for ${m.service} in ${windowText(m)} (try a wider --since, or drop a filter)`;
    return <Box flexDirection="column">{wrap(text, width).map((l, i) => <Text key={i} color="gray">{l}</Text>)}</Box>;
  }
  return <MetricsTable m={m} rows={rows} width={width} height={height} />;
}

/** An absolute window by its times; a relative one as "the last 30m". */
const windowText = (m: Metrics) => (m.window?.absolute ? m.window.label : `the last ${m.timeRange}`);

/** The rows that fit, windowed to keep the cursor row in sight; the last line says where the window is. */
function MetricsTable({ m, rows, width, height }: { m: Metrics; rows: Row[]; width: number; height: number }) {
  const s = useConsoleState();
  const t = layoutTable(metricColumns(width), width);
  const note = droppedNote(t.dropped, s.zoomed);
  const notes = [...(note ? [note] : []), ...m.notes.slice(0, 2)];
  const fits = Math.max(1, height - 2 - (m.analysis ? 1 : 0) - notes.length);
  // When the rows do not all fit, the last row says which are shown.
  const room = rows.length > fits ? Math.max(1, fits - 1) : fits;
  const cursor = Math.min(s.metricsView.cursor, rows.length - 1);
  const start = useStickyStart(rows.length, cursor, room, `${width}x${height}`);
  const focused = s.focus === 'detail';
  return (
    <Box flexDirection="column">
      <Text bold>{fit(`${m.service}, ${windowText(m).replace(/^the /, '')} · ${METRIC_SORT_TITLES[s.metricsView.sort]} (s) · ${plural(rows.length, 'operation')} · Enter: its traces`, width)}</Text>
      <Text color="gray">{t.columns.map((c) => cell(c.title, c.width, c.align)).join(' ')}</Text>
      {rows.slice(start, start + room).map((r, i) => (
        <Text key={start + i} inverse={focused && start + i === cursor}>
          {t.columns.map((c, j) => (
            <Text key={c.title} color={c.color?.(r)}>{`${j ? ' ' : ''}${cell(c.value(r), c.width, c.align)}`}</Text>
          ))}
        </Text>
      ))}
      {rows.length > room && <Text color="gray">{fit(`rows ${start + 1}-${Math.min(rows.length, start + room)} of ${rows.length} · j/k moves`, width)}</Text>}
      {m.analysis && <Text>{fit(m.analysis, width)}</Text>}
      {notes.map((n, i) => <Text key={i} color="gray">{fit(n, width)}</Text>)}
    </Box>
  );
}
