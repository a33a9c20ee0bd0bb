import { errorSpanSql } from '../../otlp/span-error.js';
import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { splitRpcPath } from '../../../core/rpc.js';
import { GRPC_SERVER_ERROR_CODES } from '../../../core/grpc.js';
import { Where } from './filters.js';
import {
  type BucketCounts,
  type HistogramSnapshot,
  addHistograms,
  histogramQuantile,
  mergeHistograms,
  total,
  windowDelta,
} from '../../unified/histogram.js';

export type Protocol = 'http' | 'grpc' | 'sql';
export const PROTOCOLS: readonly Protocol[] = ['http', 'grpc', 'sql'];
export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';
export const STATUS_CLASSES: readonly StatusClass[] = ['1xx', '2xx', '3xx', '4xx', '5xx'];

export interface RedFilters {
  httpRoute?: string;
  httpMethod?: string;
  statusCodeRange?: StatusClass;
  /** `Method`, `pkg.Service/Method` or `/pkg.Service/Method`. */
  grpcMethod?: string;
  grpcStatusCode?: number;
  sqlOperation?: string;
  tableName?: string;
}

export interface RedQuery extends RedFilters {
  service: string;
  protocol: Protocol;
  range: TimeRange;
  source?: Source;
}

/** One group of requests: an HTTP route+method, a gRPC method, or a SQL operation+table. */
export interface RedRow {
  source: Source;
  /** `spans`: exact, from every stored span. `histogram`: from metric buckets (unsampled, interpolated). */
  basis: 'spans' | 'histogram';
  protocol: Protocol;
  httpRoute: string | null;
  httpMethod: string | null;
  rpcService: string | null;
  rpcMethod: string | null;
  dbSystem: string | null;
  dbOperation: string | null;
  dbTable: string | null;
  requests: number;
  errors: number;
  errorRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  /** Some percentile fell in the +Inf bucket: the value shown is a lower bound. */
  percentilesAtLeast: boolean;
}

/** Where filter conditions go: DuckDB's Where, or the ClickHouse colony's Conditions. */
export interface FilterSink {
  add(fragment: string, ...values: (string | number)[]): unknown;
  maybe(value: string | number | undefined | null, fragment: string): unknown;
}

export function applyFilters(w: FilterSink, f: RedFilters): void {
  w.maybe(f.httpRoute, 'http_route = ?');
  w.maybe(f.httpMethod?.toUpperCase(), 'http_method = ?');
  if (f.statusCodeRange) {
    const lo = Number(f.statusCodeRange[0]) * 100;
    w.add('http_status_code >= ? AND http_status_code < ?', lo, lo + 100);
  }
  if (f.grpcMethod) {
    const { service, method } = splitRpcPath(f.grpcMethod);
    w.add('rpc_method = ?', method);
    w.maybe(service, 'rpc_service = ?');
  }
  w.maybe(f.grpcStatusCode, 'rpc_status_code = ?');
  w.maybe(f.sqlOperation?.toUpperCase(), 'upper(db_operation) = ?');
  w.maybe(f.tableName, 'db_table = ?');
}

const SPAN_SHAPE: Record<Protocol, { where: string; groupBy: string }> = {
  http: {
    where: `kind = 'SERVER' AND http_method IS NOT NULL`,
    groupBy: `coalesce(http_route, name) AS http_route, http_method, NULL AS rpc_service, NULL AS rpc_method, NULL AS db_system, NULL AS db_operation, NULL AS db_table`,
  },
  grpc: {
    where: `kind = 'SERVER' AND rpc_method IS NOT NULL`,
    groupBy: `NULL AS http_route, NULL AS http_method, rpc_service, rpc_method, NULL AS db_system, NULL AS db_operation, NULL AS db_table`,
  },
  sql: {
    where: `kind = 'CLIENT' AND db_system IS NOT NULL`,
    groupBy: `NULL AS http_route, NULL AS http_method, NULL AS rpc_service, NULL AS rpc_method, db_system, db_operation, db_table`,
  },
};

