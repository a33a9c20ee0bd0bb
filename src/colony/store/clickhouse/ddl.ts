import { MAX_BUCKETS_PER_SIDE, MAX_SCALE, MIN_SCALE } from '../../otlp/exponential.js';

/**
 * The OpenTelemetry Collector ClickHouse exporter's tables, as its own DDL creates them
 * (opentelemetry-collector-contrib exporter/clickhouseexporter/internal/sql_templates), so that a
 * colony that creates missing tables and a Collector writing beside it share one schema.
 */
export interface TableNames {
  traces: string;
  logs: string;
  gauge: string;
  sum: string;
  histogram: string;
}

/** The exporter's defaults (`traces_table_name`, `logs_table_name`, `metrics_tables.*.name`). */
export const DEFAULT_TABLES: TableNames = {
  traces: 'otel_traces',
  logs: 'otel_logs',
  gauge: 'otel_metrics_gauge',
  sum: 'otel_metrics_sum',
  histogram: 'otel_metrics_histogram',
};

/**
 * The exporter's summary table, by its default name (`metrics_tables.summary.name`; DDL from
 * exporter/clickhouseexporter/internal/sqltemplates/metrics_summary_table.sql).
 */
export const SUMMARY_TABLE = 'otel_metrics_summary';

/**
 * The exporter's exponential histogram table, by its default name. Coral does not write it (it
 * stores exponential histograms as explicit bounds, otlp/exponential.ts); what a Collector writes
 * there reaches the histogram table, converted the same way, through a materialized view.
 */
export const EXPONENTIAL_TABLE = 'otel_metrics_exponential_histogram';

