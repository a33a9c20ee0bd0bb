import type { TimeRange } from '../../../core/time.js';
import { type EventKind, type LogLevel, LOG_LEVELS, type Source } from '../rows.js';
import type { LogQuery, LogQueryResult } from '../queries/logs.js';
import type { EventOut, EventQuery } from '../queries/events.js';
import { type ServiceHealth, type ServiceInfo, classifyHealth } from '../queries/services.js';
import type { TopologyEdge } from '../queries/topology.js';
import { HISTOGRAM_RANGE, type MetricInfo, type MetricInfoRow, type MetricQuery, metricInfoOf } from '../queries/metrics.js';
import { summaryPoints } from './summary.js';
import type { GaugePoint } from '../queries/timeline.js';
import type { StoreCounts } from '../colony.js';
import type { ChClient } from './client.js';
import { Conditions, byWindow, inAnyRange, inRange, likeContains, lit, list, windowsOf } from './sql.js';
import { type ChSchema, type SpanColumn, eventKindExpr, histogramPoints, histogramTotals, logs, numbers, registry, spans, table } from './views.js';
import { SPAN_OUTCOME_COLUMNS, errorSpanSql } from '../../otlp/span-error.js';

interface ChLogRow {
  time_ns: string;
  service_name: string;
  source: Source;
  level: LogLevel;
  severity_text: string;
  body: string;
  trace_id: string;
  span_id: string;
  attributes: Record<string, string>;
  event_name: string;
  total: number;
}

export async function queryLogs(ch: ChClient, s: ChSchema, q: LogQuery): Promise<LogQueryResult> {
  const inner = new Conditions().add(inRange('Timestamp', q.range));
  inner.maybe(q.service, 'ServiceName = ?');
  const w = new Conditions();
  if (q.minLevel) w.add(`level IN ${list(LOG_LEVELS.slice(LOG_LEVELS.indexOf(q.minLevel)))}`);
  if (q.text) w.add('body ILIKE ?', likeContains(q.text));
  w.maybe(q.traceId?.toLowerCase(), 'trace_id = ?');
  const rows = await ch.query<ChLogRow>(
    `SELECT toString(time_ns) AS time_ns, service_name, source, level, severity_text, body, trace_id, span_id, attributes, event_name,
       toInt32(count() OVER ()) AS total
     FROM ${logs(s, inner.sql())} WHERE ${w.sql()} ORDER BY time_ns DESC, body, service_name LIMIT ${lit(q.limit)}`,
  );
  return {
    total: rows[0]?.total ?? 0,
    logs: rows.map((r) => ({
      timeNs: BigInt(r.time_ns),
      serviceName: r.service_name,
      source: r.source,
      level: r.level,
      severityText: r.severity_text,
      body: r.body,
      traceId: r.trace_id,
      spanId: r.span_id,
      attributes: r.attributes,
      eventName: r.event_name,
    })),
  };
}

/** Operational events are the log records that name one (otlp/normalize.ts eventKindOf). */
export async function queryEvents(ch: ChClient, s: ChSchema, q: EventQuery): Promise<EventOut[]> {
  const inner = new Conditions().add(inRange('Timestamp', q.range)).add(`${eventKindExpr(s)} != ''`);
  inner.maybe(q.service, 'ServiceName = ?');
  const w = new Conditions();
  w.maybe(q.kind, 'event_kind = ?');
  const rows = await ch.query<{ time_ns: string; service_name: string; kind: EventKind; title: string; attributes: Record<string, string> }>(
    `SELECT toString(time_ns) AS time_ns, service_name, event_kind AS kind, body AS title, attributes
     FROM ${logs(s, inner.sql())} WHERE ${w.sql()} ORDER BY time_ns DESC, title LIMIT ${lit(q.limit)}`,
  );
  return rows.map((r) => ({ timeNs: BigInt(r.time_ns), serviceName: r.service_name, kind: r.kind, title: r.title, attributes: r.attributes }));
}

interface RegistryRow {
  service_name: string;
  sources: Source[];
  first_seen: string;
  last_seen: string;
}

async function registryRows(ch: ChClient, s: ChSchema, service?: string): Promise<RegistryRow[]> {
  return ch.query<RegistryRow>(
    `SELECT service_name, arraySort(groupUniqArray(source)) AS sources, toString(min(first_seen_ns)) AS first_seen, toString(max(last_seen_ns)) AS last_seen
     FROM ${registry(s)} ${service === undefined ? '' : `WHERE service_name = ${lit(service)}`}
     GROUP BY service_name ORDER BY service_name`,
  );
}

function info(r: RegistryRow): ServiceInfo {
  return { serviceName: r.service_name, sources: r.sources, firstSeenNs: BigInt(r.first_seen), lastSeenNs: BigInt(r.last_seen) };
}

export async function listServices(ch: ChClient, s: ChSchema): Promise<ServiceInfo[]> {
  return (await registryRows(ch, s)).map(info);
}

