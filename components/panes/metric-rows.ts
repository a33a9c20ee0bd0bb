import { httpOperation } from '../../src/colony/unified/names.js';
import { isStreamMethod } from '../../src/colony/unified/streams.js';

/**
 * The Metrics tab's rows (pure): one per operation and source from coral_query_metrics, in the
 * order s cycles (worst P95 first, highest error rate, most requests, name), and what Enter
 * filters the service's traces by.
 */
export interface MetricRow { source: string; protocol: string; httpRoute: string | null; httpMethod: string | null; rpcService: string | null; rpcMethod: string | null; dbOperation: string | null; dbTable: string | null; requests: number; errorRate: number; p50Ms: number | null; p95Ms: number | null; p99Ms: number | null; percentilesAtLeast: boolean }
export interface MetricsJson { service: string; timeRange: string; window?: { label: string; absolute: boolean }; sections: { rows: MetricRow[] }[]; analysis: string; notes: string[]; unknownService?: string | null; args?: Record<string, unknown>; error?: string }

export const METRIC_SORTS = ['p95', 'errors', 'requests', 'name'] as const;
export type MetricSort = (typeof METRIC_SORTS)[number];
/** Short: the order goes first in the table's header, which a narrow pane cuts. */
export const METRIC_SORT_TITLES: Record<MetricSort, string> = { p95: 'by P95', errors: 'by error rate', requests: 'by requests', name: 'by name' };
export const nextMetricSort = (s: MetricSort): MetricSort => METRIC_SORTS[(METRIC_SORTS.indexOf(s) + 1) % METRIC_SORTS.length];

export const operationName = (r: MetricRow) => (r.protocol === 'http' ? httpOperation(r.httpMethod, r.httpRoute) : r.protocol === 'grpc' ? `${r.rpcService ? `${r.rpcService.split('.').pop()}/` : ''}${r.rpcMethod}${isStreamMethod(r.rpcMethod) ? ' (stream)' : ''}` : `${r.dbOperation ?? ''} ${r.dbTable ?? ''}`.trim());

const byName = (a: MetricRow, b: MetricRow) => operationName(a).localeCompare(operationName(b)) || a.source.localeCompare(b.source);
const ORDER: Record<MetricSort, (a: MetricRow, b: MetricRow) => number> = {
  p95: (a, b) => (b.p95Ms ?? -1) - (a.p95Ms ?? -1) || byName(a, b),
  errors: (a, b) => b.errorRate - a.errorRate || b.requests - a.requests || byName(a, b),
  requests: (a, b) => b.requests - a.requests || byName(a, b),
  name: byName,
};

const sorted = new WeakMap<object, Partial<Record<MetricSort, MetricRow[]>>>();

/** The rows as shown, sorted (remembered per result and order: every key and frame asks). */
export function metricRows(m: Record<string, unknown> | null, sort: MetricSort): MetricRow[] {
  const sections = (m as MetricsJson | null)?.sections;
  if (!m || !Array.isArray(sections)) return [];
  const known = sorted.get(m) ?? {};
  const hit = known[sort];
  if (hit) return hit;
  const rows = sections.flatMap((s) => s.rows).sort(ORDER[sort]);
  sorted.set(m, { ...known, [sort]: rows });
  return rows;
}

/** What Enter filters the service's traces by: the route, the method or the table the row is about. */
export function operationFilter(r: MetricRow): string {
  const word = r.protocol === 'http' ? r.httpRoute ?? r.httpMethod : r.protocol === 'grpc' ? r.rpcMethod : r.dbTable ?? r.dbOperation;
  // One word of the list filter: a space would split it into two terms.
  return (word ?? '').split(/\s+/).filter(Boolean).sort((a, b) => b.length - a.length)[0] ?? '';
}
