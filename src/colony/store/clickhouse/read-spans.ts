import type { TimeRange } from '../../../core/time.js';
import { msToNs } from '../../../core/time.js';
import type { Source } from '../rows.js';
import {
  DURATION_METRICS,
  GRPC_ERRORS,
  type HistogramSeries,
  type KeyColumns,
  type Protocol,
  type RedRow,
  type SeriesDelta,
  applyFilters,
  deltasInWindow,
  redFromSeriesDeltas,
  spanRedRow,
} from '../queries/red.js';
import type { SpanRecord, TraceSearch, TraceSearchResult } from '../queries/spans.js';
import { type HistogramOperationRow, OPERATION, PROTOCOL_OF, type SpanBucketRow, operationsFromDeltas } from '../queries/operations.js';
import type { CallSpanRow } from '../queries/calls.js';
import type { MinuteRow } from '../queries/timeline.js';
import { LOG_BUCKETS_PER_DOUBLING } from '../../unified/stats.js';
import type { ChClient } from './client.js';
import { Conditions, inRange, instant, lit, list } from './sql.js';
import { type ChSchema, histograms, spans, table } from './views.js';
import { RESOURCE_HASH } from './derived.js';
import { resourcesByHash } from './resources.js';
import { qualified } from './ddl.js';
import { type ChSpanRow, toSpanRecord } from './span-record.js';
import type { RedBase } from './batch.js';

/** Group keys per protocol, aliased apart from the view's columns (ClickHouse forbids an alias that shadows its own input). */
const SPAN_SHAPE: Record<Protocol, { where: string; keys: string; error: string }> = {
  http: {
    where: `kind = 'SERVER' AND http_method IS NOT NULL`,
    keys: `coalesce(http_route, name) AS k_http_route, http_method AS k_http_method, NULL AS k_rpc_service, NULL AS k_rpc_method, NULL AS k_db_system, NULL AS k_db_operation, NULL AS k_db_table`,
    error: `http_status_code >= 500 OR (http_status_code IS NULL AND status_code = 'ERROR')`,
  },
  grpc: {
    where: `kind = 'SERVER' AND rpc_method IS NOT NULL`,
    keys: `NULL AS k_http_route, NULL AS k_http_method, rpc_service AS k_rpc_service, rpc_method AS k_rpc_method, NULL AS k_db_system, NULL AS k_db_operation, NULL AS k_db_table`,
    error: `rpc_status_code IN ${GRPC_ERRORS} OR (rpc_status_code IS NULL AND status_code = 'ERROR')`,
  },
  sql: {
    where: `kind = 'CLIENT' AND db_system IS NOT NULL`,
    keys: `NULL AS k_http_route, NULL AS k_http_method, NULL AS k_rpc_service, NULL AS k_rpc_method, db_system AS k_db_system, db_operation AS k_db_operation, db_table AS k_db_table`,
    error: `status_code = 'ERROR'`,
  },
};

const KEYS = ['k_http_route', 'k_http_method', 'k_rpc_service', 'k_rpc_method', 'k_db_system', 'k_db_operation', 'k_db_table'];

type KRow = { source: Source } & Record<(typeof KEYS)[number], string | null>;

function keyColumns(r: KRow): KeyColumns {
  return {
    source: r.source,
    http_route: r.k_http_route,
    http_method: r.k_http_method,
    rpc_service: r.k_rpc_service,
    rpc_method: r.k_rpc_method,
    db_system: r.k_db_system,
    db_operation: r.k_db_operation,
    db_table: r.k_db_table,
  };
}

/**
 * Exact percentiles: quantileExactInclusive interpolates like DuckDB's quantile_cont (checked in the
 * tests). Several protocols in one query, each its own branch, rows in each protocol's own order.
 */
export async function redFromSpans(ch: ChClient, s: ChSchema, q: RedBase, protocols: readonly Protocol[]): Promise<Map<Protocol, RedRow[]>> {
  const inner = new Conditions().add(inRange('Timestamp', q.range)).add('ServiceName = ?', q.service);
  const branches = protocols.map((p, i) => {
    const shape = SPAN_SHAPE[p];
    const w = new Conditions().add(shape.where);
    w.maybe(q.source, 'source = ?');
    applyFilters(w, q);
    return `SELECT toInt32(${i}) AS p, source, ${shape.keys}, toInt32(count()) AS requests, toInt32(countIf(ifNull(${shape.error}, false))) AS errors,
       quantilesExactInclusive(0.5, 0.95, 0.99)(duration_ns) AS q
     FROM ${spans(s, inner.sql())} WHERE ${w.sql()}
     GROUP BY source, ${KEYS.join(', ')}`;
  });
  const rows = await ch.query<KRow & { p: number; requests: number; errors: number; q: number[] }>(
    `SELECT * FROM (${branches.join(' UNION ALL ')}) ORDER BY p, requests DESC, source, ${KEYS.join(', ')}`,
  );
  return new Map(protocols.map((p, i) => [p, rows.filter((r) => r.p === i).map((r) => spanRedRow(keyColumns(r), p, r))]));
}

