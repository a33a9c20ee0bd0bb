import type { SpanRecord } from '../store/queries/spans.js';
import type { SpanLink } from '../store/span-links.js';
import { normalizeSpanName } from './names.js';
import { isErrorSpan } from '../otlp/span-error.js';

/**
 * One trace as a tree, built from both sources and de-duplicated (REFERENCE section 3). Pure.
 *
 * The same request is often seen twice: by the SDK and by Beyla. The SDK span is kept as canonical
 * (richer attributes); the eBPF twin's evidence (queue time, its view of status) is attached, and
 * its children are re-pointed to the canonical span.
 */
export interface EbpfEvidence {
  spanId: string;
  /** How much earlier the eBPF span started: time queued before the handler ran. */
  queueMs: number;
  durationMs: number;
  statusCode: string;
  httpStatusCode: number | null;
  rpcStatusCode: number | null;
}

export interface TreeNode {
  spanId: string;
  parentSpanId: string;
  service: string;
  name: string;
  kind: string;
  source: 'ebpf' | 'otlp';
  /** Milliseconds from the trace's start. */
  offsetMs: number;
  durationMs: number;
  /** Time not covered by any child: where this span itself spent it. */
  selfMs: number;
  error: boolean;
  statusMessage: string;
  httpStatusCode: number | null;
  rpcStatusCode: number | null;
  /** A bottleneck: its own time is a large share of the trace. */
  slow: boolean;
  /** Its parent is not in the trace: the root of an orphan subtree. */
  orphan: boolean;
  merged: EbpfEvidence | null;
  /** For the span detail view (the text rendering leaves them out). */
  attributes: Record<string, unknown>;
  events: unknown[];
  /** Spans elsewhere this one points to (a batch's messages, a job's trigger), shown with it. */
  links: SpanLink[];
  children: TreeNode[];
}

export interface TraceTree {
  traceId: string;
  startNs: bigint;
  durationMs: number;
  spanCount: number;
  /** Spans folded into a canonical twin. */
  mergedCount: number;
  services: string[];
  depth: number;
  /** Some span's parent is missing. */
  incomplete: boolean;
  /** Resource attributes per service (and source), for the span detail view. */
  resources: Record<string, Record<string, unknown>>;
  roots: TreeNode[];
}

export interface BuildOptions {
  /** De-duplicate eBPF/SDK twins (default). Off, every stored span is shown. */
  dedupe?: boolean;
  /** A span is marked slow when its self time is at least this share of the trace (default 0.25). */
  slowShare?: number;
}

/**
 * Below this self time no span is a bottleneck, whatever its share: in a trace of 0.1 ms every
 * span holds a large share of almost nothing (and clock skew between processes decides which).
 */
export const MIN_SLOW_SELF_MS = 1;

const ms = (ns: bigint) => Number(ns) / 1e6;

function tolerance(a: SpanRecord, b: SpanRecord): number {
  return Math.max(5, 0.05 * Math.max(a.durationMs, b.durationMs)) * 1e6;
}

function close(a: SpanRecord, b: SpanRecord): boolean {
  const tol = tolerance(a, b);
  return Math.abs(Number(a.startNs - b.startNs)) <= tol && Math.abs(Number(a.endNs - b.endNs)) <= tol;
}

/** Rule 2: the eBPF and SDK SERVER spans of one inbound request share trace and parent. */
function sameInbound(e: SpanRecord, o: SpanRecord): boolean {
  return e.kind === 'SERVER' && o.kind === 'SERVER' && e.parentSpanId === o.parentSpanId && e.serviceName === o.serviceName
    && e.startNs <= o.startNs + 5_000_000n && e.endNs + 5_000_000n >= o.endNs;
}

/** Rule 3: same service and kind, equal normalised names, start and end within tolerance. */
function sameOperation(e: SpanRecord, o: SpanRecord, parentOf: (s: SpanRecord) => string): boolean {
  return e.kind === o.kind && e.serviceName === o.serviceName && parentOf(e) === parentOf(o)
    && normalizeSpanName(e.name) === normalizeSpanName(o.name) && close(e, o);
}

/** Returns, for each eBPF span folded into an OTLP twin, the twin's span id. */
export function findTwins(spans: SpanRecord[]): Map<string, string> {
  const twins = new Map<string, string>();
  const otlp = spans.filter((s) => s.source === 'otlp');
  const used = new Set<string>();
  const claim = (e: SpanRecord, match: (o: SpanRecord) => boolean) => {
    const o = otlp.find((x) => !used.has(x.spanId) && match(x));
    if (!o) return;
    twins.set(e.spanId, o.spanId);
    used.add(o.spanId);
  };
  for (const e of spans) if (e.source === 'ebpf') claim(e, (o) => sameInbound(e, o));
  // After servers merged, their children are siblings of the SDK's: compare parents through the merge.
  const parentOf = (s: SpanRecord) => twins.get(s.parentSpanId) ?? s.parentSpanId;
  for (const e of spans) if (e.source === 'ebpf' && !twins.has(e.spanId)) claim(e, (o) => sameOperation(e, o, parentOf));
  return twins;
}