export interface KeyColumns {
  source: Source;
  http_route: string | null;
  http_method: string | null;
  rpc_service: string | null;
  rpc_method: string | null;
  db_system: string | null;
  db_operation: string | null;
  db_table: string | null;
}

export function keyOf(r: KeyColumns, protocol: Protocol) {
  return {
    source: r.source,
    protocol,
    httpRoute: r.http_route,
    httpMethod: r.http_method,
    rpcService: r.rpc_service,
    rpcMethod: r.rpc_method,
    dbSystem: r.db_system,
    dbOperation: r.db_operation,
    dbTable: r.db_table,
  };
}

/** RED metrics from spans: exact counts and exact percentiles (quantile_cont over durations). */
export async function redFromSpans(db: Database, q: RedQuery): Promise<RedRow[]> {
  const shape = SPAN_SHAPE[q.protocol];
  const w = new Where().add('service_name = ?', q.service).range('start_ns', q.range).add(shape.where);
  w.maybe(q.source, 'source = ?');
  applyFilters(w, q);
  const rows = await db.query<KeyColumns & { requests: number; errors: number; q: number[] }>(
    `SELECT source, ${shape.groupBy},
       count(*)::INTEGER AS requests,
       (count(*) FILTER (WHERE ${errorSpanSql()}))::INTEGER AS errors,
       quantile_cont(duration_ns, [0.5, 0.95, 0.99]) AS q
     FROM otel_traces WHERE ${w.sql()}
     GROUP BY ALL ORDER BY requests DESC, 2, 3, 4, 5, 6, 7, 8`,
    w.params,
  );
  return rows.map((r) => spanRedRow(r, q.protocol, r));
}

/** One RED row from span counts and exact P50/P95/P99 in nanoseconds, as both backends compute them. */
export function spanRedRow(keys: KeyColumns, protocol: Protocol, r: { requests: number; errors: number; q: number[] }): RedRow {
  return {
    ...keyOf(keys, protocol),
    basis: 'spans',
    requests: r.requests,
    errors: r.errors,
    errorRate: r.requests === 0 ? 0 : r.errors / r.requests,
    p50Ms: r.q[0] / 1e6,
    p95Ms: r.q[1] / 1e6,
    p99Ms: r.q[2] / 1e6,
    percentilesAtLeast: false,
  };
}

/** Duration histograms per protocol: current and legacy names, server side (client side for SQL). */
export const DURATION_METRICS: Record<Protocol, string[]> = {
  http: ['http.server.request.duration', 'http.server.duration'],
  grpc: ['rpc.server.call.duration', 'rpc.server.duration'],
  sql: ['db.client.operation.duration'],
};

/**
 * Milliseconds per unit of a duration histogram. Current conventions record seconds, older SDKs
 * milliseconds (`http.server.duration`); with no unit, the metric name decides.
 */
export function msPerUnit(unit: string, metricName: string): number {
  switch (unit) {
    case 's':
      return 1000;
    case 'ms':
      return 1;
    case 'us':
      return 0.001;
    case 'ns':
      return 1e-6;
    default:
      return metricName === 'http.server.duration' || metricName === 'rpc.server.duration' ? 1 : 1000;
  }
}

export interface HistogramSeries extends KeyColumns {
  series_key: string;
  service_name: string;
  metric_name: string;
  unit: string;
  temporality: string;
  http_status_code: number | null;
  rpc_status_code: number | null;
  error_type: string | null;
  /** Bounds and counts: JSON text from DuckDB (see numberArray in columns.ts), arrays from ClickHouse. */
  last_counts: NumberList | null;
  last_bounds: NumberList | null;
  last_start: bigint | null;
  last_time: bigint | null;
  before_counts: NumberList | null;
  before_bounds: NumberList | null;
  before_start: bigint | null;
  before_time: bigint | null;
  first_counts: NumberList | null;
  first_bounds: NumberList | null;
  first_start: bigint | null;
  first_time: bigint | null;
  window_counts: NumberList[] | null;
  /** Each delta point's bounds, in window_counts' order: an exponential series' layout changes from point to point. */
  window_bounds: NumberList[] | null;
}

type NumberList = string | number[];

