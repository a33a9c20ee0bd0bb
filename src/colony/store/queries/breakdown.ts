import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { LOG_BUCKETS_PER_DOUBLING } from '../../unified/stats.js';
import { OPERATION } from './operations.js';
import { Where } from './filters.js';
import { errorSpanSql } from '../../otlp/span-error.js';

/**
 * The breakdown's read (Honeycomb BubbleUp-style): a service's spans counted per attribute value,
 * latency bucket and failure, so a pure core can compare the anomalous spans with the baseline.
 * Both backends aggregate in the database and return the same rows.
 */

/** A promoted span column (schema.ts hotColumns) that holds one of the keys. */
export type BreakdownColumn = 'http_route' | 'http_method' | 'http_status_code' | 'rpc_method' | 'rpc_status_code' | 'server_address' | 'peer_service' | 'db_system';

export interface BreakdownKey {
  /** The current semantic-convention name, under which the value is reported. */
  key: string;
  scope: 'resource' | 'span';
  /** Attribute names read, newest convention first (the first one present wins). */
  names: readonly string[];
  /** The promoted column already holding it (both conventions, see otlp/semconv.ts), read instead of the attributes. */
  column?: BreakdownColumn;
  /** What a person calls one value: "1 of 5 pods". */
  label: string;
}

/** The fixed, bounded list of keys compared: where an incident tends to concentrate. */
export const BREAKDOWN_KEYS: readonly BreakdownKey[] = [
  { key: 'service.instance.id', scope: 'resource', names: ['service.instance.id'], label: 'instance' },
  { key: 'k8s.pod.name', scope: 'resource', names: ['k8s.pod.name'], label: 'pod' },
  { key: 'host.name', scope: 'resource', names: ['host.name'], label: 'host' },
  { key: 'k8s.node.name', scope: 'resource', names: ['k8s.node.name'], label: 'node' },
  { key: 'service.version', scope: 'resource', names: ['service.version'], label: 'version' },
  { key: 'k8s.deployment.name', scope: 'resource', names: ['k8s.deployment.name'], label: 'deployment' },
  { key: 'deployment.environment.name', scope: 'resource', names: ['deployment.environment.name', 'deployment.environment'], label: 'environment' },
  { key: 'cloud.availability_zone', scope: 'resource', names: ['cloud.availability_zone'], label: 'zone' },
  { key: 'cloud.region', scope: 'resource', names: ['cloud.region'], label: 'region' },
  { key: 'http.route', scope: 'span', names: ['http.route'], column: 'http_route', label: 'route' },
  { key: 'http.request.method', scope: 'span', names: ['http.request.method', 'http.method'], column: 'http_method', label: 'method' },
  { key: 'http.response.status_code', scope: 'span', names: ['http.response.status_code', 'http.status_code'], column: 'http_status_code', label: 'status code' },
  { key: 'rpc.method', scope: 'span', names: ['rpc.method'], column: 'rpc_method', label: 'RPC method' },
  { key: 'rpc.grpc.status_code', scope: 'span', names: ['rpc.grpc.status_code', 'rpc.response.status_code'], column: 'rpc_status_code', label: 'gRPC status' },
  { key: 'server.address', scope: 'span', names: ['server.address', 'net.peer.name'], column: 'server_address', label: 'server address' },
  { key: 'peer.service', scope: 'span', names: ['service.peer.name', 'peer.service'], column: 'peer_service', label: 'peer service' },
  { key: 'db.system.name', scope: 'span', names: ['db.system.name', 'db.system'], column: 'db_system', label: 'database system' },
  { key: 'db.namespace', scope: 'span', names: ['db.namespace', 'db.name'], label: 'database' },
  { key: 'messaging.destination.name', scope: 'span', names: ['messaging.destination.name', 'messaging.destination'], label: 'destination' },
  { key: 'user_agent.original', scope: 'span', names: ['user_agent.original', 'http.user_agent'], label: 'user agent' },
];

/** Keys that name one process of a service, the one people name first ("1 of 5 pods") first: the siblings instanceOutliers compares. */
export const INSTANCE_KEYS: readonly string[] = ['k8s.pod.name', 'service.instance.id', 'host.name'];

/** The key of the rows that count every span, whatever its attributes (the totals). */
export const ALL_SPANS = '';

/** At most this many values per key come back (the most frequent): a user agent or request-unique value must not return a row per span. */
export const MAX_VALUES_PER_KEY = 50;

export interface BreakdownQuery {
  service: string;
  /** An operation as the summary names it (`GET /cart`, `SELECT orders`), a span name or an HTTP route. */
  operation?: string;
  range: TimeRange;
  /** Also read this window (the `window` comparison's baseline, usually the one before). */
  baseline?: TimeRange;
  /** Only these keys (of BREAKDOWN_KEYS); all when absent. */
  keys?: readonly string[];
}

/** Spans of one attribute value, source, period, failure and latency bucket. */
export interface BreakdownRow {
  /** ALL_SPANS for the totals row of each group. */
  key: string;
  value: string;
  source: Source;
  /** 1: the window asked; 0: the baseline window. */
  period: number;
  error: boolean;
  /** Log latency bucket (stats.ts LOG_BUCKETS_PER_DOUBLING): (2^((b-1)/4), 2^(b/4)] ms. */
  bucket: number;
  spans: number;
}