export function buildTraceTree(traceId: string, input: SpanRecord[], opts: BuildOptions = {}): TraceTree {
  // Rule 1: a retried span (same trace and span id) is one span; the OTLP copy wins.
  const byId = new Map<string, SpanRecord>();
  for (const s of input) {
    const prev = byId.get(s.spanId);
    if (!prev || (prev.source === 'ebpf' && s.source === 'otlp')) byId.set(s.spanId, s);
  }
  const spans = [...byId.values()];
  const twins = opts.dedupe === false ? new Map<string, string>() : findTwins(spans);
  const ebpfOf = new Map<string, SpanRecord>();
  for (const [e, o] of twins) ebpfOf.set(o, byId.get(e) as SpanRecord);

  const kept = spans.filter((s) => !twins.has(s.spanId));
  const startNs = kept.reduce((m, s) => (s.startNs < m ? s.startNs : m), kept[0]?.startNs ?? 0n);
  const endNs = kept.reduce((m, s) => (s.endNs > m ? s.endNs : m), 0n);
  const traceMs = ms(endNs - startNs);
  const nodes = new Map<string, TreeNode>();
  for (const s of kept) {
    const e = ebpfOf.get(s.spanId);
    nodes.set(s.spanId, {
      spanId: s.spanId,
      parentSpanId: twins.get(s.parentSpanId) ?? s.parentSpanId,
      service: s.serviceName,
      name: s.name,
      kind: s.kind,
      source: s.source,
      offsetMs: ms(s.startNs - startNs),
      durationMs: s.durationMs,
      selfMs: s.durationMs,
      error: isErrorSpan(s) || (e !== undefined && isErrorSpan(e)),
      statusMessage: s.statusMessage,
      httpStatusCode: s.httpStatusCode,
      rpcStatusCode: s.rpcStatusCode,
      slow: false,
      orphan: false,
      merged: e ? {
        spanId: e.spanId,
        queueMs: Math.max(0, ms(s.startNs - e.startNs)),
        durationMs: e.durationMs,
        statusCode: e.statusCode,
        httpStatusCode: e.httpStatusCode,
        rpcStatusCode: e.rpcStatusCode,
      } : null,
      attributes: s.attributes,
      events: s.events,
      links: s.links,
      children: [],
    });
  }
  const roots: TreeNode[] = [];
  let incomplete = false;
  for (const n of nodes.values()) {
    const parent = n.parentSpanId ? nodes.get(n.parentSpanId) : undefined;
    if (parent) parent.children.push(n);
    else {
      if (n.parentSpanId) {
        n.orphan = true;
        incomplete = true;
      }
      roots.push(n);
    }
  }
  const byStart = (a: TreeNode, b: TreeNode) => a.offsetMs - b.offsetMs || a.spanId.localeCompare(b.spanId);
  const slowShare = opts.slowShare ?? 0.25;
  let depth = 0;
  const visit = (n: TreeNode, d: number) => {
    depth = Math.max(depth, d);
    n.children.sort(byStart);
    n.selfMs = Math.max(0, n.durationMs - coveredMs(n));
    n.slow = n.selfMs >= MIN_SLOW_SELF_MS && n.selfMs >= slowShare * traceMs;
    for (const c of n.children) visit(c, d + 1);
  };
  roots.sort(byStart);
  for (const r of roots) visit(r, 1);
  return {
    traceId,
    startNs,
    durationMs: traceMs,
    spanCount: nodes.size,
    mergedCount: twins.size,
    services: [...new Set(kept.map((s) => s.serviceName))].sort(),
    depth,
    incomplete,
    resources: Object.fromEntries(kept.map((s) => [`${s.serviceName} ${s.source}`, s.resourceAttributes])),
    roots,
  };
}

/** How much of a span's own interval its children cover (union of intervals, clipped to the span). */
function coveredMs(n: TreeNode): number {
  const start = n.offsetMs;
  const end = n.offsetMs + n.durationMs;
  const intervals = n.children
    .map((c) => [Math.max(start, c.offsetMs), Math.min(end, c.offsetMs + c.durationMs)] as const)
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let curStart = -Infinity;
  let curEnd = -Infinity;
  for (const [a, b] of intervals) {
    if (a > curEnd) {
      covered += curEnd - curStart > 0 ? curEnd - curStart : 0;
      curStart = a;
      curEnd = b;
    } else curEnd = Math.max(curEnd, b);
  }
  covered += curEnd - curStart > 0 ? curEnd - curStart : 0;
  return covered;
}

/** Every node of a tree in display order (depth-first). */
export interface FlatRow {
  node: TreeNode;
  depth: number;
  /** The ├─ │ └─ drawing in front of the span. */
  prefix: string;
}

/**
 * Depth-first rows with their tree prefix; the children of spans `isFolded` says are folded are left
 * out. `from` places `roots` under a parent row already drawn (its children's depth and lead).
 */
export function flatten(roots: TreeNode[], isFolded: (n: TreeNode) => boolean = () => false, from = { depth: 0, lead: '' }): FlatRow[] {
  const out: FlatRow[] = [];
  const walk = (nodes: TreeNode[], depth: number, lead: string) => {
    nodes.forEach((node, i) => {
      const last = i === nodes.length - 1;
      out.push({ node, depth, prefix: `${lead}${last ? '└─' : '├─'}` });
      if (node.children.length > 0 && !isFolded(node)) walk(node.children, depth + 1, `${lead}${last ? '   ' : '│  '}`);
    });
  };
  walk(roots, from.depth, from.lead);
  return out;
}
