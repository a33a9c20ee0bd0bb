import { Box, Text } from 'ink';
import { useConsoleState } from '../state/context.js';
import { TAG_COLORS } from '../theme/palette.js';
import { httpOperation } from '../../src/colony/unified/names.js';
import { isStreamMethod } from '../../src/colony/unified/streams.js';
import { fit, ms, plural, wrap } from './format.js';
import { type Column, cell, droppedNote, layoutTable } from './table.js';

interface Row { source: string; protocol: string; httpRoute: string | null; httpMethod: string | null; rpcService: string | null; rpcMethod: string | null; dbOperation: string | null; dbTable: string | null; requests: number; errorRate: number; p50Ms: number | null; p95Ms: number | null; p99Ms: number | null; percentilesAtLeast: boolean }
interface Metrics { service: string; timeRange: string; window?: { label: string; absolute: boolean }; sections: { rows: Row[] }[]; analysis: string; notes: string[]; unknownService?: string | null; args?: Record<string, unknown>; error?: string }

const op = (r: Row) => (r.protocol === 'http' ? httpOperation(r.httpMethod, r.httpRoute) : r.protocol === 'grpc' ? `${r.rpcService ? `${r.rpcService.split('.').pop()}/` : ''}${r.rpcMethod}${isStreamMethod(r.rpcMethod) ? ' (stream)' : ''}` : `${r.dbOperation ?? ''} ${r.dbTable ?? ''}`);
const pct = (v: number | null, atLeast: boolean) => (v === null ? '' : `${atLeast ? '>' : ''}${ms(v)}`);

/** The RED table: the operation is never dropped; P50 goes first, then P99, then requests. */
export const METRIC_COLUMNS: Column<Row>[] = [
  { title: 'source', cells: 6, priority: 0, value: (r) => (r.source === 'ebpf' ? '[eBPF]' : '[OTLP]'), color: (r) => (r.source === 'ebpf' ? TAG_COLORS.ebpf : TAG_COLORS.otlp) },
  { title: 'operation', cells: 14, priority: 0, flex: true, value: op },
  { title: 'requests', cells: 8, priority: 3, align: 'right', value: (r) => String(r.requests) },
  { title: 'P50', cells: 7, priority: 5, align: 'right', value: (r) => pct(r.p50Ms, r.percentilesAtLeast) },
  { title: 'P95', cells: 7, priority: 0, align: 'right', value: (r) => pct(r.p95Ms, r.percentilesAtLeast) },
  { title: 'P99', cells: 7, priority: 4, align: 'right', value: (r) => pct(r.p99Ms, r.percentilesAtLeast) },
  { title: 'errors', cells: 7, priority: 0, align: 'right', value: (r) => `${(r.errorRate * 100).toFixed(1)}%`, color: (r) => (r.errorRate >= 0.05 ? TAG_COLORS.error : undefined) },
];

/** RED metrics from coral_query_metrics: one row per operation and source. */
export function MetricsView({ width, height }: { width: number; height: number }) {
  const s = useConsoleState();
  const m = s.metrics as Metrics | null;
  if (!m) return <Text color="gray">{fit('No metrics yet: run :metrics <service>', width)}</Text>;
  if (m.error) return <Box flexDirection="column">{wrap(`✗ ${m.error}`, width).map((l, i) => <Text key={i} color={TAG_COLORS.error}>{l}</Text>)}</Box>;
  const rows = m.sections.flatMap((sec) => sec.rows);
  const fixed = m.window?.absolute ? m.window.label : null;
  if (rows.length === 0) {
    const text = m.unknownService ?? `No metrics for ${m.service} in ${fixed ?? `the last ${m.timeRange}`} (try a wider --since, or drop a filter)`;
    return <Box flexDirection="column">{wrap(text, width).map((l, i) => <Text key={i} color="gray">{l}</Text>)}</Box>;
  }
  const t = layoutTable(METRIC_COLUMNS, width);
  const note = droppedNote(t.dropped, s.zoomed);
  const notes = [...(note ? [note] : []), ...m.notes.slice(0, 2)];
  const fits = Math.max(0, height - 2 - (m.analysis ? 1 : 0) - notes.length);
  // When the rows do not all fit, the last row says how many are left.
  const room = rows.length > fits ? Math.max(0, fits - 1) : fits;
  return (
    <Box flexDirection="column">
      <Text bold>{fit(`${m.service}, ${fixed ?? `last ${m.timeRange}`} · ${plural(rows.length, 'operation')}`, width)}</Text>
      <Text color="gray">{t.columns.map((c) => cell(c.title, c.width, c.align)).join(' ')}</Text>
      {rows.slice(0, room).map((r, i) => (
        <Text key={i}>
          {t.columns.map((c, j) => (
            <Text key={c.title} color={c.color?.(r)}>{`${j ? ' ' : ''}${cell(c.value(r), c.width, c.align)}`}</Text>
          ))}
        </Text>
      ))}
      {rows.length > room && <Text color="gray">{fit(`… ${rows.length - room} more operations (a taller terminal shows them)`, width)}</Text>}
      {m.analysis && <Text>{fit(m.analysis, width)}</Text>}
      {notes.map((n, i) => <Text key={i} color="gray">{fit(n, width)}</Text>)}
    </Box>
  );
}