/** Per-series attributes, taken from any point (aliased apart: ClickHouse forbids an aggregate alias that shadows a column used elsewhere). */
const SERIES_FIELDS = ['service_name', 'source', 'metric_name', 'unit', 'temporality', 'http_route', 'http_method', 'http_status_code', 'rpc_service', 'rpc_method',
  'rpc_status_code', 'db_system', 'db_operation', 'db_table', 'error_type'] as const;

type ChSeriesRow = Pick<HistogramSeries, 'series_key' | 'last_counts' | 'last_bounds' | 'before_counts' | 'before_bounds' | 'first_counts' | 'first_bounds' | 'window_counts'> & {
  [K in (typeof SERIES_FIELDS)[number] as `a_${K}`]: HistogramSeries[K];
} & {
  n_after: number;
  n_before: number;
  last_start: string;
  last_time: string;
  before_start: string;
  before_time: string;
  first_start: string;
  first_time: string;
};

/** The same per-series snapshots as the DuckDB query; the window arithmetic is the shared deltasInWindow. */
async function seriesDeltas(ch: ChClient, s: ChSchema, outer: Conditions, range: TimeRange): Promise<SeriesDelta[]> {
  const after = `time_ns > ${lit(range.fromNs)}`;
  const rows = await ch.query<ChSeriesRow>(
    `SELECT series_key, ${SERIES_FIELDS.map((f) => `any(${f}) AS a_${f}`).join(', ')},
       toInt32(countIf(${after})) AS n_after, toInt32(countIf(NOT ${after})) AS n_before,
       argMaxIf(bucket_counts, time_ns, ${after}) AS last_counts, argMaxIf(bounds, time_ns, ${after}) AS last_bounds,
       toString(argMaxIf(start_ns, time_ns, ${after})) AS last_start, toString(maxIf(time_ns, ${after})) AS last_time,
       argMaxIf(bucket_counts, time_ns, NOT ${after}) AS before_counts, argMaxIf(bounds, time_ns, NOT ${after}) AS before_bounds,
       toString(argMaxIf(start_ns, time_ns, NOT ${after})) AS before_start, toString(maxIf(time_ns, NOT ${after})) AS before_time,
       argMinIf(bucket_counts, time_ns, ${after}) AS first_counts, argMinIf(bounds, time_ns, ${after}) AS first_bounds,
       toString(argMinIf(start_ns, time_ns, ${after})) AS first_start, toString(minIf(time_ns, ${after})) AS first_time,
       groupArrayIf(bucket_counts, ${after} AND temporality = 'delta') AS window_counts
     FROM (SELECT * FROM ${histograms(s, `TimeUnix <= ${instant(range.toNs)}`)} WHERE ${outer.sql()})
     GROUP BY series_key`,
  );
  // ClickHouse's -If aggregates give defaults, not NULL, over no rows: the counts say which snapshots exist.
  const series: HistogramSeries[] = rows.map((r) => {
    const a = r.n_after > 0;
    const b = r.n_before > 0;
    const fields = Object.fromEntries(SERIES_FIELDS.map((f) => [f, r[`a_${f}`]])) as Pick<HistogramSeries, (typeof SERIES_FIELDS)[number]>;
    return {
      ...fields,
      series_key: r.series_key,
      last_counts: a ? r.last_counts : null,
      last_bounds: a ? r.last_bounds : null,
      last_start: a ? BigInt(r.last_start) : null,
      last_time: a ? BigInt(r.last_time) : null,
      first_counts: a ? r.first_counts : null,
      first_bounds: a ? r.first_bounds : null,
      first_start: a ? BigInt(r.first_start) : null,
      first_time: a ? BigInt(r.first_time) : null,
      before_counts: b ? r.before_counts : null,
      before_bounds: b ? r.before_bounds : null,
      before_start: b ? BigInt(r.before_start) : null,
      before_time: b ? BigInt(r.before_time) : null,
      window_counts: r.window_counts !== null && r.window_counts.length > 0 ? r.window_counts : null,
    };
  });
  return deltasInWindow(series, range);
}

