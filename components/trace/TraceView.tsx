import { Box, Text } from 'ink';
import { memo, useMemo } from 'react';
import { useConsoleState } from '../state/context.js';
import { TRACE_TOOLS } from '../state/reducer.js';
import { demoLoading, loadingNote, runningCall } from '../state/views.js';
import type { TraceJson, TraceNodeJson } from '../state/types.js';
import { fit, ms, plural, width as cells, wrap } from '../panes/format.js';
import { type Line, ScrollLines } from '../panes/ScrollLines.js';
import { colorEnabled, serviceColor, TAG_COLORS } from '../theme/palette.js';
import { COMPACT_TREE_BELOW, duration, flagText, nameParts, rowColumns, sourceTag, tagsWidth, treePrefix } from './row-layout.js';
import { type TreeRow, barCells, visibleRows } from './rows.js';
import { useStickyStart } from '../panes/sticky-window.js';
import { ruler } from './ruler.js';
import { TraceList } from './TraceList.js';
import { matchCount } from './search.js';
import { FilterLine } from '../input/LineInput.js';

const COLOR = colorEnabled();

/** One span row; memoised, so a cursor move re-renders the two rows whose selection changed. */
const Row = memo(function Row({ row, trace, selected, nameW, barW, tagsW, compact }: { row: TreeRow; trace: TraceJson; selected: boolean; nameW: number; barW: number; tagsW: number; compact: boolean }) {
  const n = row.node;
  const fold = row.hasChildren ? (row.folded ? '▸' : '▾') : ' ';
  const name = nameParts(`${fold}${treePrefix(row.prefix, nameW)} `, n.service, n.name, nameW);
  const f = flagText(n, compact);
  const tag = sourceTag(n.source, compact);
  const tagCells = cells(tag) + cells(f.error) + cells(f.slow) + cells(f.merged) + cells(f.orphan) + cells(f.linked);
  const bar = barW ? barCells(n.offsetMs, n.durationMs, trace.durationMs, barW) : null;
  return (
    <Text inverse={selected}>
      {name.head}
      <Text color={serviceColor(n.service)}>{name.service}</Text>
      {`${name.rest} `}
      <Text color={TAG_COLORS[n.source]}>{tag}</Text>
      {f.error && <Text color={TAG_COLORS.error} bold>{f.error}</Text>}
      {f.slow && <Text color={TAG_COLORS.slow}>{f.slow}</Text>}
      {f.merged && <Text color={TAG_COLORS.ebpf}>{f.merged}</Text>}
      {f.orphan && <Text color="gray">{f.orphan}</Text>}
      {f.linked && <Text color="gray">{f.linked}</Text>}
      {' '.repeat(Math.max(0, tagsW - tagCells))}
      {duration(ms(n.durationMs))}
      {bar && ` ${' '.repeat(bar[0])}`}
      {bar && (COLOR ? <Text backgroundColor={n.error ? TAG_COLORS.error : serviceColor(n.service)}>{' '.repeat(bar[1])}</Text> : (n.error ? '▓' : '█').repeat(bar[1]))}
      {bar && ' '.repeat(bar[2])}
    </Text>
  );
});

/** Everything known about a span, wrapped to the pane: it scrolls when it does not fit. */
export function spanLines(node: TraceNodeJson, trace: TraceJson, width: number): Line[] {
  const raw: Line[] = [
    { text: `${sourceTag(node.source)} ${node.service}: ${node.name} (${node.kind}) ${ms(node.durationMs)}, self ${ms(node.selfMs)}, at +${ms(node.offsetMs)}`, bold: true },
    { text: `span ${node.spanId} parent ${node.parentSpanId || '(root)'}` },
  ];
  if (node.error) raw.push({ text: `ERROR ${node.statusMessage}`, color: TAG_COLORS.error });
  if (node.merged) raw.push({ text: `eBPF twin ${node.merged.spanId}: ${ms(node.merged.durationMs)}, queue ${ms(node.merged.queueMs)}, status ${node.merged.statusCode}${node.merged.httpStatusCode ? ` HTTP ${node.merged.httpStatusCode}` : ''}${node.merged.rpcStatusCode !== null ? ` gRPC ${node.merged.rpcStatusCode}` : ''}` });
  raw.push({ text: 'attributes:', bold: true }, ...Object.entries(node.attributes).map(([k, v]) => ({ text: `  ${k} = ${JSON.stringify(v)}` })));
  const links = node.links ?? [];
  if (links.length) raw.push({ text: `links (l opens ${links.length > 1 ? 'the first other trace' : 'it'}):`, bold: true }, ...links.map((l) => ({ text: `  trace ${l.traceId}${l.spanId ? ` span ${l.spanId}` : ''}` })));
  if (node.events.length) raw.push({ text: 'events:', bold: true }, ...node.events.map((e) => ({ text: `  ${JSON.stringify(e)}` })));
  const resource = trace.resources[`${node.service} ${node.source}`];
  if (resource) raw.push({ text: 'resource:', bold: true }, ...Object.entries(resource).map(([k, v]) => ({ text: `  ${k} = ${JSON.stringify(v)}` })));
  return raw.flatMap((l) => wrap(l.text, width).map((text) => ({ ...l, text })));
}

