import { Box, Text } from 'ink';
import { useConsoleState } from '../state/context.js';
import { fit, ms } from './format.js';

interface Row { source: string; protocol: string; httpRoute: string | null; httpMethod: string | null; rpcService: string | null; rpcMethod: string | null; dbOperation: string | null; dbTable: string | null; requests: number; errorRate: number; p50Ms: number | null; p95Ms: number | null; p99Ms: number | null; percentilesAtLeast: boolean }

const op = (r: Row) => (r.protocol === 'http' ? `${r.httpMethod} ${r.httpRoute}` : r.protocol === 'grpc' ? `${r.rpcService ? `${r.rpcService.split('.').pop()}/` : ''}${r.rpcMethod}` : `${r.dbOperation ?? ''} ${r.dbTable ?? ''}`);

/** RED metrics from coral_query_metrics: one row per operation and source. */
export function MetricsView({ width, height }: { width: number; height: number }) {
  const s = useConsoleState();
  const m = s.metrics as { service: string; timeRange: string; sections: { rows: Row[] }[]; analysis: string; notes: string[] } | null;
  if (!m) return <Text color="gray">{fit('No metrics yet: run :metrics <service>', width)}</Text>;
  const rows = m.sections.flatMap((sec) => sec.rows);
  const opW = Math.max(12, width - 52);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">{fit(`${m.service}, last ${m.timeRange}`, width)}</Text>
      <Text color="gray" wrap="truncate">{fit(`source ${'operation'.padEnd(opW)} requests    P50    P95    P99  errors`, width)}</Text>
      {rows.slice(0, Math.max(0, height - 4)).map((r, i) => (
        <Text key={i} wrap="truncate" color={r.errorRate >= 0.05 ? 'red' : undefined}>
          {fit(`${r.source === 'ebpf' ? '[eBPF]' : '[OTLP]'} ${fit(op(r), opW)} ${String(r.requests).padStart(8)} ${(r.p50Ms === null ? '' : ms(r.p50Ms)).padStart(6)} ${(r.p95Ms === null ? '' : `${r.percentilesAtLeast ? '>' : ''}${ms(r.p95Ms)}`).padStart(6)} ${(r.p99Ms === null ? '' : `${r.percentilesAtLeast ? '>' : ''}${ms(r.p99Ms)}`).padStart(6)} ${(r.errorRate * 100).toFixed(1).padStart(6)}%`, width)}
        </Text>
      ))}
      {m.analysis && <Text wrap="truncate">{fit(m.analysis, width)}</Text>}
      {m.notes.slice(0, 2).map((n, i) => <Text key={i} color="gray" wrap="truncate">{fit(n, width)}</Text>)}
    </Box>
  );
}
