import { Box, Text } from 'ink';
import { useRef } from 'react';
import { useConsoleState } from '../state/context.js';
import type { TraceJson, TraceNodeJson } from '../state/types.js';
import { fit, ms } from '../panes/format.js';
import { type TreeRow, barCells, serviceColor, visibleRows, windowStart } from './rows.js';

const TAG = { ebpf: '[eBPF]', otlp: '[OTLP]' } as const;

function TraceList({ traces, cursor, width, height }: { traces: TraceJson[]; cursor: number; width: number; height: number }) {
  const start = windowStart(traces.length, cursor, height);
  return (
    <Box flexDirection="column">
      <Text color="gray" wrap="truncate">{fit(`${traces.length} traces · Enter opens one`, width)}</Text>
      {traces.slice(start, start + height - 1).map((t, i) => {
        const errors = countErrors(t.roots);
        return (
          <Text key={t.traceId} inverse={start + i === cursor} wrap="truncate">
            {fit(`${t.traceId.slice(0, 12)} ${ms(t.durationMs).padStart(7)} ${String(t.spanCount).padStart(4)} spans ${errors ? `✗${errors} ` : ''}${t.services.slice(0, 4).join(', ')}`, width)}
          </Text>
        );
      })}
    </Box>
  );
}

function countErrors(nodes: TraceNodeJson[]): number {
  return nodes.reduce((n, x) => n + (x.error ? 1 : 0) + countErrors(x.children), 0);
}

function Row({ row, trace, selected, width, barWidth }: { row: TreeRow; trace: TraceJson; selected: boolean; width: number; barWidth: number }) {
  const n = row.node;
  const fold = row.hasChildren ? (row.folded ? '▸' : '▾') : ' ';
  const flags = `${n.error ? ' ✗' : ''}${n.slow ? ' ← SLOW' : ''}${n.merged ? ' +eBPF' : ''}${n.orphan ? ' (orphan)' : ''}`;
  const dur = ms(n.durationMs).padStart(8);
  const head = `${fold}${row.prefix} `;
  const tag = `${TAG[n.source]} `;
  // Every segment is measured here, so ink never has to truncate or wrap a row: that work grows with
  // every styled character on screen, and a tree is most of the screen.
  // Coloured background cells, not block characters: ASCII keeps ink's per-frame width work cheap.
  const bar = barCells(n.offsetMs, n.durationMs, trace.durationMs, barWidth);
  const nameWidth = Math.max(4, width - head.length - tag.length - n.service.length - 2 - flags.length - dur.length - 1 - barWidth);
  return (
    <Text inverse={selected}>
      {head}
      <Text color={n.source === 'ebpf' ? 'magenta' : 'blue'}>{tag}</Text>
      <Text color={serviceColor(n.service)}>{n.service}</Text>
      {`: ${fit(n.name, nameWidth)}`}
      {flags && <Text color={n.error ? 'red' : 'yellow'}>{flags}</Text>}
      {`${dur} ${' '.repeat(bar[0])}`}
      <Text backgroundColor={n.error ? 'red' : serviceColor(n.service)}>{' '.repeat(bar[1])}</Text>
    </Text>
  );
}

function SpanDetail({ node, trace, width, height }: { node: TraceNodeJson; trace: TraceJson; width: number; height: number }) {
  const lines: string[] = [
    `${TAG[node.source]} ${node.service}: ${node.name} (${node.kind}) ${ms(node.durationMs)}, self ${ms(node.selfMs)}, at +${ms(node.offsetMs)}`,
    `span ${node.spanId} parent ${node.parentSpanId || '(root)'}${node.error ? ` · ERROR ${node.statusMessage}` : ''}`,
  ];
  if (node.merged) lines.push(`eBPF twin ${node.merged.spanId}: ${ms(node.merged.durationMs)}, queue ${ms(node.merged.queueMs)}, status ${node.merged.statusCode}${node.merged.httpStatusCode ? ` HTTP ${node.merged.httpStatusCode}` : ''}${node.merged.rpcStatusCode !== null ? ` gRPC ${node.merged.rpcStatusCode}` : ''}`);
  lines.push('attributes:', ...Object.entries(node.attributes).map(([k, v]) => `  ${k} = ${JSON.stringify(v)}`));
  if (node.events.length) lines.push('events:', ...node.events.map((e) => `  ${JSON.stringify(e)}`));
  const resource = trace.resources[`${node.service} ${node.source}`];
  if (resource) lines.push('resource:', ...Object.entries(resource).map(([k, v]) => `  ${k} = ${JSON.stringify(v)}`));
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="gray" height={height}>
      {lines.slice(0, Math.max(1, height - 2)).map((l, i) => <Text key={i} wrap="truncate">{fit(l, width - 2)}</Text>)}
    </Box>
  );
}

/** The trace view: the list, or one trace as a windowed tree; only the visible rows are drawn. */
export function TraceView({ width, height }: { width: number; height: number }) {
  const s = useConsoleState();
  const t = s.trace;
  const trace = t.open === null ? null : t.traces[t.open];
  const rows = trace ? visibleRows(trace.roots, t.folded) : [];
  const prevStart = useRef(0);
  if (t.traces.length === 0) {
    return <Text color="gray">{fit('No traces yet: ask a question, or run :traces [service] --min 500ms', width)}</Text>;
  }
  if (!trace) return <TraceList traces={t.traces} cursor={t.listCursor} width={width} height={height} />;
  const detailHeight = t.detail ? Math.max(6, Math.floor(height / 2)) : 0;
  const treeHeight = Math.max(1, height - 2 - detailHeight);
  const start = windowStart(rows.length, t.cursor, treeHeight, prevStart.current);
  prevStart.current = start;
  const barWidth = Math.max(6, Math.min(24, Math.floor(width / 5)));
  const header = `Trace ${trace.traceId.slice(0, 16)} · ${ms(trace.durationMs)} · ${trace.spanCount} spans · ${trace.services.length} services · depth ${trace.depth}${trace.incomplete ? ' · INCOMPLETE' : ''}`;
  return (
    <Box flexDirection="column">
      <Text bold>{fit(header, width)}</Text>
      <Text color="gray">{fit(`${rows.length > treeHeight ? `rows ${start + 1}-${Math.min(rows.length, start + treeHeight)} of ${rows.length}` : `${rows.length} rows`}${t.traces.length > 1 ? ' · Esc: trace list' : ''}`, width)}</Text>
      {rows.slice(start, start + treeHeight).map((r, i) => (
        <Row key={r.node.spanId} row={r} trace={trace} selected={start + i === t.cursor} width={width} barWidth={barWidth} />
      ))}
      {t.detail && rows[t.cursor] && <SpanDetail node={rows[t.cursor].node} trace={trace} width={width} height={detailHeight} />}
    </Box>
  );
}