function numbers(v: NumberList): number[] {
  return typeof v === 'string' ? (JSON.parse(v) as number[]) : v;
}

function snapshot(counts: NumberList | null, bounds: NumberList | null, start: bigint | null, time: bigint | null): HistogramSnapshot | null {
  if (counts === null || bounds === null || start === null || time === null) return null;
  return { counts: numbers(counts), bounds: numbers(bounds), startNs: start, timeNs: time };
}

/** What one series observed in the window, whatever its temporality. */
function seriesDelta(r: HistogramSeries, windowFromNs: bigint): BucketCounts | null {
  if (r.temporality === 'delta') {
    if (!r.window_counts || r.window_counts.length === 0 || !r.last_bounds || !r.window_bounds) return null;
    const bounds = r.window_bounds;
    return addHistograms(r.window_counts.map((c, k) => ({ bounds: numbers(bounds[k]), counts: numbers(c) })));
  }
  return windowDelta(
    snapshot(r.before_counts, r.before_bounds, r.before_start, r.before_time),
    snapshot(r.first_counts, r.first_bounds, r.first_start, r.first_time),
    snapshot(r.last_counts, r.last_bounds, r.last_start, r.last_time),
    windowFromNs,
  );
}

export function isErrorSeries(r: HistogramSeries, protocol: Protocol): boolean {
  if (protocol === 'http') return r.http_status_code !== null && r.http_status_code >= 500;
  if (protocol === 'grpc') return r.rpc_status_code !== null && GRPC_SERVER_ERROR_CODES.includes(r.rpc_status_code);
  return r.error_type !== null;
}

/**
 * How far before a window a cumulative series' last point is looked for (both backends). Exporters
 * report every 10-60 s, so an hour finds it; reading further back made every histogram read grow with
 * the colony's age (3x from 1M to 10M spans).
 */
export const HISTORY_LOOKBACK_NS = 3_600_000_000_000n;

/**
 * Every duration-histogram series matching `w` (which must bound time_ns <= the window's end), with what
 * it observed in the window; series that observed nothing are left out. `w` is the caller's own: the
 * lookback bound is added to it.
 */
export async function histogramSeriesDeltas(db: Database, w: Where, range: TimeRange): Promise<SeriesDelta[]> {
  w.add('time_ns > ?::BIGINT', range.fromNs - HISTORY_LOOKBACK_NS);
  const after = `time_ns > ${w.bind(range.fromNs)}::BIGINT`;
  const rows = await db.query<HistogramSeries>(
    `SELECT series_key, any_value(service_name) AS service_name, any_value(source) AS source, any_value(metric_name) AS metric_name, any_value(unit) AS unit,
       any_value(temporality) AS temporality,
       any_value(http_route) AS http_route, any_value(http_method) AS http_method,
       any_value(http_status_code) AS http_status_code,
       any_value(rpc_service) AS rpc_service, any_value(rpc_method) AS rpc_method,
       any_value(rpc_status_code) AS rpc_status_code,
       any_value(db_system) AS db_system, any_value(db_operation) AS db_operation, any_value(db_table) AS db_table,
       any_value(attributes->>'error.type') AS error_type,
       arg_max(bucket_counts, time_ns) FILTER (WHERE ${after}) AS last_counts,
       arg_max(bounds, time_ns) FILTER (WHERE ${after}) AS last_bounds,
       arg_max(start_ns, time_ns) FILTER (WHERE ${after}) AS last_start,
       max(time_ns) FILTER (WHERE ${after}) AS last_time,
       arg_max(bucket_counts, time_ns) FILTER (WHERE NOT ${after}) AS before_counts,
       arg_max(bounds, time_ns) FILTER (WHERE NOT ${after}) AS before_bounds,
       arg_max(start_ns, time_ns) FILTER (WHERE NOT ${after}) AS before_start,
       max(time_ns) FILTER (WHERE NOT ${after}) AS before_time,
       arg_min(bucket_counts, time_ns) FILTER (WHERE ${after}) AS first_counts,
       arg_min(bounds, time_ns) FILTER (WHERE ${after}) AS first_bounds,
       arg_min(start_ns, time_ns) FILTER (WHERE ${after}) AS first_start,
       min(time_ns) FILTER (WHERE ${after}) AS first_time,
       list(bucket_counts ORDER BY time_ns, bounds, bucket_counts) FILTER (WHERE ${after} AND temporality = 'delta') AS window_counts,
       list(bounds ORDER BY time_ns, bounds, bucket_counts) FILTER (WHERE ${after} AND temporality = 'delta') AS window_bounds
     FROM otel_metrics_histogram WHERE ${w.sql()}
     GROUP BY series_key`,
    w.params,
  );
  return deltasInWindow(rows, range);
}

