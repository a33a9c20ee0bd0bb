import { LOG_LEVELS } from '../rows.js';
import { type TableNames, ident, qualified } from './ddl.js';
import { type DerivedColumn, derivedColumns, sourceExpr, storedName } from './derived.js';
import { lit } from './sql.js';

/**
 * The exporter's tables seen with the DuckDB colony's column names (service_name, start_ns, kind,
 * source, http_route, ...), so that each query reads like its DuckDB twin. What the DuckDB colony
 * derives at ingest comes from derived.ts: stored columns where coral added them, else computed here.
 */
export interface ChSchema {
  database: string;
  tables: TableNames;
  /** Older exporters have no EventName column on the logs table; the event.name attribute is then read. */
  logsHaveEventName: boolean;
  /** The tables that carry coral's MATERIALIZED derived columns (see materialize.ts). */
  materialized: Record<keyof TableNames, boolean>;
  /** The registry table materialized views keep (registry.ts), or null when it is computed by a scan. */
  registryTable: string | null;
  /** The resource table (resources.ts), or null when spans are read with their ResourceAttributes. */
  resourceTable: string | null;
  /** Whether the exporter's summary table exists (summary.ts); a colony that only reads may lack it. */
  summaries: boolean;
}

export function table(s: ChSchema, which: keyof TableNames): string {
  return qualified(s.database, s.tables[which]);
}

function sqlOf(s: ChSchema, which: keyof TableNames, c: DerivedColumn): string {
  return s.materialized[which] ? ident(storedName(c)) : c.expr;
}

/** One derived value of a table's row, by its DuckDB name. */
export function derived(s: ChSchema, which: keyof TableNames, name: string): string {
  const c = derivedColumns(which, s.logsHaveEventName).find((x) => x.name === name);
  if (!c) throw new Error(`no derived column ${name} on ${which}`);
  return sqlOf(s, which, c);
}

/** `value AS name` for each of `names`. */
function select(s: ChSchema, which: keyof TableNames, names: readonly string[]): string[] {
  return names.map((n) => `${derived(s, which, n)} AS ${n}`);
}

/** The promoted span attributes (derived.ts hotColumns). */
type HotColumn = 'http_method' | 'http_route' | 'http_status_code' | 'rpc_system' | 'rpc_method' | 'rpc_service' | 'rpc_status_code' | 'db_system'
  | 'db_operation' | 'db_table' | 'db_statement' | 'peer_service' | 'server_address';

/** `Server`, `SPAN_KIND_SERVER` (older exporters) -> `SERVER`, as the DuckDB colony stores kinds. */
const KIND = `upper(replaceOne(SpanKind, 'SPAN_KIND_', ''))`;
const STATUS = `if(StatusCode = '', 'UNSET', upper(replaceOne(StatusCode, 'STATUS_CODE_', '')))`;

/** Span columns computed the same way whatever the table carries. */
const SPAN_FIXED = {
  trace_id: 'TraceId',
  span_id: 'SpanId',
  parent_span_id: 'ParentSpanId',
  name: 'SpanName',
  kind: KIND,
  service_name: 'ServiceName',
  start_ns: 'toUnixTimestamp64Nano(Timestamp)',
  duration_ns: 'toInt64(Duration)',
  status_code: STATUS,
  scope_name: 'ScopeName',
  status_message: 'StatusMessage',
  attributes: 'SpanAttributes',
  event_times: 'arrayMap(t -> toString(toUnixTimestamp64Nano(t)), Events.Timestamp)',
  event_names: 'Events.Name',
  event_attributes: 'Events.Attributes',
  link_trace_ids: 'Links.TraceId',
  link_span_ids: 'Links.SpanId',
};

/** A span column by its DuckDB colony name; `resource` is the span's resource, as the map or (with a resource table) its hash. */
export type SpanColumn = keyof typeof SPAN_FIXED | 'source' | HotColumn | 'resource';

/** A span column's expression, without its name. */
export function spanExpr(s: ChSchema, c: Exclude<SpanColumn, 'resource'>): string {
  return c in SPAN_FIXED ? SPAN_FIXED[c as keyof typeof SPAN_FIXED] : derived(s, 'traces', c);
}

/** The name a span column takes: the resource arrives as its map or as its hash. */
function spanName(s: ChSchema, c: SpanColumn): string {
  if (c !== 'resource') return c;
  return s.resourceTable === null ? 'resource_attributes' : 'resource_hash';
}

function spanColumn(s: ChSchema, c: SpanColumn): string {
  if (c === 'resource') {
    return s.resourceTable === null ? 'ResourceAttributes AS resource_attributes' : `toString(${derived(s, 'traces', 'resource_hash')}) AS resource_hash`;
  }
  return `${spanExpr(s, c)} AS ${c}`;
}

