import type { Database } from '../db.js';
import type { LogLevel, Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { type StepGrid, gridEndNs } from '../../unified/steps.js';
import { STREAM_RPC_SQL } from '../../unified/streams.js';
import { errorSpanSql } from '../../otlp/span-error.js';
import { BUCKET, OPERATION_MATCH } from './breakdown.js';
import { HISTORY_LOOKBACK_NS } from './red.js';
import { Where } from './filters.js';

/**
 * The reads behind coral_query_timeseries: thin SQL that counts per step (both backends return the
 * same rows); choosing the source, the groups and the gaps is the pure code's (unified/steps.ts,
 * series-fold.ts, metric-steps.ts).
 */

/** The attribute that stands for the service itself (its column, not a map lookup). */
export const SERVICE_KEY = 'service.name';

/** What every series read narrows by. */
export interface SeriesFilter {
  grid: StepGrid;
  service?: string;
  /** An attribute value each row must have: the span's (or point's, record's) own attribute, else its resource's; an empty value is no value. */
  attributes?: Readonly<Record<string, string>>;
}

export interface SpanSeriesQuery extends SeriesFilter {
  /** As coral_query_breakdown takes it: an operation as the summary names it, a span name or an HTTP route (then spans of any kind). */
  operation?: string;
  /** Only this source's spans. */
  source?: Source;
  /** Spans are grouped by this attribute's value ... */
  groupBy?: string;
  /** ... and these values are series 0, 1, ... (null: the spans without a value); every other value is series -1. */
  groups?: readonly (string | null)[];
  /** Exact P50/P95/P99 per step too (a sort per step: only when a chart of them is asked for). */
  quantiles?: boolean;
}

/** One source's spans of one series in one step. */
export interface SpanStepRow {
  source: Source;
  /** The index into SpanSeriesQuery.groups, -1 for the rest; 0 without groupBy. */
  series: number;
  step: number;
  requests: number;
  errors: number;
  /** Exact, in milliseconds; null unless quantiles were asked. */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

/** Spans per source and value of the groupBy attribute over the grid: the largest `limit` values of each source, and how many there are. */
export interface SpanGroupRow {
  source: Source;
  group: string | null;
  spans: number;
  /** Distinct values (no value counted as one) that source has. */
  groups: number;
  /** Every span that source has. */
  total: number;
}

/** Spans of one source in one step and log latency bucket (stats.ts LOG_BUCKETS_PER_DOUBLING): the heatmap's cells. */
export interface LatencyStepRow {
  source: Source;
  step: number;
  bucket: number;
  spans: number;
}

/** Log records of one level in one step. */
export interface LogStepRow {
  level: LogLevel;
  step: number;
  records: number;
}

export interface MetricPointQuery extends SeriesFilter {
  metric: string;
  groupBy?: string;
}

/** A gauge or sum point: one series (the store's own series key, an identity only), its group value and its value. */
export interface NumberPointRow {
  series: string;
  source: Source;
  group: string | null;
  metricType: 'gauge' | 'sum';
  temporality: string;
  monotonic: boolean;
  unit: string;
  startNs: bigint;
  timeNs: bigint;
  value: number;
}

export interface HistogramPointRow {
  series: string;
  source: Source;
  group: string | null;
  temporality: string;
  unit: string;
  startNs: bigint;
  timeNs: bigint;
  bounds: number[];
  counts: number[];
}

/** The named metric's points in the grid and in the lookback before it (a cumulative series' previous point). */
export interface MetricPoints {
  numbers: NumberPointRow[];
  histograms: HistogramPointRow[];
}

/** Where metric points are read from: the grid and, before it, as far as a cumulative series' previous point is looked for. */
export function metricReadRange(g: StepGrid): TimeRange {
  return { fromNs: g.startNs - HISTORY_LOOKBACK_NS, toNs: gridEndNs(g) };
}

/** Which spans a span series counts: an operation's (any kind), else the requests served, streams left out (as the summary's onset series). */
export const SERVED_SPANS = `kind IN ('SERVER', 'CONSUMER') AND NOT ${STREAM_RPC_SQL}`;

/** The step of an epoch-nanosecond expression, both backends' arithmetic alike: count - 1 - (end - t) div step. */
export function stepIndexSql(ns: string, g: StepGrid, lit: (v: bigint | number) => string, div: (a: string, b: string) => string): string {
  return `${g.count - 1} - ${div(`${lit(gridEndNs(g))} - ${ns}`, lit(g.stepNs))}`;
}

/** DuckDB's JSON path of an attribute key (keys are checked at the tool's edge: no quote can reach here). */
function jsonPath(key: string): string {
  return `$."${key}"`;
}

/** DuckDB: an attribute's value, the row's own else its resource's, '' read as none. */
function attributeSql(w: Where, key: string): string {
  if (key === SERVICE_KEY) return 'service_name';
  const path = w.bind(jsonPath(key));
  return `coalesce(nullif(json_extract_string(attributes, ${path}), ''), nullif(json_extract_string(resource_attributes, ${path}), ''))`;
}

function applyFilter(w: Where, f: SeriesFilter, time: string): void {
  w.range(time, { fromNs: f.grid.startNs, toNs: gridEndNs(f.grid) });
  w.maybe(f.service, 'service_name = ?');
  for (const [k, v] of Object.entries(f.attributes ?? {})) w.add(`${attributeSql(w, k)} = ?`, v);
}

function spanWhere(q: SpanSeriesQuery): Where {
  const w = new Where();
  applyFilter(w, q, 'start_ns');
  if (q.operation !== undefined) w.add(OPERATION_MATCH, q.operation, q.operation, q.operation);
  else w.add(SERVED_SPANS);
  w.maybe(q.source, 'source = ?');
  return w;
}

const duckStep = (w: Where, g: StepGrid, ns: string) => `(${stepIndexSql(ns, g, (v) => `${w.bind(v)}::BIGINT`, (a, b) => `((${a}) // ${b})`)})::INTEGER`;

/** DuckDB: the series a row belongs to, as its group value's index among `groups` (-1 for any other value). */
function seriesSql(w: Where, q: SpanSeriesQuery): string {
  if (q.groupBy === undefined || q.groups === undefined) return '0';
  const value = attributeSql(w, q.groupBy);
  const arms = q.groups.map((g, i) => (g === null ? `WHEN ${value} IS NULL THEN ${i}` : `WHEN ${value} = ${w.bind(g)} THEN ${i}`));
  return arms.length === 0 ? '-1' : `CASE ${arms.join(' ')} ELSE -1 END`;
}

export async function spanSteps(db: Database, q: SpanSeriesQuery): Promise<SpanStepRow[]> {
  const w = spanWhere(q);
  const series = seriesSql(w, q);
  const step = duckStep(w, q.grid, 'start_ns');
  const quantiles = q.quantiles ? 'quantile_cont(duration_ns, [0.5, 0.95, 0.99])' : 'NULL::DOUBLE[]';
  const rows = await db.query<Omit<SpanStepRow, 'p50Ms' | 'p95Ms' | 'p99Ms'> & { q: number[] | null }>(
    `SELECT source, ${series}::INTEGER AS series, ${step} AS step, count(*)::INTEGER AS requests,
       (count(*) FILTER (WHERE ${errorSpanSql()}))::INTEGER AS errors, ${quantiles} AS q
     FROM otel_traces WHERE ${w.sql()} GROUP BY ALL ORDER BY source, series, step`,
    w.params,
  );
  return rows.map(({ q: qs, ...r }) => withQuantiles(r, qs));
}

/** A step row with its quantiles (nanoseconds) in milliseconds, as both backends give them. */
export function withQuantiles<T>(r: T, q: readonly number[] | null | undefined): T & Pick<SpanStepRow, 'p50Ms' | 'p95Ms' | 'p99Ms'> {
  const ms = (i: number) => (q && q.length === 3 ? q[i] / 1e6 : null);
  return { ...r, p50Ms: ms(0), p95Ms: ms(1), p99Ms: ms(2) };
}

/** At most this many values of the groupBy attribute per source come back (the largest): a request-unique key must not return a row per span. */
export const MAX_GROUP_ROWS = 200;

export async function spanGroups(db: Database, q: SpanSeriesQuery & { groupBy: string }): Promise<SpanGroupRow[]> {
  const w = spanWhere(q);
  const value = attributeSql(w, q.groupBy);
  return db.query<SpanGroupRow>(
    `SELECT source, g AS "group", spans, groups, total FROM (
       SELECT source, g, count(*)::INTEGER AS spans, (count(*) OVER (PARTITION BY source))::INTEGER AS groups,
         (sum(count(*)) OVER (PARTITION BY source))::INTEGER AS total,
         row_number() OVER (PARTITION BY source ORDER BY count(*) DESC, g NULLS LAST) AS rank
       FROM (SELECT source, ${value} AS g FROM otel_traces WHERE ${w.sql()}) GROUP BY source, g
     ) WHERE rank <= ${MAX_GROUP_ROWS} ORDER BY source, spans DESC, "group" NULLS LAST`,
    w.params,
  );
}

export async function latencySteps(db: Database, q: SpanSeriesQuery): Promise<LatencyStepRow[]> {
  const w = spanWhere(q);
  return db.query<LatencyStepRow>(
    `SELECT source, ${duckStep(w, q.grid, 'start_ns')} AS step, ${BUCKET}::INTEGER AS bucket, count(*)::INTEGER AS spans
     FROM otel_traces WHERE ${w.sql()} GROUP BY ALL ORDER BY source, step, bucket`,
    w.params,
  );
}

export async function logSteps(db: Database, q: SeriesFilter): Promise<LogStepRow[]> {
  const w = new Where();
  applyFilter(w, q, 'time_ns');
  return db.query<LogStepRow>(
    `SELECT level, ${duckStep(w, q.grid, 'time_ns')} AS step, count(*)::INTEGER AS records
     FROM otel_logs WHERE ${w.sql()} GROUP BY ALL ORDER BY level, step`,
    w.params,
  );
}

type NumberList = string | number[];
const numbers = (v: NumberList): number[] => (typeof v === 'string' ? (JSON.parse(v) as number[]) : v);

export async function metricPoints(db: Database, q: MetricPointQuery): Promise<MetricPoints> {
  const read = metricReadRange(q.grid);
  const where = () => {
    const w = new Where().range('time_ns', read).add('metric_name = ?', q.metric);
    w.maybe(q.service, 'service_name = ?');
    for (const [k, v] of Object.entries(q.attributes ?? {})) w.add(`${attributeSql(w, k)} = ?`, v);
    return w;
  };
  const wn = where();
  const wh = where();
  const group = (w: Where) => (q.groupBy === undefined ? 'NULL::VARCHAR' : attributeSql(w, q.groupBy));
  const [nums, hists] = await Promise.all([
    db.query<NumberPointRow>(
      `SELECT series_key AS series, source, ${group(wn)} AS "group", metric_type AS "metricType", temporality, is_monotonic AS monotonic, unit,
         start_ns AS "startNs", time_ns AS "timeNs", value::DOUBLE AS value
       FROM otel_metrics_number WHERE ${wn.sql()} ORDER BY series_key, time_ns`,
      wn.params,
    ),
    db.query<Omit<HistogramPointRow, 'bounds' | 'counts'> & { bounds: NumberList; counts: NumberList }>(
      `SELECT series_key AS series, source, ${group(wh)} AS "group", temporality, unit, start_ns AS "startNs", time_ns AS "timeNs", bounds, bucket_counts AS counts
       FROM otel_metrics_histogram WHERE ${wh.sql()} ORDER BY series_key, time_ns`,
      wh.params,
    ),
  ]);
  return { numbers: nums, histograms: hists.map((h) => ({ ...h, bounds: numbers(h.bounds), counts: numbers(h.counts) })) };
}