export type SeriesDelta = { series: HistogramSeries; delta: BucketCounts };

/** What each series observed in the window; series that observed nothing are left out (shared by both backends). */
export function deltasInWindow(rows: readonly HistogramSeries[], range: TimeRange): SeriesDelta[] {
  const out: SeriesDelta[] = [];
  for (const r of rows) {
    const delta = seriesDelta(r, range.fromNs);
    if (delta !== null && total(delta) > 0) out.push({ series: r, delta });
  }
  return out;
}

/**
 * RED metrics from duration histograms (Beyla's, or an SDK's): per series the window's delta with
 * counter-reset handling, summed per group, then Prometheus-style interpolated percentiles.
 */
export async function redFromHistograms(db: Database, q: RedQuery): Promise<RedRow[]> {
  const w = new Where().add('service_name = ?', q.service).add('time_ns <= ?::BIGINT', q.range.toNs);
  w.add(`metric_name IN (${DURATION_METRICS[q.protocol].map(() => '?').join(', ')})`, ...DURATION_METRICS[q.protocol]);
  w.maybe(q.source, 'source = ?');
  applyFilters(w, q);
  return redFromSeriesDeltas(await histogramSeriesDeltas(db, w, q.range), q.protocol);
}

/** Groups series deltas into RED rows: merged histograms, Prometheus-style percentiles, busiest first. */
export function redFromSeriesDeltas(rows: readonly SeriesDelta[], protocol: Protocol): RedRow[] {
  interface Group {
    key: ReturnType<typeof keyOf>;
    histograms: BucketCounts[];
    errors: number;
    msPerUnit: number;
  }
  const groups = new Map<string, Group>();
  for (const { series: r, delta } of rows) {
    const key = keyOf(r, protocol);
    const id = JSON.stringify([key, r.unit, r.metric_name]);
    let g = groups.get(id);
    if (!g) {
      g = { key, histograms: [], errors: 0, msPerUnit: msPerUnit(r.unit, r.metric_name) };
      groups.set(id, g);
    }
    g.histograms.push(delta);
    if (isErrorSeries(r, protocol)) g.errors += total(delta);
  }
  const out: RedRow[] = [];
  for (const g of groups.values()) {
    const merged = mergeHistograms(g.histograms);
    if (merged === null) continue;
    const requests = total(merged) + merged.skipped;
    const pct = [0.5, 0.95, 0.99].map((p) => histogramQuantile(p, merged));
    out.push({
      ...g.key,
      basis: 'histogram',
      requests,
      errors: g.errors,
      errorRate: requests === 0 ? 0 : g.errors / requests,
      p50Ms: pct[0] ? pct[0].value * g.msPerUnit : null,
      p95Ms: pct[1] ? pct[1].value * g.msPerUnit : null,
      p99Ms: pct[2] ? pct[2].value * g.msPerUnit : null,
      percentilesAtLeast: pct.some((p) => p?.atLeast === true),
    });
  }
  return out.sort((a, b) => b.requests - a.requests || compareKeys(a, b));
}

const KEY_FIELDS = ['httpRoute', 'httpMethod', 'rpcService', 'rpcMethod', 'dbSystem', 'dbOperation', 'dbTable'] as const;

/** Ties in requests ordered by their keys (nulls last), as the span query orders them: never by row arrival. */
function compareKeys(a: RedRow, b: RedRow): number {
  for (const k of KEY_FIELDS) {
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  }
  return 0;
}