/** A quoted identifier: names come from config and must never break out of the statement. */
export function ident(name: string): string {
  return `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}

export function qualified(database: string, table: string): string {
  return `${ident(database)}.${ident(table)}`;
}

const MAP = 'Map(LowCardinality(String), String)';

const METRIC_COMMON = `ResourceAttributes ${MAP} CODEC(ZSTD(1)),
    ResourceSchemaUrl String CODEC(ZSTD(1)),
    ScopeName String CODEC(ZSTD(1)),
    ScopeVersion String CODEC(ZSTD(1)),
    ScopeAttributes ${MAP} CODEC(ZSTD(1)),
    ScopeDroppedAttrCount UInt32 CODEC(ZSTD(1)),
    ScopeSchemaUrl String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    MetricName String CODEC(ZSTD(1)),
    MetricDescription String CODEC(ZSTD(1)),
    MetricUnit String CODEC(ZSTD(1)),
    Attributes ${MAP} CODEC(ZSTD(1)),
    StartTimeUnix DateTime64(9) CODEC(Delta, ZSTD(1)),
    TimeUnix DateTime64(9) CODEC(Delta, ZSTD(1)),`;

const EXEMPLARS = `Exemplars Nested (
        FilteredAttributes ${MAP},
        TimeUnix DateTime64(9),
        Value Float64,
        SpanId String,
        TraceId String
    ) CODEC(ZSTD(1)),`;

const METRIC_INDEXES = `INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_key mapKeys(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_value mapValues(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_attr_key mapKeys(Attributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_attr_value mapValues(Attributes) TYPE bloom_filter(0.01) GRANULARITY 1`;

const SETTINGS = 'SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1';

/**
 * How many recent inserts a table coral creates remembers, to drop an identical one (a re-sent
 * export): ClickHouse's insert de-duplication, on by default for Replicated tables and off for plain
 * MergeTree ones, which the exporter creates. Each export is one insert per table it has rows for.
 */
export const DEDUP_WINDOW = 10_000;

export interface CreateOptions {
  engine?: string;
  /** Remember this many inserts to drop a re-sent one (coral's own tables); none, as the exporter creates them. */
  dedupWindow?: number;
}

/** CREATE statements for every table (and the trace-id lookup table with its materialized view). */
export function createTableStatements(database: string, t: TableNames, o: CreateOptions = {}): string[] {
  const q = (name: string) => qualified(database, name);
  const engine = o.engine ?? 'MergeTree()';
  // The lookup table is fed by a view, which a dropped duplicate insert still feeds: its min/max reads are unaffected.
  const settings = o.dedupWindow ? `${SETTINGS}, non_replicated_deduplication_window = ${o.dedupWindow}` : SETTINGS;
  const metricTail = `PARTITION BY toDate(TimeUnix)
ORDER BY (ServiceName, MetricName, Attributes, toUnixTimestamp64Nano(TimeUnix))
${settings}`;
  return [
    `CREATE DATABASE IF NOT EXISTS ${ident(database)}`,
    `CREATE TABLE IF NOT EXISTS ${q(t.traces)} (
    Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ParentSpanId String CODEC(ZSTD(1)),
    TraceState String CODEC(ZSTD(1)),
    SpanName LowCardinality(String) CODEC(ZSTD(1)),
    SpanKind LowCardinality(String) CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    ResourceAttributes ${MAP} CODEC(ZSTD(1)),
    ScopeName String CODEC(ZSTD(1)),
    ScopeVersion String CODEC(ZSTD(1)),
    SpanAttributes ${MAP} CODEC(ZSTD(1)),
    Duration UInt64 CODEC(ZSTD(1)),
    StatusCode LowCardinality(String) CODEC(ZSTD(1)),
    StatusMessage String CODEC(ZSTD(1)),
    Events Nested (
        Timestamp DateTime64(9),
        Name LowCardinality(String),
        Attributes ${MAP}
    ) CODEC(ZSTD(1)),
    Links Nested (
        TraceId String,
        SpanId String,
        TraceState String,
        Attributes ${MAP}
    ) CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_span_attr_key mapKeys(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_span_attr_value mapValues(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_duration Duration TYPE minmax GRANULARITY 1
) ENGINE = ${engine}
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, SpanName, toDateTime(Timestamp))
${settings}`,
    `CREATE TABLE IF NOT EXISTS ${q(`${t.traces}_trace_id_ts`)} (
    TraceId String CODEC(ZSTD(1)),
    Start DateTime CODEC(Delta, ZSTD(1)),
    End DateTime CODEC(Delta, ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.01) GRANULARITY 1
) ENGINE = ${engine}
PARTITION BY toDate(Start)
ORDER BY (TraceId, Start)
${SETTINGS}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${q(`${t.traces}_trace_id_ts_mv`)}
TO ${q(`${t.traces}_trace_id_ts`)}
AS SELECT TraceId, min(Timestamp) AS Start, max(Timestamp) AS End
FROM ${q(t.traces)}
WHERE TraceId != ''
GROUP BY TraceId`,
    `CREATE TABLE IF NOT EXISTS ${q(t.logs)} (
    Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),
    TimestampTime DateTime DEFAULT toDateTime(Timestamp),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    TraceFlags UInt8,
    SeverityText LowCardinality(String) CODEC(ZSTD(1)),
    SeverityNumber UInt8,
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Body String CODEC(ZSTD(1)),
    ResourceSchemaUrl LowCardinality(String) CODEC(ZSTD(1)),
    ResourceAttributes ${MAP} CODEC(ZSTD(1)),
    ScopeSchemaUrl LowCardinality(String) CODEC(ZSTD(1)),
    ScopeName String CODEC(ZSTD(1)),
    ScopeVersion LowCardinality(String) CODEC(ZSTD(1)),
    ScopeAttributes ${MAP} CODEC(ZSTD(1)),
    LogAttributes ${MAP} CODEC(ZSTD(1)),
    EventName String CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_key mapKeys(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_value mapValues(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_log_attr_key mapKeys(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_log_attr_value mapValues(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_body Body TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 8
) ENGINE = ${engine}
PARTITION BY toDate(TimestampTime)
PRIMARY KEY (ServiceName, TimestampTime)
ORDER BY (ServiceName, TimestampTime, Timestamp)
${settings}`,
    `CREATE TABLE IF NOT EXISTS ${q(t.gauge)} (
    ${METRIC_COMMON}
    Value Float64 CODEC(ZSTD(1)),
    Flags UInt32 CODEC(ZSTD(1)),
    ${EXEMPLARS}
    ${METRIC_INDEXES}
) ENGINE = ${engine}
${metricTail}`,
    `CREATE TABLE IF NOT EXISTS ${q(t.sum)} (
    ${METRIC_COMMON}
    Value Float64 CODEC(ZSTD(1)),
    Flags UInt32 CODEC(ZSTD(1)),
    ${EXEMPLARS}
    AggregationTemporality Int32 CODEC(ZSTD(1)),
    IsMonotonic Boolean CODEC(Delta, ZSTD(1)),
    ${METRIC_INDEXES}
) ENGINE = ${engine}
${metricTail}`,
    `CREATE TABLE IF NOT EXISTS ${q(t.histogram)} (
    ${METRIC_COMMON}
    Count UInt64 CODEC(Delta, ZSTD(1)),
    Sum Float64 CODEC(ZSTD(1)),
    BucketCounts Array(UInt64) CODEC(ZSTD(1)),
    ExplicitBounds Array(Float64) CODEC(ZSTD(1)),
    ${EXEMPLARS}
    Flags UInt32 CODEC(ZSTD(1)),
    Min Float64 CODEC(ZSTD(1)),
    Max Float64 CODEC(ZSTD(1)),
    AggregationTemporality Int32 CODEC(ZSTD(1)),
    ${METRIC_INDEXES}
) ENGINE = ${engine}
${metricTail}`,
    `CREATE TABLE IF NOT EXISTS ${q(EXPONENTIAL_TABLE)} (
    ${METRIC_COMMON}
    Count UInt64 CODEC(Delta, ZSTD(1)),
    Sum Float64 CODEC(ZSTD(1)),
    Scale Int32 CODEC(ZSTD(1)),
    ZeroCount UInt64 CODEC(ZSTD(1)),
    PositiveOffset Int32 CODEC(ZSTD(1)),
    PositiveBucketCounts Array(UInt64) CODEC(ZSTD(1)),
    NegativeOffset Int32 CODEC(ZSTD(1)),
    NegativeBucketCounts Array(UInt64) CODEC(ZSTD(1)),
    ${EXEMPLARS}
    Flags UInt32 CODEC(ZSTD(1)),
    Min Float64 CODEC(ZSTD(1)),
    Max Float64 CODEC(ZSTD(1)),
    AggregationTemporality Int32 CODEC(ZSTD(1)),
    ${METRIC_INDEXES}
) ENGINE = ${engine}
${metricTail}`,
    exponentialView(database, t.histogram),
    summaryStatement(database, engine, settings),
  ];
}

/**
 * otlp/exponential.ts exponentialToExplicit in SQL, for the Collector's rows (the exporter keeps no
 * zero threshold: it is 0). Bucket edge i is 2^(i * 2^-Scale); negative edges, then the empty gap up
 * to the zero bucket (0, 0], then the gap up to the first positive edge and the positive buckets.
 * Points coral would refuse (exponentialProblem) are left out.
 */
function exponentialView(database: string, histogram: string): string {
  const edge = (i: string) => `pow(2, (${i}) * pow(2, -Scale))`;
  const kn = 'length(NegativeBucketCounts)';
  const kp = 'length(PositiveBucketCounts)';
  const bounds = `arrayConcat(
      if(${kn} = 0, CAST([] AS Array(Float64)), arrayConcat(arrayMap(j -> -${edge(`NegativeOffset + toInt64(${kn}) - toInt64(j)`)}, range(${kn} + 1)), [0.])),
      [0.],
      if(${kp} = 0, CAST([] AS Array(Float64)), arrayMap(i -> ${edge('PositiveOffset + toInt64(i)')}, range(${kp} + 1))))`;
  const counts = `arrayConcat(
      if(${kn} = 0, CAST([] AS Array(UInt64)), arrayConcat([toUInt64(0)], arrayReverse(NegativeBucketCounts), [toUInt64(0)])),
      [ZeroCount],
      if(${kp} = 0, CAST([] AS Array(UInt64)), arrayConcat([toUInt64(0)], PositiveBucketCounts)),
      [toUInt64(0)])`;
  return `CREATE MATERIALIZED VIEW IF NOT EXISTS ${qualified(database, `${EXPONENTIAL_TABLE}_coral_mv`)} TO ${qualified(database, histogram)} AS
  SELECT ResourceAttributes, ResourceSchemaUrl, ScopeName, ScopeVersion, ScopeAttributes, ScopeDroppedAttrCount, ScopeSchemaUrl, ServiceName,
    MetricName, MetricDescription, MetricUnit, Attributes, StartTimeUnix, TimeUnix, Count, Sum,
    ${counts} AS BucketCounts,
    ${bounds} AS ExplicitBounds,
    Flags, Min, Max, AggregationTemporality
  FROM ${qualified(database, EXPONENTIAL_TABLE)}
  WHERE Scale BETWEEN ${MIN_SCALE} AND ${MAX_SCALE} AND ${kn} <= ${MAX_BUCKETS_PER_SIDE} AND ${kp} <= ${MAX_BUCKETS_PER_SIDE}
    AND isFinite(${edge(`PositiveOffset + ${kp}`)}) AND isFinite(${edge(`NegativeOffset + ${kn}`)})
    AND ${edge('PositiveOffset')} > 0 AND ${edge('NegativeOffset')} > 0`;
}

function summaryStatement(database: string, engine: string, settings: string): string {
  return `CREATE TABLE IF NOT EXISTS ${qualified(database, SUMMARY_TABLE)} (
    ResourceAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    ResourceSchemaUrl String CODEC(ZSTD(1)),
    ScopeName String CODEC(ZSTD(1)),
    ScopeVersion String CODEC(ZSTD(1)),
    ScopeAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    ScopeDroppedAttrCount UInt32 CODEC(ZSTD(1)),
    ScopeSchemaUrl String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    MetricName String CODEC(ZSTD(1)),
    MetricDescription String CODEC(ZSTD(1)),
    MetricUnit String CODEC(ZSTD(1)),
    Attributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    StartTimeUnix DateTime64(9) CODEC(Delta, ZSTD(1)),
    TimeUnix DateTime64(9) CODEC(Delta, ZSTD(1)),
    Count UInt64 CODEC(Delta, ZSTD(1)),
    Sum Float64 CODEC(ZSTD(1)),
    ValueAtQuantiles Nested(
        Quantile Float64,
        Value Float64
    ) CODEC(ZSTD(1)),
    Flags UInt32 CODEC(ZSTD(1)),
    INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_key mapKeys(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_value mapValues(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_attr_key mapKeys(Attributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_attr_value mapValues(Attributes) TYPE bloom_filter(0.01) GRANULARITY 1
) ENGINE = ${engine}
PARTITION BY toDate(TimeUnix)
ORDER BY (ServiceName, MetricName, Attributes, toUnixTimestamp64Nano(TimeUnix))
${settings}`;
}
