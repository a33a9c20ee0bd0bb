import { formatMs } from '../../core/format.js';
import type { TraceTree, TreeNode } from './span-tree.js';

/**
 * What an investigator reads first about a trace, and the order a list of traces is shown in. Pure.
 * A trace list exists to find the bad trace: failing traces first, then the slowest.
 */
export const TRACE_ORDERS = ['errors', 'duration', 'recent'] as const;
export type TraceOrder = (typeof TRACE_ORDERS)[number];

export const ORDER_DESCRIPTIONS: Record<TraceOrder, string> = {
  errors: 'failing first, then slowest',
  duration: 'slowest first',
  recent: 'most recent first',
};

export interface TraceDigest {
  /** The earliest root span: the request as it entered. */
  rootService: string;
  rootName: string;
  errorCount: number;
  /** Every service the trace touched, those with an error span first (each group in first-seen order). */
  services: string[];
  errorServices: string[];
  /** Spans shown per source; `merged` counts eBPF twins folded into an SDK span. */
  sources: { otlp: number; ebpf: number; merged: number };
}

function walk(nodes: TreeNode[], visit: (n: TreeNode) => void): void {
  for (const n of nodes) {
    visit(n);
    walk(n.children, visit);
  }
}

export function digestTrace(t: Pick<TraceTree, 'roots' | 'mergedCount'>): TraceDigest {
  const seen: string[] = [];
  const failing = new Set<string>();
  let errorCount = 0;
  const sources = { otlp: 0, ebpf: 0, merged: t.mergedCount };
  walk(t.roots, (n) => {
    if (!seen.includes(n.service)) seen.push(n.service);
    if (n.error) {
      errorCount++;
      failing.add(n.service);
    }
    sources[n.source]++;
  });
  const errorServices = seen.filter((s) => failing.has(s));
  const root = t.roots[0];
  return {
    rootService: root?.service ?? '',
    rootName: root?.name ?? '',
    errorCount,
    services: [...errorServices, ...seen.filter((s) => !failing.has(s))],
    errorServices,
    sources,
  };
}

/** Sorts in place by the order asked for; ties go to the more recent trace, then the trace id. */
export function orderTraces<T extends { tree: TraceTree; digest: TraceDigest }>(items: T[], order: TraceOrder): T[] {
  const recent = (a: T, b: T) => (a.tree.startNs === b.tree.startNs ? a.tree.traceId.localeCompare(b.tree.traceId) : a.tree.startNs > b.tree.startNs ? -1 : 1);
  const slower = (a: T, b: T) => b.tree.durationMs - a.tree.durationMs;
  const failing = (a: T, b: T) => Number(b.digest.errorCount > 0) - Number(a.digest.errorCount > 0);
  const by: Record<TraceOrder, (a: T, b: T) => number> = {
    errors: (a, b) => failing(a, b) || slower(a, b) || recent(a, b),
    duration: (a, b) => slower(a, b) || recent(a, b),
    recent,
  };
  return items.sort(by[order]);
}

/** "eBPF+OTLP", "OTLP only"...: which sources saw the spans. */
export function sourceMix(d: TraceDigest): string {
  const ebpf = d.sources.ebpf + d.sources.merged > 0;
  const otlp = d.sources.otlp > 0;
  return ebpf && otlp ? 'eBPF+OTLP' : ebpf ? 'eBPF only' : otlp ? 'OTLP only' : 'none';
}

const pct = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;

/** Where an error starts: a failing span none of whose children failed (its callers only pass the error on). */
export const isErrorStart = (n: TreeNode) => n.error && !n.children.some((c) => c.error);

/**
 * One closing line over the traces shown: how many failed and where, where the time goes (self time:
 * what each service spent itself, not waiting on its callees), and which sources saw it.
 */
export function tracesAnalysis(items: { tree: TraceTree; digest: TraceDigest }[]): string {
  if (items.length === 0) return '';
  const failing = items.filter((i) => i.digest.errorCount > 0);
  // Where errors start: an error span none of whose children failed (callers only pass the error on).
  const originsBy = new Map<string, number>();
  const selfBy = new Map<string, number>();
  let selfTotal = 0;
  let slowSpan: TreeNode | null = null;
  for (const { tree } of items) {
    walk(tree.roots, (n) => {
      if (isErrorStart(n)) originsBy.set(n.service, (originsBy.get(n.service) ?? 0) + 1);
      selfBy.set(n.service, (selfBy.get(n.service) ?? 0) + n.selfMs);
      selfTotal += n.selfMs;
      if (n.slow && (!slowSpan || n.selfMs > slowSpan.selfMs)) slowSpan = n;
    });
  }
  const parts: string[] = [];
  if (failing.length > 0) {
    const where = [...originsBy].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3).map(([s, n]) => `${s} (${n})`);
    parts.push(`${failing.length} of ${items.length} traces failed; the errors start in ${where.join(', ')}`);
  } else parts.push(`none of the ${items.length} traces failed`);
  const top = [...selfBy].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (top && selfTotal > 0) {
    const s = slowSpan as TreeNode | null;
    parts.push(`most time is spent in ${top[0]} itself (${pct(top[1], selfTotal)} of all self time)${s ? `; slowest span ${s.service}: ${s.name} ${formatMs(s.selfMs)} of its own` : ''}`);
  }
  const spans = items.reduce((a, i) => ({ otlp: a.otlp + i.digest.sources.otlp, ebpf: a.ebpf + i.digest.sources.ebpf, merged: a.merged + i.digest.sources.merged }), { otlp: 0, ebpf: 0, merged: 0 });
  const seen = [
    ...(spans.otlp > 0 ? [`${spans.otlp} [OTLP] spans${spans.merged > 0 ? ` (${spans.merged} also seen by eBPF)` : ''}`] : []),
    ...(spans.ebpf > 0 ? [`${spans.ebpf} [eBPF]-only spans`] : []),
  ];
  if (seen.length > 0) parts.push(`sources: ${seen.join(', ')}`);
  return `Analysis: ${parts.join('; ')}.`;
}
