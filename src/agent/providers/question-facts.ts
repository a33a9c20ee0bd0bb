import type { TopologyEdge } from '../../colony/store/queries/topology.js';
import { formatMs } from '../../core/format.js';
import type { ToolResult } from '../events.js';
import type { ServiceState } from '../understand/verdict.js';
import type { RouteAsked } from '../understand/entities.js';

/**
 * Reading this turn's tool results for the question triage (pure): which result is which, each
 * with its citation number and the arguments it was called with.
 */
export type Cited = ToolResult & { n: number; args: Record<string, unknown> };

export interface MetricRow {
  source: string; protocol: string; httpMethod: string | null; httpRoute: string | null; rpcService: string | null; rpcMethod: string | null;
  dbSystem?: string | null; dbOperation: string | null; dbTable: string | null; requests: number; errors: number; errorRate: number;
  p50Ms: number | null; p95Ms: number | null; p99Ms: number | null;
}

/** A result's citation, " [n]", or nothing. */
export const cite = (r: Cited | undefined) => (r ? ` [${r.n}]` : '');

export const tagOf = (source: string) => (source === 'ebpf' ? '[eBPF]' : '[OTLP]');
export const ms = (v: number | null) => (v === null ? 'n/a' : formatMs(v));

export function operation(r: MetricRow): string {
  if (r.protocol === 'http') return `${r.httpMethod ?? ''} ${r.httpRoute ?? ''}`.trim() || 'HTTP';
  if (r.protocol === 'grpc') return [r.rpcService, r.rpcMethod].filter(Boolean).join('/') || 'gRPC';
  return [r.dbOperation, r.dbTable].filter(Boolean).join(' ') || 'SQL';
}

export function metricRows(r: ToolResult | undefined): MetricRow[] {
  return ((r?.structured?.sections ?? []) as { rows: MetricRow[] }[]).flatMap((s) => s.rows);
}

/** The served operations (not outgoing database calls), busiest first. */
export const servedRows = (r: ToolResult | undefined) => metricRows(r).filter((x) => x.protocol !== 'sql').sort((a, b) => b.requests - a.requests);

export function summaryStates(r: ToolResult | undefined): ServiceState[] {
  return (r?.structured?.services ?? []) as ServiceState[];
}

export function standOutOf(r: ToolResult | undefined): ServiceState[] {
  return (r?.structured?.standOut ?? []) as ServiceState[];
}

/** What stands out first on its own account (not explained by another service). */
export function culpritOf(r: ToolResult | undefined): ServiceState | undefined {
  const stand = standOutOf(r);
  return stand.find((x) => !x.explainedBy) ?? stand[0];
}

/** The calls between services and to their peers, from coral_get_service_topology. */
export function topologyEdges(r: ToolResult | undefined): TopologyEdge[] {
  return (r?.structured?.edges ?? []) as TopologyEdge[];
}

/** A change event the summary lists (a deploy, a flag or config change, a restart). */
export interface SummaryEvent { time: string; serviceName: string; kind: string; title: string }

export function summaryEvents(r: ToolResult | undefined): SummaryEvent[] {
  return (r?.structured?.events ?? []) as SummaryEvent[];
}

/** Whether a route template ("/api/products/[id]") serves a typed path ("/api/products/OLJ" or the template itself). */
export function routeMatches(template: string, typed: string): boolean {
  const seg = (p: string) => p.toLowerCase().replace(/\/+$/, '').split('/');
  const t = seg(template);
  const a = seg(typed);
  if (t.length !== a.length) return false;
  return t.every((x, i) => x === a[i] || /^(\[.*\]|\{.*\}|:.+|\*)$/.test(x) || /^(\[.*\]|\{.*\}|:.+)$/.test(a[i]));
}

export interface RouteHit { service: string; rows: MetricRow[]; result: Cited }

/**
 * The service that serves a route: among the services whose HTTP operations match it, the one the
 * others call (frontend, behind frontend-proxy's ingress), else the busiest.
 */
export function routeServer(route: RouteAsked, metrics: readonly Cited[], edges: readonly { from: string; to: string }[]): RouteHit | undefined {
  const hits: RouteHit[] = [];
  for (const m of metrics) {
    const fits = (t: string) => (route.loose ? t.toLowerCase().split('/').some((seg) => seg.startsWith(route.path.slice(1))) : routeMatches(t, route.path));
    const rows = metricRows(m).filter((r) => r.protocol === 'http' && r.httpRoute && fits(r.httpRoute) && (!route.method || r.httpMethod?.toUpperCase() === route.method));
    if (rows.length > 0) hits.push({ service: m.structured?.service as string, rows, result: m });
  }
  const callee = hits.find((h) => hits.some((o) => o !== h && edges.some((e) => e.from === o.service && e.to === h.service)));
  return callee ?? hits.sort((a, b) => b.rows.reduce((s, r) => s + r.requests, 0) - a.rows.reduce((s, r) => s + r.requests, 0))[0];
}

/** The service that serves an operation named as code names it (gRPC method or span name): the busiest that does. */
export function operationServer(op: string, metrics: readonly Cited[]): RouteHit | undefined {
  const want = op.toLowerCase();
  const hits = metrics.map((m) => ({
    service: m.structured?.service as string,
    rows: metricRows(m).filter((r) => r.protocol !== 'sql' && (r.rpcMethod?.toLowerCase() === want || operation(r).toLowerCase().endsWith(`/${want}`))),
    result: m,
  })).filter((h) => h.rows.length > 0);
  return hits.sort((a, b) => b.rows.reduce((s, r) => s + r.requests, 0) - a.rows.reduce((s, r) => s + r.requests, 0))[0];
}