/** Several protocols from one pass: each duration metric belongs to one protocol. */
export async function redFromHistograms(ch: ChClient, s: ChSchema, q: RedBase, protocols: readonly Protocol[]): Promise<Map<Protocol, RedRow[]>> {
  const w = new Conditions().add('service_name = ?', q.service).add(`metric_name IN ${list(protocols.flatMap((p) => DURATION_METRICS[p]))}`);
  w.maybe(q.source, 'source = ?');
  applyFilters(w, q);
  const deltas = await seriesDeltas(ch, s, w, q.range);
  return new Map(protocols.map((p) => [p, redFromSeriesDeltas(deltas.filter((d) => DURATION_METRICS[p].includes(d.series.metric_name)), p)]));
}

export async function operationHistograms(ch: ChClient, s: ChSchema, range: TimeRange): Promise<HistogramOperationRow[]> {
  const w = new Conditions().add(`metric_name IN ${list([...PROTOCOL_OF.keys()])}`);
  return operationsFromDeltas(await seriesDeltas(ch, s, w, range));
}

export async function operationSpanBuckets(ch: ChClient, s: ChSchema, range: TimeRange): Promise<SpanBucketRow[]> {
  const rows = await ch.query<Omit<SpanBucketRow, 'kind'> & { k: 'server' | 'db' }>(
    `SELECT service_name AS service, source, if(kind = 'CLIENT', 'db', 'server') AS k, ${OPERATION} AS operation,
       toInt32(ceil(log2(greatest(duration_ns, 1000) / 1e6) * ${LOG_BUCKETS_PER_DOUBLING})) AS bucket,
       toInt32(count()) AS requests, toInt32(countIf(status_code = 'ERROR')) AS errors
     FROM ${spans(s, inRange('Timestamp', range))}
     WHERE kind IN ('SERVER', 'CONSUMER') OR (kind = 'CLIENT' AND db_system IS NOT NULL)
     GROUP BY service, source, k, operation, bucket ORDER BY service, source, k, operation, bucket`,
  );
  return rows.map(({ k, ...r }) => ({ ...r, kind: k }));
}

/**
 * The same stable sample as the DuckDB colony: root server or consumer traces ordered by the md5 of
 * their id; their server, consumer and non-database client spans (database calls are the caller's own time).
 */
export async function callSpans(ch: ChClient, s: ChSchema, range: TimeRange, maxTraces: number): Promise<CallSpanRow[]> {
  const kinds = `(kind IN ('SERVER', 'CONSUMER') OR (kind = 'CLIENT' AND db_system IS NULL))`;
  const view = spans(s, inRange('Timestamp', range));
  const rows = await ch.query<Omit<CallSpanRow, 'error'> & { error: number }>(
    `SELECT trace_id AS traceId, span_id AS spanId, parent_span_id AS parentSpanId, service_name AS service, source, kind,
       toFloat64((start_ns - ${lit(range.fromNs)}) / 1e6) AS startMs, toFloat64(duration_ns / 1e6) AS durationMs,
       status_code = 'ERROR' AS error,
       if(kind = 'CLIENT', coalesce(peer_service, server_address, rpc_service), NULL) AS peer
     FROM ${view} WHERE ${kinds} AND trace_id IN (
       SELECT DISTINCT trace_id FROM ${view} WHERE ${kinds} AND parent_span_id = '' AND kind IN ('SERVER', 'CONSUMER')
       ORDER BY lower(hex(MD5(trace_id))) LIMIT ${lit(maxTraces)})
     ORDER BY traceId, start_ns, spanId`,
  );
  return rows.map((r) => ({ ...r, error: Boolean(r.error) }));
}

export async function minuteSeries(ch: ChClient, s: ChSchema, range: TimeRange): Promise<MinuteRow[]> {
  return ch.query<MinuteRow>(
    `SELECT service_name AS service, source, toInt32(intDiv(start_ns - ${lit(range.fromNs)}, 60000000000)) AS minute,
       toInt32(count()) AS requests, toInt32(countIf(status_code = 'ERROR')) AS errors, toFloat64(sum(duration_ns) / 1e6) AS durationMs
     FROM ${spans(s, inRange('Timestamp', range), { hot: false })} WHERE kind IN ('SERVER', 'CONSUMER')
     GROUP BY service, source, minute ORDER BY service, source, minute`,
  );
}

const ORDER: Record<NonNullable<TraceSearch['order']>, string> = {
  errors: 'has_error DESC, max_duration DESC, last_start DESC',
  slowest: 'max_duration DESC, last_start DESC',
  recent: 'last_start DESC, max_duration DESC',
};