/**
 * The columns of a span record (span-record.ts), but the promoted ones: a few hundred spans derive
 * those from their own attributes with the DuckDB colony's code for less than reading 13 more columns.
 */
export const SPAN_DETAIL: readonly SpanColumn[] = [...(Object.keys(SPAN_FIXED) as (keyof typeof SPAN_FIXED)[]), 'source', 'resource'];

/**
 * The named span columns as WITH definitions (`defs`) and the names they take (`names`), for a query
 * straight over the table (`FROM table(s, 'traces')`): a subquery's scope costs ClickHouse more
 * analysis and planning than the rows of a demo-sized table cost to read, and unlike a subquery's
 * columns an unused WITH alias is not analysed.
 */
export function spanAliases(s: ChSchema, columns: readonly SpanColumn[]): { defs: string; names: string } {
  return { defs: columns.map((c) => spanColumn(s, c)).join(', '), names: columns.map((c) => spanName(s, c)).join(', ') };
}

/**
 * The spans with the named columns; `where` is on the exporter's columns (Timestamp first, so
 * partitions are pruned). Only the columns a query uses: ClickHouse analyses every expression of a
 * subquery, used or not, and on a demo-sized table that analysis is most of a query's time.
 */
export function spans(s: ChSchema, where: string, columns: readonly SpanColumn[]): string {
  return `(SELECT ${columns.map((c) => spanColumn(s, c)).join(', ')} FROM ${table(s, 'traces')} WHERE ${where})`;
}

/** otel/normalize.ts levelOf as SQL. */
const LEVEL = `multiIf(SeverityNumber BETWEEN 1 AND 24, [${LOG_LEVELS.map((l) => lit(l)).join(', ')}][intDiv(SeverityNumber - 1, 4) + 1],
  startsWith(lower(SeverityText), 'fatal') OR startsWith(lower(SeverityText), 'crit'), 'fatal',
  startsWith(lower(SeverityText), 'err'), 'error', startsWith(lower(SeverityText), 'warn'), 'warn',
  startsWith(lower(SeverityText), 'debug'), 'debug', startsWith(lower(SeverityText), 'trace'), 'trace', 'info')`;

/** otlp/normalize.ts eventKindOf: '' when the record is not an operational event. */
export function eventKindExpr(s: ChSchema): string {
  return derived(s, 'logs', 'event_kind');
}

/** A record's event name: the attribute coral writes (normalize.ts withEventName), else the exporter's EventName column. */
const LOG_EVENT_NAME = (s: ChSchema) => (s.logsHaveEventName ? `if(LogAttributes['event.name'] != '', LogAttributes['event.name'], EventName)` : `LogAttributes['event.name']`);

export function logs(s: ChSchema, where: string): string {
  return `(SELECT toUnixTimestamp64Nano(Timestamp) AS time_ns, ServiceName AS service_name,
    ${derived(s, 'logs', 'source')} AS source, ${LEVEL} AS level, SeverityText AS severity_text,
    Body AS body, TraceId AS trace_id, SpanId AS span_id, LogAttributes AS attributes, ${LOG_EVENT_NAME(s)} AS event_name, ${select(s, 'logs', ['event_kind', 'has_sdk']).join(', ')}
    FROM ${table(s, 'logs')} WHERE ${where})`;
}

const TEMPORALITY = `multiIf(AggregationTemporality = 1, 'delta', AggregationTemporality = 2, 'cumulative', 'unspecified')`;

function pointColumns(s: ChSchema, which: 'histogram' | 'gauge' | 'sum'): string[] {
  return [
    ...select(s, which, ['series_key', 'source']),
    'MetricName AS metric_name',
    'MetricUnit AS unit',
    'ServiceName AS service_name',
    'toUnixTimestamp64Nano(StartTimeUnix) AS start_ns',
    'toUnixTimestamp64Nano(TimeUnix) AS time_ns',
  ];
}

/** Histogram point columns by their DuckDB colony names. */
const HISTOGRAM_FIXED = {
  metric_name: 'MetricName',
  unit: 'MetricUnit',
  service_name: 'ServiceName',
  start_ns: 'toUnixTimestamp64Nano(StartTimeUnix)',
  time_ns: 'toUnixTimestamp64Nano(TimeUnix)',
  temporality: TEMPORALITY,
  bucket_counts: 'arrayMap(x -> toFloat64(x), BucketCounts)',
  bounds: 'ExplicitBounds',
};

/** The promoted attributes a histogram series is told apart and filtered by (red.ts KeyColumns). */
type HistogramHot = 'http_method' | 'http_route' | 'http_status_code' | 'rpc_method' | 'rpc_service' | 'rpc_status_code' | 'db_system' | 'db_operation'
  | 'db_table' | 'error_type';