export function keysOf(q: BreakdownQuery): readonly BreakdownKey[] {
  return q.keys === undefined ? BREAKDOWN_KEYS : BREAKDOWN_KEYS.filter((k) => q.keys?.includes(k.key));
}

/** Which spans: the requests the service served, or (with an operation) the spans of that operation, whatever their kind. */
export const BREAKDOWN_SPANS = `kind IN ('SERVER', 'CONSUMER')`;
export const OPERATION_MATCH = `((${OPERATION}) = ? OR name = ? OR http_route = ?)`;
export const BUCKET = `ceil(log2(greatest(duration_ns, 1000) / 1e6) * ${LOG_BUCKETS_PER_DOUBLING})`;

/** DuckDB: the first non-empty of a list of JSON values (1-based positions), as text. */
function firstOf(list: string, positions: readonly number[]): string {
  return `coalesce(${positions.map((p) => `nullif(${list}[${p}], '')`).join(', ')})`;
}

/**
 * Whether a JSON object's text names any of the keys: a substring search, several times cheaper than
 * parsing it (most spans carry none of the keys read from the span's own attributes: ~0.6 -> ~0.4 s at 1M spans).
 */
function mentions(json: string, names: readonly string[]): string {
  return names.map((n) => `contains(${json}, '"${n}"')`).join(' OR ');
}

function jsonPaths(names: readonly string[]): string {
  return `[${names.map((n) => `'$."${n}"'`).join(', ')}]`;
}

/**
 * One pass: span attributes are parsed once per span (a JSON path list), resource attributes once per
 * distinct resource and span shape (grouped first: a service has few resources); then one row per
 * (key, value) by UNNEST, summed.
 */
export async function breakdownRows(db: Database, q: BreakdownQuery): Promise<BreakdownRow[]> {
  const keys = keysOf(q);
  const w = new Where().add('service_name = ?', q.service);
  const ranges = [q.range, ...(q.baseline ? [q.baseline] : [])];
  // The hull of the windows first, as plain comparisons: DuckDB pushes those into the scan (zone maps
  // skip older row groups); an OR of ranges alone is not pushed, and read every row group (3x at 10M spans).
  const hull = { fromNs: ranges.reduce((m, r) => (r.fromNs < m ? r.fromNs : m), q.range.fromNs), toNs: ranges.reduce((m, r) => (r.toNs > m ? r.toNs : m), q.range.toNs) };
  w.range('start_ns', hull);
  if (ranges.length > 1) w.add(`(${ranges.map((r) => `(start_ns > ${w.bind(r.fromNs)}::BIGINT AND start_ns <= ${w.bind(r.toNs)}::BIGINT)`).join(' OR ')})`);
  if (q.operation !== undefined) w.add(OPERATION_MATCH, q.operation, q.operation, q.operation);
  else w.add(BREAKDOWN_SPANS);
  const period = `(start_ns > ${w.bind(q.range.fromNs)}::BIGINT AND start_ns <= ${w.bind(q.range.toNs)}::BIGINT)::INTEGER`;
  const resourceNames = keys.filter((k) => k.scope === 'resource').flatMap((k) => k.names);
  const spanNames = keys.filter((k) => k.scope === 'span' && !k.column).flatMap((k) => k.names);
  const columns = [...new Set(keys.flatMap((k) => (k.column ? [k.column] : [])))];
  let r = 0;
  let a = 0;
  const pairs = keys.map((k) => {
    let v: string;
    if (k.column) v = `nullif(${k.column}::VARCHAR, '')`;
    else if (k.scope === 'resource') v = firstOf('r', k.names.map(() => ++r));
    else v = firstOf('a', k.names.map(() => ++a));
    return `{'k': '${k.key}', 'v': ${v}}`;
  });
  return db.query<BreakdownRow>(
    `WITH s AS (
       SELECT source, ${period} AS period, ${errorSpanSql()} AS error, ${BUCKET}::INTEGER AS bucket, resource_attributes,
         ${spanNames.length > 0 ? `CASE WHEN ${mentions('attributes', spanNames)} THEN json_extract_string(attributes, ${jsonPaths(spanNames)}) END` : 'NULL::VARCHAR[]'} AS a
         ${columns.map((c) => `, ${c}`).join('')}
       FROM otel_traces WHERE ${w.sql()}
     ), g AS (
       SELECT *, ${resourceNames.length > 0 ? `json_extract_string(resource_attributes, ${jsonPaths(resourceNames)})` : 'NULL::VARCHAR[]'} AS r
       FROM (SELECT *, count(*) AS n FROM s GROUP BY ALL)
     ), kv AS (
       SELECT source, period, error, bucket, n, unnest([${[`{'k': '${ALL_SPANS}', 'v': '*'}`, ...pairs].join(', ')}]) AS p FROM g
     ), agg AS (
       SELECT p.k AS key, p.v AS value, source, period, error, bucket, sum(n)::INTEGER AS spans
       FROM kv WHERE p.v IS NOT NULL GROUP BY ALL
     ), ranked AS (
       SELECT *, dense_rank() OVER (PARTITION BY key ORDER BY value_spans DESC, value) AS rank
       FROM (SELECT *, sum(spans) OVER (PARTITION BY key, value) AS value_spans FROM agg)
     )
     SELECT key, value, source, period, error, bucket, spans FROM ranked WHERE rank <= ${MAX_VALUES_PER_KEY}
     ORDER BY key, value, source, period, error, bucket`,
    w.params,
  );
}