/** As the DuckDB colony: the SDK's view of a service's requests when there is one, else eBPF's. */
export async function serviceHealth(ch: ChClient, s: ChSchema, range: TimeRange, service?: string): Promise<ServiceHealth[]> {
  const inner = new Conditions().add(inRange('Timestamp', range));
  inner.maybe(service, 'ServiceName = ?');
  const [reg, red] = await Promise.all([
    registryRows(ch, s, service),
    ch.query<{ service_name: string; requests: number; errors: number; p95: number }>(
      `SELECT service_name, argMax(requests, source = 'otlp') AS requests, argMax(errors, source = 'otlp') AS errors, argMax(p95, source = 'otlp') AS p95
       FROM (SELECT service_name, source, toInt32(count()) AS requests, toInt32(countIf(${errorSpanSql()})) AS errors,
               quantileExactInclusive(0.95)(duration_ns) AS p95
             FROM ${spans(s, inner.sql(), ['service_name', 'source', 'duration_ns', ...SPAN_OUTCOME_COLUMNS])} WHERE kind IN ('SERVER', 'CONSUMER') GROUP BY service_name, source)
       GROUP BY service_name`,
    ),
  ]);
  const bySvc = new Map(red.map((r) => [r.service_name, r]));
  return reg.map((r) => {
    const h = bySvc.get(r.service_name);
    const requests = h?.requests ?? 0;
    const errors = h?.errors ?? 0;
    const base = { ...info(r), requests, errors, errorRate: requests === 0 ? 0 : errors / requests, p95Ms: h ? h.p95 / 1e6 : null };
    return { ...base, ...classifyHealth(base, range.toNs) };
  });
}

const SKEW_NS = 60_000_000_000n;

const PROTOCOL = `multiIf(c.db_system IS NOT NULL, 'sql', c.rpc_system IS NOT NULL OR c.rpc_method IS NOT NULL, 'grpc',
  c.http_method IS NOT NULL, 'http', c.kind = 'PRODUCER', 'messaging', 'other')`;

/**
 * topology.ts, the same rules, for each window asked in one tick (store.ts batches them) from one
 * query: calls and the servers they reached labelled by window, joined within it. An unmatched join
 * side reads as '' here (ClickHouse's join default), not NULL.
 */
export async function topology(ch: ChClient, s: ChSchema, ranges: readonly TimeRange[]): Promise<TopologyEdge[][]> {
  const serverWindows = ranges.map((r) => ({ fromNs: r.fromNs - SKEW_NS, toNs: r.toNs + SKEW_NS }));
  const labelled = (windows: readonly TimeRange[], columns: readonly SpanColumn[]) =>
    `(SELECT *, w FROM ${spans(s, inAnyRange('Timestamp', windows), [...columns, 'start_ns'])} ARRAY JOIN ${windowsOf('start_ns', windows)} AS w)`;
  const rows = await ch.query<TopologyEdge & { w: number }>(
    `WITH calls AS (
       SELECT c.w AS w, c.span_id AS span_id, c.service_name AS caller, c.source AS source, ${PROTOCOL} AS protocol,
         coalesce(if(sv.service_name != '' AND sv.service_name != c.service_name, sv.service_name, NULL), c.peer_service, c.server_address, c.db_system, c.rpc_service) AS callee,
         ${errorSpanSql((col) => `c.${col}`)} OR (sv.service_name != c.service_name AND sv.failed) AS failed
       FROM ${labelled(ranges, ['trace_id', 'span_id', 'service_name', 'source', 'db_system', 'rpc_system', 'rpc_method', 'rpc_service', 'http_method', 'peer_service', 'server_address', ...SPAN_OUTCOME_COLUMNS])} AS c
       LEFT JOIN (SELECT w, trace_id, parent_span_id, service_name, ${errorSpanSql()} AS failed FROM ${labelled(serverWindows, ['trace_id', 'parent_span_id', 'service_name', ...SPAN_OUTCOME_COLUMNS])}
                  WHERE kind IN ('SERVER', 'CONSUMER')) AS sv
         ON sv.w = c.w AND sv.trace_id = c.trace_id AND sv.parent_span_id = c.span_id
       WHERE c.kind IN ('CLIENT', 'PRODUCER')
     ), per_source AS (
       SELECT w, caller, callee, source, any(protocol) AS protocol, uniqExact(span_id) AS n_calls, uniqExactIf(span_id, failed) AS n_errors
       FROM calls WHERE callee IS NOT NULL AND callee != caller GROUP BY w, caller, callee, source
     )
     SELECT w, caller AS from, assumeNotNull(callee) AS to,
       if(callee IN (SELECT service_name FROM ${registry(s)}), 'service', 'external') AS kind,
       any(protocol) AS protocol, toInt32(max(n_calls)) AS calls, toInt32(max(n_errors)) AS errors, arraySort(groupArray(source)) AS sources
     FROM per_source GROUP BY w, caller, callee ORDER BY w, caller, callee`,
  );
  return byWindow(rows, ranges.length);
}

