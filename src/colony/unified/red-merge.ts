import { formatCount, formatMs, formatPercent } from '../../core/format.js';
import type { Protocol, RedRow } from '../store/queries/red.js';
import type { Source } from '../store/rows.js';
import { httpOperation, httpRoutePart, normalizeRoute } from './names.js';
import { tag } from './render-tree.js';
import { isStreamMethod } from './streams.js';

/**
 * Merging RED metrics from both sources (pure). Per source the better basis wins: for eBPF the
 * histograms (Beyla's metrics count every request; its traces may be sampled), for the SDK the spans
 * (exact percentiles). The two sources are then compared operation by operation.
 */
export interface RedSection {
  protocol: Protocol;
  source: Source;
  basis: 'spans' | 'histogram';
  rows: RedRow[];
}

const PROTOCOL_TITLE: Record<Protocol, string> = { http: 'HTTP', grpc: 'gRPC', sql: 'SQL' };

export function chooseSections(protocols: Protocol[], fromSpans: RedRow[], fromHistograms: RedRow[]): RedSection[] {
  const out: RedSection[] = [];
  for (const protocol of protocols) {
    for (const source of ['ebpf', 'otlp'] as const) {
      const spans = fromSpans.filter((r) => r.protocol === protocol && r.source === source);
      const hist = fromHistograms.filter((r) => r.protocol === protocol && r.source === source);
      const [first, second] = source === 'ebpf' ? [hist, spans] : [spans, hist];
      const rows = first.length > 0 ? first : second;
      if (rows.length > 0) out.push({ protocol, source, basis: rows[0].basis, rows });
    }
  }
  return out;
}

/** The operation a row describes, spelled the same whichever source reported it. */
export function operationKey(r: RedRow): string {
  if (r.protocol === 'http') return `${r.httpMethod ?? ''} ${normalizeRoute(httpRoutePart(r.httpMethod, r.httpRoute) ?? '')}`;
  if (r.protocol === 'grpc') return `${r.rpcService ?? ''}/${r.rpcMethod ?? ''}`.toLowerCase();
  return `${r.dbOperation ?? ''} ${r.dbTable ?? ''}`.toLowerCase();
}

const isStreamRow = (r: RedRow) => r.protocol === 'grpc' && isStreamMethod(r.rpcMethod);

export function operationLabel(r: RedRow): string {
  if (r.protocol === 'http') {
    const route = httpRoutePart(r.httpMethod, r.httpRoute);
    return route ? `Route: ${route} (${r.httpMethod ?? '?'})` : `Operation: ${httpOperation(r.httpMethod, null)} (no route)`;
  }
  if (r.protocol === 'grpc') return `Method: ${r.rpcService ? `${r.rpcService}/` : ''}${r.rpcMethod ?? '?'}${isStreamRow(r) ? ' (stream: durations are how long clients stayed connected)' : ''}`;
  return `Operation: ${[r.dbOperation, r.dbTable].filter(Boolean).join(' ') || '(unknown)'} (${r.dbSystem ?? 'db'})`;
}

const pct = (v: number | null, atLeast: boolean) => (v === null ? 'n/a' : `${atLeast ? '>=' : ''}${formatMs(v)}`);

export function rowLine(r: RedRow): string {
  return `${operationLabel(r)}, Requests: ${formatCount(r.requests)}, P50: ${pct(r.p50Ms, false)}, P95: ${pct(r.p95Ms, r.percentilesAtLeast)}, P99: ${pct(r.p99Ms, r.percentilesAtLeast)}, Errors: ${formatPercent(r.errorRate)}`;
}

export function sectionLines(s: RedSection): string[] {
  const basis = s.basis === 'histogram' ? (s.source === 'ebpf' ? 'eBPF histograms, every request' : 'SDK histograms') : 'spans, exact percentiles';
  return [`${PROTOCOL_TITLE[s.protocol]} Metrics ${tag(s.source)} (${basis}):`, ...s.rows.map((r) => `  ${rowLine(r)}`)];
}

/** Where the two sources disagree about the same operation, and the usual reason. */
export function compareSources(sections: RedSection[], limit = 3): string[] {
  const notes: string[] = [];
  for (const protocol of ['http', 'grpc', 'sql'] as const) {
    const ebpf = sections.find((s) => s.protocol === protocol && s.source === 'ebpf');
    const otlp = sections.find((s) => s.protocol === protocol && s.source === 'otlp');
    if (!ebpf || !otlp) continue;
    const otlpByKey = new Map(otlp.rows.map((r) => [operationKey(r), r]));
    for (const e of ebpf.rows) {
      const o = otlpByKey.get(operationKey(e));
      if (!o) continue;
      const label = operationLabel(o);
      if (Math.abs(e.requests - o.requests) > 0.1 * Math.max(e.requests, o.requests)) {
        notes.push(`${label}: eBPF counted ${formatCount(e.requests)} requests, OTLP ${formatCount(o.requests)}; ${e.requests > o.requests ? 'the SDK is probably sampling (eBPF sees every request)' : 'eBPF may have missed some (it started later, or not every pod runs the eBPF agent)'}.`);
      }
      if (e.p50Ms !== null && o.p50Ms !== null && e.p50Ms - o.p50Ms >= 0.3 && e.p50Ms > 1.1 * o.p50Ms) {
        notes.push(`${label}: eBPF P50 ${formatMs(e.p50Ms)} vs OTLP ${formatMs(o.p50Ms)}; eBPF includes time queued before the handler ran, which the SDK cannot see.`);
      }
    }
  }
  return notes.slice(0, limit);
}

/** One line on what stands out: the worst error rate and the slowest operation. */
export function analysis(sections: RedSection[]): string {
  const rows = sections.flatMap((s) => s.rows.map((r) => ({ r, s })));
  if (rows.length === 0) return '';
  const parts: string[] = [];
  const worst = rows.filter(({ r }) => r.errorRate >= 0.01 && r.errors >= 1).sort((a, b) => b.r.errorRate - a.r.errorRate)[0];
  if (worst) parts.push(`${operationLabel(worst.r).replace(/^\w+: /, '')} fails ${formatPercent(worst.r.errorRate)} of requests ${tag(worst.s.source)}`);
  else parts.push('no operation has a notable error rate');
  // A stream's P99 is a connection's lifetime, not a slow answer (streams.ts).
  const slowest = rows.filter(({ r }) => r.p99Ms !== null && !isStreamRow(r)).sort((a, b) => (b.r.p99Ms ?? 0) - (a.r.p99Ms ?? 0))[0];
  if (slowest) parts.push(`slowest P99 is ${pct(slowest.r.p99Ms, slowest.r.percentilesAtLeast)} on ${operationLabel(slowest.r).replace(/^\w+: /, '')} ${tag(slowest.s.source)}`);
  return `Analysis: ${parts.join('; ')}.`;
}