function SpanDetail({ node, trace, width, height }: { node: TraceNodeJson; trace: TraceJson; width: number; height: number }) {
  const lines = useMemo(() => spanLines(node, trace, width - 2), [node, trace, width]);
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="gray" height={height} width={width}>
      <ScrollLines lines={lines} width={width - 2} height={height - 2} target="detail" keys="PgUp/PgDn · d closes" />
    </Box>
  );
}

/** The trace view: the list, or one trace as a windowed tree; only the visible rows are drawn. */
export function TraceView({ width, height }: { width: number; height: number }) {
  const s = useConsoleState();
  const t = s.trace;
  const trace = t.open === null ? null : t.traces[t.open];
  const rows = trace ? visibleRows(trace.roots, t.folded, t.cursor) : [];
  // Within the pane, below the header and one tree row: its border never lands on the pane's.
  const detailHeight = t.detail ? Math.max(3, Math.min(height - 3, Math.max(6, Math.floor(height / 2)))) : 0;
  const treeHeight = Math.max(1, height - 2 - detailHeight - (t.searching ? 1 : 0));
  const start = useStickyStart(rows.length, t.cursor, treeHeight, `${width}x${height}`);
  if (t.traces.length === 0) {
    const finding = runningCall(s.toolCalls, TRACE_TOOLS);
    const idle = finding
      ? `Finding traces${typeof finding.args.service === 'string' ? ` of ${finding.args.service}` : ''}…${loadingNote(s.status.loading)}`
      : s.status.loading !== null
        ? `${demoLoading(s.status.loading)}: the worst traces of its newest minutes show first.`
        : 'No traces yet: ask a question, or run :traces [service] --min 500ms';
    const notice = t.notice ?? { text: idle, error: false };
    return (
      <Box flexDirection="column">
        {wrap(`${notice.error ? '✗ ' : ''}${notice.text}`, width).map((l, i) => <Text key={i} color={notice.error ? TAG_COLORS.error : 'gray'}>{l}</Text>)}
      </Box>
    );
  }
  if (!trace) return <TraceList view={t} width={width} height={height} />;
  const shown = rows.slice(start, start + treeHeight);
  // The tag column is as wide as the trace's widest tag and markers.
  const tagsW = tagsWidth(trace.roots);
  const cols = rowColumns(width, tagsW, tagsWidth(trace.roots, true));
  const found = t.search ? matchCount(trace.roots, t.search, rows[t.cursor]?.node) : null;
  const searchNote = found ? `"${t.search}" ${found.index ? `${found.index} of ${found.total}` : `${found.total} found`} (n/N) · ` : '';
  const header = `Trace ${trace.traceId.slice(0, 16)} · ${ms(trace.durationMs)} · ${plural(trace.spanCount, 'span')} · ${plural(trace.services.length, 'service')} · depth ${trace.depth}${trace.incomplete ? ' · INCOMPLETE' : ''}`;
  return (
    <Box flexDirection="column">
      <Text bold>{fit(header, width)}</Text>
      <Text color="gray">
        {fit(`${searchNote}${rows.length > treeHeight ? `rows ${start + 1}-${Math.min(rows.length, start + treeHeight)} of ${rows.length}` : plural(rows.length, 'row')}${t.traces.length > 1 ? ' · Esc: trace list' : ''}${!s.zoomed && cols.name < COMPACT_TREE_BELOW ? ' · z: zoom' : ''}`, width - cols.bar)}
        {ruler(trace.durationMs, cols.bar)}
      </Text>
      {shown.map((r, i) => (
        <Row key={r.node.spanId} row={r} trace={trace} selected={start + i === t.cursor} nameW={cols.name} barW={cols.bar} tagsW={cols.tags} compact={cols.compact} />
      ))}
      {t.searching && <FilterLine filter={t.search} width={width} />}
      {t.detail && rows[t.cursor] && <SpanDetail node={rows[t.cursor].node} trace={trace} width={width} height={detailHeight} />}
    </Box>
  );
}