export async function listMetrics(ch: ChClient, s: ChSchema, q: MetricQuery): Promise<MetricInfo[]> {
  const w = new Conditions();
  w.maybe(q.service, 'service_name = ?');
  w.maybe(q.source, 'source = ?');
  if (q.names && q.names.length > 0) w.add(`metric_name IN ${list(q.names)}`);
  if (q.nameContains) w.add('metric_name ILIKE ?', likeContains(q.nameContains));
  const time = inRange('TimeUnix', q.range);
  const NULL = 'CAST(NULL AS Nullable(Float64))';
  const none = 'CAST([] AS Array(Float64)), CAST([] AS Array(Float64))';
  // Quantiles of different series cannot be combined: shown for a summary of one series only.
  const summaries = s.summaries
    ? `UNION ALL
       SELECT metric_name, any(unit), 'summary', source, service_name, toInt32(count()), toInt32(uniqExact(series_key)), ${NULL}, ${NULL}, ${NULL}, ${NULL}, ${NULL}, ${NULL},
         if(uniqExact(series_key) = 1, argMax(quantiles, time_ns), CAST([] AS Array(Float64))),
         if(uniqExact(series_key) = 1, argMax(quantile_values, time_ns), CAST([] AS Array(Float64)))
       FROM ${summaryPoints(s.database, time)} WHERE ${w.sql()}
       GROUP BY metric_name, source, service_name`
    : '';
  const rows = await ch.query<MetricInfoRow>(
    `SELECT * FROM (
       SELECT metric_name AS metricName, any(unit) AS unit, metric_type AS type, source, service_name AS serviceName,
         toInt32(count()) AS points, toInt32(uniqExact(series_key)) AS series,
         argMax(value, time_ns) AS last, min(value) AS min, max(value) AS max, avg(value) AS avg, ${NULL} AS count, ${NULL} AS sum,
         CAST([] AS Array(Float64)) AS quantileKeys, CAST([] AS Array(Float64)) AS quantileValues
       FROM ${numbers(s, time)} WHERE ${w.sql()} GROUP BY metric_name, metric_type, source, service_name
       UNION ALL
       SELECT metric_name, unit, 'histogram', source, service_name, points, series, ${NULL}, ${HISTOGRAM_RANGE},
         if(c = 0, ${NULL}, s / c), c, s, ${none}
       FROM (
         SELECT metric_name, any(unit) AS unit, source, service_name, toInt32(sum(p)) AS points, toInt32(count()) AS series,
           min(smn) AS mn, max(smx) AS mx, toFloat64(sum(sc)) AS c, toFloat64(sum(ss)) AS s
         FROM (
           SELECT metric_name, any(unit) AS unit, source, service_name, count() AS p, min(min) AS smn, max(max) AS smx,
             argMax(count, time_ns) AS sc, argMax(sum, time_ns) AS ss
           FROM ${histogramTotals(s, time)} WHERE ${w.sql()} GROUP BY metric_name, source, service_name, series_key
         ) GROUP BY metric_name, source, service_name
       )
       ${summaries}
     ) ORDER BY serviceName, metricName, source`,
  );
  return rows.map(metricInfoOf);
}


export async function gaugePoints(ch: ChClient, s: ChSchema, range: TimeRange, names: readonly string[]): Promise<GaugePoint[]> {
  const rows = await ch.query<{ service: string; metric: string; series: string; timeNs: string; value: number }>(
    `SELECT service_name AS service, metric_name AS metric, series_key AS series, toString(time_ns) AS timeNs, toFloat64(value) AS value
     FROM ${numbers(s, `${inRange('TimeUnix', range)} AND MetricName IN ${list(names)}`)} ORDER BY service, metric, series, time_ns`,
  );
  return rows.map((r) => ({ ...r, timeNs: BigInt(r.timeNs) }));
}

export async function counts(ch: ChClient, s: ChSchema): Promise<StoreCounts> {
  const [r] = await ch.query<StoreCounts>(
    `SELECT toInt32((SELECT count() FROM ${table(s, 'traces')})) AS spans,
       toInt32((SELECT count() FROM ${table(s, 'gauge')}) + (SELECT count() FROM ${table(s, 'sum')})) AS numberPoints,
       toInt32((SELECT count() FROM ${table(s, 'histogram')})) AS histogramPoints,
       toInt32((SELECT count() FROM ${table(s, 'logs')})) AS logs,
       toInt32((SELECT count() FROM ${table(s, 'logs')} WHERE ${eventKindExpr(s)} != '')) AS events,
       toInt32((SELECT uniqExact(service_name) FROM ${registry(s)})) AS services`,
  );
  return r;
}
