import { errorSpanSql } from '../../otlp/span-error.js';
import type { Source } from '../rows.js';
import { type StepGrid, gridEndNs } from '../../unified/steps.js';
import { BUCKET, OPERATION_MATCH } from '../queries/breakdown.js';
import {
  type HistogramPointRow, type LatencyStepRow, type LogStepRow, type MetricPointQuery, type MetricPoints, type NumberPointRow, type SeriesFilter,
  type SpanGroupRow, type SpanSeriesQuery, type SpanStepRow, MAX_GROUP_ROWS, SERVED_SPANS, SERVICE_KEY, metricReadRange, stepIndexSql, withQuantiles,
} from '../queries/timeseries.js';
import type { ChClient } from './client.js';
import { Conditions, inRange, lit } from './sql.js';
import { type ChSchema, type SpanColumn, derived, histogramAliases, logs, spanAliases, table } from './views.js';

/** The DuckDB reads of queries/timeseries.ts over the exporter's tables: the same rows. */

const COLUMNS: readonly SpanColumn[] = ['name', 'kind', 'source', 'start_ns', 'duration_ns', 'status_code', 'http_method', 'http_route', 'http_status_code',
  'rpc_service', 'rpc_method', 'rpc_status_code', 'db_system', 'db_operation', 'db_table'];

/** An attribute's value, the row's own map else its resource's, '' read as none (queries/timeseries.ts attributeSql). */
function attributeSql(key: string, own: string): string {
  if (key === SERVICE_KEY) return 'ServiceName';
  return `coalesce(nullIf(${own}[${lit(key)}], ''), nullIf(ResourceAttributes[${lit(key)}], ''))`;
}

function applyFilter(w: Conditions, f: SeriesFilter, time: string, own: string): void {
  w.add(inRange(time, { fromNs: f.grid.startNs, toNs: gridEndNs(f.grid) }));
  w.maybe(f.service, 'ServiceName = ?');
  for (const [k, v] of Object.entries(f.attributes ?? {})) w.add(`${attributeSql(k, own)} = ?`, v);
}

function spanWhere(q: SpanSeriesQuery): Conditions {
  const w = new Conditions();
  applyFilter(w, q, 'Timestamp', 'SpanAttributes');
  if (q.operation !== undefined) w.add(OPERATION_MATCH, q.operation, q.operation, q.operation);
  else w.add(SERVED_SPANS);
  w.maybe(q.source, 'source = ?');
  return w;
}

const chStep = (g: StepGrid, ns: string) => `toInt32(${stepIndexSql(ns, g, lit, (a, b) => `intDiv(${a}, ${b})`)})`;

function seriesSql(q: SpanSeriesQuery): string {
  if (q.groupBy === undefined || q.groups === undefined) return '0';
  const value = attributeSql(q.groupBy, 'SpanAttributes');
  const arms = q.groups.map((g, i) => (g === null ? `WHEN ${value} IS NULL THEN ${i}` : `WHEN ${value} = ${lit(g)} THEN ${i}`));
  return arms.length === 0 ? '-1' : `CASE ${arms.join(' ')} ELSE -1 END`;
}

export async function spanSteps(ch: ChClient, s: ChSchema, q: SpanSeriesQuery): Promise<SpanStepRow[]> {
  const quantiles = q.quantiles ? ', quantilesExactInclusive(0.5, 0.95, 0.99)(duration_ns) AS q' : '';
  const rows = await ch.query<Omit<SpanStepRow, 'p50Ms' | 'p95Ms' | 'p99Ms'> & { q?: number[] }>(
    `WITH ${spanAliases(s, COLUMNS).defs}
     SELECT source, toInt32(${seriesSql(q)}) AS series, ${chStep(q.grid, 'start_ns')} AS step, toInt32(count()) AS requests,
       toInt32(countIf(${errorSpanSql()})) AS errors${quantiles}
     FROM ${table(s, 'traces')} WHERE ${spanWhere(q).sql()}
     GROUP BY source, series, step ORDER BY source, series, step`,
  );
  return rows.map(({ q: qs, ...r }) => withQuantiles(r, qs));
}

export async function spanGroups(ch: ChClient, s: ChSchema, q: SpanSeriesQuery & { groupBy: string }): Promise<SpanGroupRow[]> {
  const rows = await ch.query<Omit<SpanGroupRow, 'group'> & { g: string | null }>(
    `WITH ${spanAliases(s, COLUMNS).defs}, ${attributeSql(q.groupBy, 'SpanAttributes')} AS g
     SELECT source, g, toInt32(count()) AS spans, toInt32(count() OVER (PARTITION BY source)) AS groups,
       toInt32(sum(count()) OVER (PARTITION BY source)) AS total
     FROM ${table(s, 'traces')} WHERE ${spanWhere(q).sql()}
     GROUP BY source, g ORDER BY source, spans DESC, g ASC NULLS LAST LIMIT ${MAX_GROUP_ROWS} BY source`,
  );
  return rows.map(({ g, ...r }) => ({ ...r, group: g }));
}

