import { formatCount, formatMs, plural } from '../../core/format.js';
import type { SpanLink } from '../store/span-links.js';
import { nsToIso } from '../../core/time.js';
import { GRPC_CODE_NAMES } from '../../core/grpc.js';
import { type TraceTree, type TreeNode, flatten } from './span-tree.js';

/** The source tag every span line carries. */
export const tag = (source: 'ebpf' | 'otlp') => (source === 'ebpf' ? '[eBPF]' : '[OTLP]');

function statusText(n: TreeNode): string {
  if (!n.error) return '';
  const parts: string[] = [];
  if (n.httpStatusCode !== null && n.httpStatusCode >= 400) parts.push(`HTTP ${n.httpStatusCode}`);
  else if (n.rpcStatusCode !== null && n.rpcStatusCode !== 0) parts.push(`gRPC ${GRPC_CODE_NAMES[n.rpcStatusCode] ?? n.rpcStatusCode}`);
  const msg = n.statusMessage.length > 120 ? `${n.statusMessage.slice(0, 117)}...` : n.statusMessage;
  if (msg) parts.push(msg);
  return ` ✗ ERROR${parts.length ? ` (${parts.join(': ')})` : ''}`;
}

/** Links in full ids (an investigator asks for the linked trace by its id); past three, a count. */
export function linksText(links: readonly SpanLink[]): string {
  if (links.length === 0) return '';
  const shown = links.slice(0, 3).map((l) => `trace ${l.traceId}${l.spanId ? ` span ${l.spanId}` : ''}`);
  const more = links.length > 3 ? `, +${links.length - 3} more` : '';
  return ` ↪ ${plural(links.length, 'link')}: ${shown.join(', ')}${more}`;
}

export function spanLine(n: TreeNode): string {
  let line = `${tag(n.source)} ${n.service}: ${n.name} (${formatMs(n.durationMs)})`;
  if (n.merged) line += ` +eBPF${n.merged.queueMs >= 0.05 ? ` queue ${formatMs(n.merged.queueMs)}` : ''}`;
  line += statusText(n);
  if (n.slow) line += ' ← SLOW';
  if (n.orphan) line += ` (orphan: parent ${n.parentSpanId} not in trace)`;
  return line + linksText(n.links);
}

export function traceHeader(t: TraceTree): string {
  return `Trace: ${t.traceId} (Duration: ${formatMs(t.durationMs)}, Start: ${nsToIso(t.startNs).replace(/\.\d{3}Z$/, 'Z')})`
    + ` · ${t.spanCount} spans${t.mergedCount ? ` (${t.mergedCount} eBPF twins merged)` : ''}, ${t.services.length} services, depth ${t.depth}`
    + (t.incomplete ? ' · INCOMPLETE: some parents are missing' : '');
}

/** The tree drawn with ├─ │ └─, at most `maxLines` span lines; says how many were left out. */
export function renderTree(t: TraceTree, maxLines = Infinity): string[] {
  const lines = [traceHeader(t)];
  const rows = flatten(t.roots);
  const shown = Math.min(rows.length, maxLines);
  for (const { node, prefix } of rows.slice(0, shown)) lines.push(`${prefix} ${spanLine(node)}`);
  if (rows.length > shown) lines.push(`… ${rows.length - shown} more spans not shown (ask for trace_id ${t.traceId} alone to see them all)`);
  return lines;
}
