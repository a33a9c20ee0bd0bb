import type { Source } from '../store/rows.js';
import type { HistogramOperationRow, SpanBucketRow } from '../store/queries/operations.js';
import { type BucketCounts, mergeHistograms, total } from './histogram.js';
import { type LatencyVerdict, Z_ERRORS, fromLogBuckets, latencyChange, proportionZ } from './stats.js';

/**
 * Change detection per operation (pure): a route, gRPC method or SQL statement that regressed stands
 * out even when its service's overall percentiles hide it. Each source is compared only with itself
 * (SDK spans with SDK spans, Beyla histograms with Beyla histograms), so sources never need matching names.
 */
export type Basis = 'spans' | 'histogram';

export interface OperationView {
  service: string;
  source: Source;
  basis: Basis;
  kind: 'server' | 'db';
  operation: string;
  /** Durations in milliseconds. */
  histogram: BucketCounts;
  requests: number;
  errors: number;
}

const viewKey = (v: Pick<OperationView, 'service' | 'source' | 'basis' | 'kind' | 'operation'>) => `${v.service}|${v.source}|${v.basis}|${v.kind}|${v.operation}`;

export function spanViews(rows: readonly SpanBucketRow[]): OperationView[] {
  const groups = new Map<string, { view: Omit<OperationView, 'histogram'>; buckets: { bucket: number; count: number }[] }>();
  for (const r of rows) {
    const key = viewKey({ ...r, basis: 'spans' });
    let g = groups.get(key);
    if (!g) {
      g = { view: { service: r.service, source: r.source, basis: 'spans', kind: r.kind, operation: r.operation, requests: 0, errors: 0 }, buckets: [] };
      groups.set(key, g);
    }
    g.view.requests += r.requests;
    g.view.errors += r.errors;
    g.buckets.push({ bucket: r.bucket, count: r.requests });
  }
  return [...groups.values()].map((g) => ({ ...g.view, histogram: fromLogBuckets(g.buckets) }));
}

export function histogramViews(rows: readonly HistogramOperationRow[]): OperationView[] {
  const groups = new Map<string, { view: Omit<OperationView, 'histogram'>; parts: BucketCounts[] }>();
  for (const r of rows) {
    const key = viewKey({ ...r, basis: 'histogram' });
    let g = groups.get(key);
    if (!g) {
      g = { view: { service: r.service, source: r.source, basis: 'histogram', kind: r.kind, operation: r.operation, requests: 0, errors: 0 }, parts: [] };
      groups.set(key, g);
    }
    const n = total(r.histogram);
    g.view.requests += n;
    if (r.failed) g.view.errors += n;
    g.parts.push(r.histogram);
  }
  const out: OperationView[] = [];
  for (const g of groups.values()) {
    const merged = mergeHistograms(g.parts);
    if (merged) out.push({ ...g.view, histogram: { bounds: merged.bounds, counts: merged.counts } });
  }
  return out;
}

export interface ErrorVerdict {
  z: number;
  /** Significantly more failures than before, by at least a point of error rate. */
  rising: boolean;
  /** Failing now, but about as much as before: not new. */
  chronic: boolean;
}

/** With nothing to compare against, the error rate a healthy service would not reach. */
export const NO_BASELINE_ERROR_RATE = 0.05;

export function errorChange(errors: number, requests: number, prevErrors: number, prevRequests: number): ErrorVerdict {
  const rate = requests === 0 ? 0 : errors / requests;
  if (prevRequests === 0) {
    // No previous window (a colony that just started, a new service): failing at a rate no healthy
    // service has, on enough requests, is news; what is new cannot be chronic.
    const z = requests === 0 ? 0 : (rate - 0.01) / Math.sqrt((0.01 * 0.99) / requests);
    return { z, rising: errors >= 5 && rate >= NO_BASELINE_ERROR_RATE && z >= Z_ERRORS, chronic: false };
  }
  const prevRate = prevRequests === 0 ? 0 : prevErrors / prevRequests;
  const z = proportionZ(errors, requests, prevErrors, prevRequests);
  const rising = errors >= 3 && rate - prevRate >= 0.01 && z >= Z_ERRORS;
  return { z, rising, chronic: !rising && errors >= 3 && rate >= 0.01 && prevRate >= 0.01 };
}