export type HistogramColumn = keyof typeof HISTOGRAM_FIXED | 'series_key' | 'source' | HistogramHot;

/** The named histogram columns as WITH definitions, for a query straight over the table (see spanAliases). */
export function histogramAliases(s: ChSchema, columns: readonly HistogramColumn[]): string {
  return columns.map((c) => `${c in HISTOGRAM_FIXED ? HISTOGRAM_FIXED[c as keyof typeof HISTOGRAM_FIXED] : derived(s, 'histogram', c)} AS ${c}`).join(', ');
}

/** Histogram points without their buckets or promoted attributes (listing metrics needs no more). */
export function histogramPoints(s: ChSchema, where: string): string {
  return `(SELECT ${pointColumns(s, 'histogram').join(', ')} FROM ${table(s, 'histogram')} WHERE ${where})`;
}

/** Histogram points with what each says of its observations (count, sum, min, max; the exporter writes 0 for a missing one). */
export function histogramTotals(s: ChSchema, where: string): string {
  return `(SELECT ${pointColumns(s, 'histogram').join(', ')}, toFloat64(Count) AS count, Sum AS sum, Min AS min, Max AS max FROM ${table(s, 'histogram')} WHERE ${where})`;
}

/** Gauges and sums together, as the DuckDB colony's otel_metrics_number. */
export function numbers(s: ChSchema, where: string): string {
  return `(SELECT ${pointColumns(s, 'gauge').join(', ')}, 'gauge' AS metric_type, Value AS value FROM ${table(s, 'gauge')} WHERE ${where}
    UNION ALL SELECT ${pointColumns(s, 'sum').join(', ')}, 'sum' AS metric_type, Value AS value FROM ${table(s, 'sum')} WHERE ${where})`;
}

/**
 * The service registry (DuckDB's coral_services, writer.ts serviceSightings): first and last sighting
 * per service and source over every signal: from the registry table when there is one, else by a scan. Over a table without stored sources, grouped on the
 * classifier's inputs first, so the classification runs once per distinct resource, not once per row.
 */
export function registry(s: ChSchema): string {
  if (s.registryTable !== null) {
    return `(SELECT ServiceName AS service_name, Source AS source, min(FirstSeen) AS first_seen_ns, max(LastSeen) AS last_seen_ns
      FROM ${qualified(s.database, s.registryTable)} GROUP BY service_name, source)`;
  }
  const ns = (c: string) => `toUnixTimestamp64Nano(${c})`;
  const per = (which: keyof TableNames, first: string, last: string, where = 'true') => {
    if (s.materialized[which]) {
      return `SELECT ServiceName AS service_name, ${derived(s, which, 'source')} AS source, min(${first}) AS f, max(${last}) AS l
        FROM ${table(s, which)} WHERE ${where} GROUP BY service_name, source`;
    }
    const inputs = `ServiceName, ResourceAttributes['telemetry.sdk.name'] AS r1, ResourceAttributes['telemetry.distro.name'] AS r2,
      ResourceAttributes['otel.scope.name'] AS r3, ResourceAttributes['otel.library.name'] AS r4, ScopeName`;
    const rebuilt = `map('telemetry.sdk.name', r1, 'telemetry.distro.name', r2, 'otel.scope.name', r3, 'otel.library.name', r4)`;
    return `SELECT ServiceName AS service_name, ${sourceExpr(rebuilt, 'ScopeName')} AS source, min(f0) AS f, max(l0) AS l FROM (
        SELECT ${inputs}, min(${first}) AS f0, max(${last}) AS l0 FROM ${table(s, which)} WHERE ${where} GROUP BY ServiceName, r1, r2, r3, r4, ScopeName)
      GROUP BY service_name, source`;
  };
  // An event sent by a deploy tool (no telemetry SDK on its resource) says nothing about how the service is instrumented.
  const notDeployEvent = `NOT (${derived(s, 'logs', 'event_kind')} != '' AND NOT ${derived(s, 'logs', 'has_sdk')})`;
  return `(SELECT service_name, source, min(f) AS first_seen_ns, max(l) AS last_seen_ns FROM (
    ${per('traces', ns('Timestamp'), `${ns('Timestamp')} + toInt64(Duration)`)}
    UNION ALL ${per('gauge', ns('TimeUnix'), ns('TimeUnix'))}
    UNION ALL ${per('sum', ns('TimeUnix'), ns('TimeUnix'))}
    UNION ALL ${per('histogram', ns('TimeUnix'), ns('TimeUnix'))}
    UNION ALL ${per('logs', ns('Timestamp'), ns('Timestamp'), notDeployEvent)}
  ) GROUP BY service_name, source)`;
}