export async function latencySteps(ch: ChClient, s: ChSchema, q: SpanSeriesQuery): Promise<LatencyStepRow[]> {
  return ch.query<LatencyStepRow>(
    `WITH ${spanAliases(s, COLUMNS).defs}
     SELECT source, ${chStep(q.grid, 'start_ns')} AS step, toInt32(${BUCKET}) AS bucket, toInt32(count()) AS spans
     FROM ${table(s, 'traces')} WHERE ${spanWhere(q).sql()}
     GROUP BY source, step, bucket ORDER BY source, step, bucket`,
  );
}

export async function logSteps(ch: ChClient, s: ChSchema, q: SeriesFilter): Promise<LogStepRow[]> {
  const inner = new Conditions();
  applyFilter(inner, q, 'Timestamp', 'LogAttributes');
  return ch.query<LogStepRow>(
    `SELECT level, ${chStep(q.grid, 'time_ns')} AS step, toInt32(count()) AS records
     FROM ${logs(s, inner.sql())} GROUP BY level, step ORDER BY level, step`,
  );
}

type ChNumberRow = Omit<NumberPointRow, 'startNs' | 'timeNs' | 'group'> & { startNs: string; timeNs: string; g: string | null };
type ChHistogramRow = Omit<HistogramPointRow, 'startNs' | 'timeNs' | 'group'> & { startNs: string; timeNs: string; g: string | null };

const TEMPORALITY = `multiIf(AggregationTemporality = 1, 'delta', AggregationTemporality = 2, 'cumulative', 'unspecified')`;

export async function metricPoints(ch: ChClient, s: ChSchema, q: MetricPointQuery): Promise<MetricPoints> {
  const w = new Conditions().add(inRange('TimeUnix', metricReadRange(q.grid))).add('MetricName = ?', q.metric);
  w.maybe(q.service, 'ServiceName = ?');
  for (const [k, v] of Object.entries(q.attributes ?? {})) w.add(`${attributeSql(k, 'Attributes')} = ?`, v);
  const group = q.groupBy === undefined ? 'CAST(NULL AS Nullable(String))' : attributeSql(q.groupBy, 'Attributes');
  const point = (which: 'gauge' | 'sum') => `${derived(s, which, 'series_key')} AS series, ${derived(s, which, 'source')} AS source, ${group} AS g,
    MetricUnit AS unit, toString(toUnixTimestamp64Nano(StartTimeUnix)) AS startNs, toString(toUnixTimestamp64Nano(TimeUnix)) AS timeNs`;
  const [nums, hists] = await Promise.all([
    ch.query<ChNumberRow>(
      `SELECT * FROM (
         SELECT ${point('gauge')}, 'gauge' AS metricType, 'unspecified' AS temporality, false AS monotonic, toFloat64(Value) AS value FROM ${table(s, 'gauge')} WHERE ${w.sql()}
         UNION ALL
         SELECT ${point('sum')}, 'sum' AS metricType, ${TEMPORALITY} AS temporality, IsMonotonic AS monotonic, toFloat64(Value) AS value FROM ${table(s, 'sum')} WHERE ${w.sql()}
       ) ORDER BY series, timeNs`,
    ),
    ch.query<ChHistogramRow>(
      `WITH ${histogramAliases(s, ['series_key', 'source', 'unit', 'start_ns', 'time_ns', 'temporality', 'bucket_counts', 'bounds'])}
       SELECT series_key AS series, source, ${group} AS g, temporality, unit, toString(start_ns) AS startNs, toString(time_ns) AS timeNs, bounds, bucket_counts AS counts
       FROM ${table(s, 'histogram')} WHERE ${w.sql()} ORDER BY series_key, time_ns`,
    ),
  ]);
  const ns = <T extends { startNs: string; timeNs: string; g: string | null }>({ g, ...r }: T) => ({ ...r, group: g, startNs: BigInt(r.startNs), timeNs: BigInt(r.timeNs) });
  return {
    numbers: nums.map((r) => ({ ...ns(r), source: r.source as Source, monotonic: Boolean(r.monotonic) })),
    histograms: hists.map(ns),
  };
}