/** Traces with a matching span, returned whole; the picked ids are fetched in a second, keyed query. */
export async function searchTraces(ch: ChClient, s: ChSchema, q: TraceSearch): Promise<TraceSearchResult> {
  const inner = new Conditions().add(inRange('Timestamp', q.range));
  inner.maybe(q.service, 'ServiceName = ?');
  inner.maybe(q.traceId?.toLowerCase(), 'TraceId = ?');
  const w = new Conditions();
  w.maybe(q.source, 'source = ?');
  if (q.minDurationMs !== undefined) w.add('duration_ns >= ?', msToNs(q.minDurationMs));
  if (q.errorsOnly) w.add(`status_code = 'ERROR'`);
  const order = q.order ?? 'recent';
  const hasError = order === 'errors'
    ? `trace_id IN (SELECT trace_id FROM ${spans(s, inRange('Timestamp', q.range), { hot: false })} WHERE status_code = 'ERROR')`
    : 'false';
  const picked = await ch.query<{ trace_id: string; matched: number }>(
    `SELECT trace_id, max(duration_ns) AS max_duration, max(start_ns) AS last_start, ${hasError} AS has_error,
       toInt32(count() OVER ()) AS matched
     FROM ${spans(s, inner.sql(), { hot: false })} WHERE ${w.sql()} GROUP BY trace_id
     ORDER BY ${ORDER[order]} LIMIT ${lit(q.maxTraces)}`,
  );
  if (picked.length === 0) return { traces: [], matchedTraces: 0 };
  const bySpan = await traceSpans(ch, s, picked.map((p) => p.trace_id));
  return { traces: picked.map((p) => ({ traceId: p.trace_id, spans: bySpan.get(p.trace_id) ?? [] })), matchedTraces: picked[0].matched };
}

/**
 * Every span of the given traces, start order, a re-sent span once. The exporter's trace-id lookup
 * table bounds the scan to each trace's time span (its Start and End are whole seconds).
 */
async function traceSpans(ch: ChClient, s: ChSchema, ids: readonly string[]): Promise<Map<string, SpanRecord[]>> {
  const lookup = qualified(s.database, `${s.tables.traces}_trace_id_ts`);
  const rows = await ch.query<ChSpanRow>(
    `WITH (SELECT (minOrNull(Start), maxOrNull(End) + 1) FROM ${lookup} WHERE TraceId IN ${list(ids)}) AS bounds
     SELECT * FROM ${spans(s, `TraceId IN ${list(ids)} AND (isNull(bounds.1) OR toDateTime(Timestamp) BETWEEN bounds.1 AND bounds.2)`, { detail: true })}
     ORDER BY trace_id, start_ns, span_id`,
  );
  const resources = await resourcesOf(ch, s, ids, rows);
  const out = new Map<string, SpanRecord[]>();
  let last = '';
  for (const r of rows) {
    const key = `${r.trace_id}/${r.span_id}`;
    if (key === last) continue;
    last = key;
    const list = out.get(r.trace_id) ?? [];
    list.push(toSpanRecord(r, r.resource_attributes ?? resources.get(r.resource_hash ?? '') ?? {}));
    out.set(r.trace_id, list);
  }
  return out;
}

/** The resources of spans read by hash: from the resource table, else (a view's insert not visible yet) from the spans' own rows. */
async function resourcesOf(ch: ChClient, s: ChSchema, ids: readonly string[], rows: readonly ChSpanRow[]): Promise<Map<string, Record<string, string>>> {
  if (s.resourceTable === null) return new Map();
  const hashes = [...new Set(rows.map((r) => r.resource_hash ?? ''))];
  const found = await resourcesByHash(ch, s.database, s.resourceTable, hashes);
  const missing = hashes.filter((h) => !found.has(h));
  if (missing.length > 0) {
    const late = await ch.query<{ h: string; r: Record<string, string> }>(
      `SELECT toString(${RESOURCE_HASH.expr}) AS h, any(ResourceAttributes) AS r FROM ${table(s, 'traces')}
       WHERE TraceId IN ${list(ids)} AND h IN ${list(missing)} GROUP BY h`,
    );
    for (const x of late) found.set(x.h, x.r);
  }
  return found;
}

export async function getTrace(ch: ChClient, s: ChSchema, traceId: string): Promise<SpanRecord[]> {
  const id = traceId.toLowerCase();
  return (await traceSpans(ch, s, [id])).get(id) ?? [];
}