export interface OperationChange {
  service: string;
  operation: string;
  kind: 'server' | 'db';
  source: Source;
  basis: Basis;
  requests: number;
  prevRequests: number;
  errorRate: number;
  prevErrorRate: number | null;
  errors: ErrorVerdict;
  latency: LatencyVerdict;
}

/** Every operation seen in this window against the same operation, same source, in the previous one. */
export function compareOperations(now: readonly OperationView[], prev: readonly OperationView[]): OperationChange[] {
  const before = new Map(prev.map((v) => [viewKey(v), v]));
  const empty = (v: OperationView): OperationView => ({ ...v, requests: 0, errors: 0, histogram: { bounds: v.histogram.bounds, counts: v.histogram.counts.map(() => 0) } });
  return now.map((v) => {
    const p = before.get(viewKey(v)) ?? empty(v);
    return {
      service: v.service,
      operation: v.operation,
      kind: v.kind,
      source: v.source,
      basis: v.basis,
      requests: v.requests,
      prevRequests: p.requests,
      errorRate: v.requests === 0 ? 0 : v.errors / v.requests,
      prevErrorRate: p.requests === 0 ? null : p.errors / p.requests,
      errors: errorChange(v.errors, v.requests, p.errors, p.requests),
      latency: latencyChange(v.histogram, p.histogram),
    };
  });
}

/** One service as one source saw it: the sum of the requests it served. */
export interface ServiceView {
  service: string;
  source: Source;
  basis: Basis;
  requests: number;
  errors: number;
  histogram: BucketCounts;
}

/** Served requests per (service, source, basis): the candidates for "the source that saw the most". */
export function serviceViews(views: readonly OperationView[]): ServiceView[] {
  const groups = new Map<string, { view: Omit<ServiceView, 'histogram'>; parts: BucketCounts[] }>();
  for (const v of views) {
    if (v.kind !== 'server') continue;
    const key = `${v.service}|${v.source}|${v.basis}`;
    let g = groups.get(key);
    if (!g) {
      g = { view: { service: v.service, source: v.source, basis: v.basis, requests: 0, errors: 0 }, parts: [] };
      groups.set(key, g);
    }
    g.view.requests += v.requests;
    g.view.errors += v.errors;
    g.parts.push(v.histogram);
  }
  const out: ServiceView[] = [];
  for (const g of groups.values()) {
    const merged = mergeHistograms(g.parts);
    if (merged) out.push({ ...g.view, histogram: { bounds: merged.bounds, counts: merged.counts } });
  }
  return out;
}

/**
 * The view that saw the most of a service's requests (spans win a tie: they are exact; then the SDK's,
 * so the choice never depends on the order a store returned rows in), and the views
 * that saw at least half as many: only those may rank the service; a sampled source only confirms.
 */
export function bestViews(views: readonly ServiceView[]): Map<string, { best: ServiceView; eligible: Set<string> }> {
  const out = new Map<string, { best: ServiceView; eligible: Set<string> }>();
  const byService = new Map<string, ServiceView[]>();
  for (const v of views) byService.set(v.service, [...(byService.get(v.service) ?? []), v]);
  for (const [service, list] of byService) {
    const rank = (v: ServiceView) => (v.basis === 'spans' ? 0 : 2) + (v.source === 'otlp' ? 0 : 1);
    const best = [...list].sort((a, b) => b.requests - a.requests || rank(a) - rank(b))[0];
    out.set(service, { best, eligible: new Set(list.filter((v) => v.requests >= 0.5 * best.requests).map((v) => `${v.source}|${v.basis}`)) });
  }
  return out;
}

export const viewLabel = (v: { source: Source; basis: Basis }) => `${v.source === 'ebpf' ? 'eBPF' : 'SDK'} ${v.basis === 'spans' ? 'spans' : 'histogram'}`;
