import { EBPF_RESOURCE_MARKERS, EBPF_SCOPES, SCOPE_RESOURCE_KEYS } from '../../otlp/classify.js';
import { HOT_KEYS } from '../../otlp/semconv.js';
import { EVENT_ALIASES } from '../../otlp/normalize.js';
import { GRPC_CODE_NAMES } from '../../../core/grpc.js';
import { LOG_LEVELS } from '../rows.js';
import { type TableNames, qualified } from './ddl.js';
import { lit, list } from './sql.js';

/**
 * The exporter's tables seen with the DuckDB colony's column names (service_name, start_ns, kind,
 * source, http_route, ...), so that each query reads like its DuckDB twin. Everything the DuckDB
 * colony derives at ingest (source, promoted semantic-convention attributes, log level, event kind)
 * is derived here at read time from the same rules and the same key lists.
 */
export interface ChSchema {
  database: string;
  tables: TableNames;
  /** Older exporters have no EventName column on the logs table; the event.name attribute is then read. */
  logsHaveEventName: boolean;
}

export function table(s: ChSchema, which: keyof TableNames): string {
  return qualified(s.database, s.tables[which]);
}

/** classifySource (otlp/classify.ts) as SQL over a resource map and a scope name. */
export function sourceExpr(resource: string, scope: string): string {
  const scopes = list([...EBPF_SCOPES]);
  const tests = [
    ...EBPF_RESOURCE_MARKERS.map(([k, v]) => `${resource}[${lit(k)}] = ${lit(v)}`),
    ...SCOPE_RESOURCE_KEYS.map((k) => `${resource}[${lit(k)}] IN ${scopes}`),
    `${scope} IN ${scopes}`,
  ];
  return `if(${tests.join(' OR ')}, 'ebpf', 'otlp')`;
}

/** The first non-empty value among `keys` (semconv.ts `text`): a missing map key reads as ''. */
function text(attrs: string, keys: readonly string[]): string {
  const parts = keys.map((k) => `nullIf(${attrs}[${lit(k)}], '')`);
  return parts.length === 1 ? parts[0] : `coalesce(${parts.join(', ')})`;
}

/** semconv.ts `integer`: only a value that is all digits (an optional minus) counts. */
function integer(attrs: string, keys: readonly string[]): string {
  const v = text(attrs, keys);
  return `if(match(${v}, '^-?[0-9]+$'), toInt32OrNull(${v}), NULL)`;
}

function grpcCode(attrs: string): string {
  const v = text(attrs, HOT_KEYS.rpcStatusCode);
  const names = `[${GRPC_CODE_NAMES.map((n) => lit(n)).join(', ')}]`;
  return `multiIf(match(${v}, '^[0-9]+$'), toInt32OrNull(${v}), indexOf(${names}, upper(${v})) > 0, toInt32(indexOf(${names}, upper(${v})) - 1), NULL)`;
}

/**
 * The promoted columns (semconv.ts hotAttributes), including the split of `/pkg.Service/Method`
 * paths and, for spans, Beyla's gRPC spans named by their path (normalize.ts).
 */
export function hotColumns(attrs: string, spanName: string | null): string[] {
  const rawMethod = text(attrs, HOT_KEYS.rpcMethod);
  const system = text(attrs, HOT_KEYS.rpcSystem);
  const path = spanName === null
    ? `if(position(_rpc_m, '/') > 0, _rpc_m, NULL)`
    : `multiIf(position(_rpc_m, '/') > 0, _rpc_m, _rpc_m IS NULL AND rpc_system = 'grpc' AND startsWith(${spanName}, '/'), ${spanName}, NULL)`;
  return [
    `${text(attrs, HOT_KEYS.httpMethod)} AS http_method`,
    `${text(attrs, HOT_KEYS.httpRoute)} AS http_route`,
    `${integer(attrs, HOT_KEYS.httpStatusCode)} AS http_status_code`,
    `${system} AS rpc_system`,
    `${rawMethod} AS _rpc_m`,
    `${path} AS _rpc_path`,
    `replaceRegexpOne(_rpc_path, '^/', '') AS _rpc_trimmed`,
    `if(_rpc_path IS NULL, _rpc_m, arrayElement(splitByChar('/', _rpc_trimmed), -1)) AS rpc_method`,
    `coalesce(${text(attrs, HOT_KEYS.rpcService)}, if(position(_rpc_trimmed, '/') > 0, substring(_rpc_trimmed, 1, length(_rpc_trimmed) - length(rpc_method) - 1), NULL)) AS rpc_service`,
    `${grpcCode(attrs)} AS rpc_status_code`,
    `${text(attrs, HOT_KEYS.dbSystem)} AS db_system`,
    `${text(attrs, HOT_KEYS.dbOperation)} AS db_operation`,
    `${text(attrs, HOT_KEYS.dbTable)} AS db_table`,
    `${text(attrs, HOT_KEYS.dbStatement)} AS db_statement`,
    `${text(attrs, HOT_KEYS.peerService)} AS peer_service`,
    `${text(attrs, HOT_KEYS.serverAddress)} AS server_address`,
  ];
}

/** `Server`, `SPAN_KIND_SERVER` (older exporters) -> `SERVER`, as the DuckDB colony stores kinds. */
const KIND = `upper(replaceOne(SpanKind, 'SPAN_KIND_', ''))`;
const STATUS = `if(StatusCode = '', 'UNSET', upper(replaceOne(StatusCode, 'STATUS_CODE_', '')))`;

/** Span columns; `where` is on the exporter's columns (Timestamp first, so partitions are pruned). */
export function spans(s: ChSchema, where: string, opts: { hot?: boolean; detail?: boolean } = {}): string {
  const cols = [
    'TraceId AS trace_id',
    'SpanId AS span_id',
    'ParentSpanId AS parent_span_id',
    'SpanName AS name',
    `${KIND} AS kind`,
    'ServiceName AS service_name',
    `${sourceExpr('ResourceAttributes', 'ScopeName')} AS source`,
    'toUnixTimestamp64Nano(Timestamp) AS start_ns',
    'toInt64(Duration) AS duration_ns',
    `${STATUS} AS status_code`,
  ];
  if (opts.hot !== false) cols.push(...hotColumns('SpanAttributes', 'SpanName'));
  if (opts.detail) {
    cols.push(
      'ScopeName AS scope_name',
      'StatusMessage AS status_message',
      'SpanAttributes AS attributes',
      'ResourceAttributes AS resource_attributes',
      `arrayMap(t -> toString(toUnixTimestamp64Nano(t)), Events.Timestamp) AS event_times`,
      'Events.Name AS event_names',
      'Events.Attributes AS event_attributes',
      'Links.TraceId AS link_trace_ids',
      'Links.SpanId AS link_span_ids',
      'Links.Attributes AS link_attributes',
    );
  }
  return `(SELECT ${cols.join(', ')} FROM ${table(s, 'traces')} WHERE ${where})`;
}

/** otel/normalize.ts levelOf as SQL. */
const LEVEL = `multiIf(SeverityNumber BETWEEN 1 AND 24, [${LOG_LEVELS.map((l) => lit(l)).join(', ')}][intDiv(SeverityNumber - 1, 4) + 1],
  startsWith(lower(SeverityText), 'fatal') OR startsWith(lower(SeverityText), 'crit'), 'fatal',
  startsWith(lower(SeverityText), 'err'), 'error', startsWith(lower(SeverityText), 'warn'), 'warn',
  startsWith(lower(SeverityText), 'debug'), 'debug', startsWith(lower(SeverityText), 'trace'), 'trace', 'info')`;

/** otlp/normalize.ts eventKindOf as SQL: '' when the record is not an operational event. */
export function eventKindExpr(s: ChSchema): string {
  const raw = s.logsHaveEventName ? `if(EventName != '', EventName, LogAttributes['event.name'])` : `LogAttributes['event.name']`;
  const names = Object.keys(EVENT_ALIASES);
  return `transform(lower(replaceRegexpOne(${raw}, '^coral\\\\.', '')), [${names.map((n) => lit(n)).join(', ')}], [${names.map((n) => lit(EVENT_ALIASES[n])).join(', ')}], '')`;
}

export function logs(s: ChSchema, where: string): string {
  return `(SELECT toUnixTimestamp64Nano(Timestamp) AS time_ns, ServiceName AS service_name,
    ${sourceExpr('ResourceAttributes', 'ScopeName')} AS source, ${LEVEL} AS level, SeverityText AS severity_text,
    Body AS body, TraceId AS trace_id, SpanId AS span_id, LogAttributes AS attributes, ${eventKindExpr(s)} AS event_kind,
    mapContains(ResourceAttributes, 'telemetry.sdk.name') AS has_sdk
    FROM ${table(s, 'logs')} WHERE ${where})`;
}

/** Identity of a metric series, as normalize.ts seriesKey (metric, service, source, resource, attributes). */
const SERIES_KEY = `hex(cityHash64(MetricName, ServiceName, ScopeName, ResourceAttributes, Attributes))`;
const TEMPORALITY = `multiIf(AggregationTemporality = 1, 'delta', AggregationTemporality = 2, 'cumulative', 'unspecified')`;

function pointColumns(): string[] {
  return [
    `${SERIES_KEY} AS series_key`,
    'MetricName AS metric_name',
    'MetricUnit AS unit',
    'ServiceName AS service_name',
    `${sourceExpr('ResourceAttributes', 'ScopeName')} AS source`,
    'toUnixTimestamp64Nano(StartTimeUnix) AS start_ns',
    'toUnixTimestamp64Nano(TimeUnix) AS time_ns',
  ];
}

export function histograms(s: ChSchema, where: string): string {
  return `(SELECT ${[...pointColumns(), `${TEMPORALITY} AS temporality`, ...hotColumns('Attributes', null), `nullIf(Attributes['error.type'], '') AS error_type`, 'arrayMap(x -> toFloat64(x), BucketCounts) AS bucket_counts', 'ExplicitBounds AS bounds'].join(', ')}
    FROM ${table(s, 'histogram')} WHERE ${where})`;
}

/** Histogram points without their buckets or promoted attributes (listing metrics needs no more). */
export function histogramPoints(s: ChSchema, where: string): string {
  return `(SELECT ${pointColumns().join(', ')} FROM ${table(s, 'histogram')} WHERE ${where})`;
}

/** Gauges and sums together, as the DuckDB colony's otel_metrics_number. */
export function numbers(s: ChSchema, where: string): string {
  const cols = pointColumns().join(', ');
  return `(SELECT ${cols}, 'gauge' AS metric_type, Value AS value FROM ${table(s, 'gauge')} WHERE ${where}
    UNION ALL SELECT ${cols}, 'sum' AS metric_type, Value AS value FROM ${table(s, 'sum')} WHERE ${where})`;
}

/**
 * The service registry (DuckDB's coral_services, writer.ts serviceSightings): first and last sighting
 * per service and source over every signal. Grouped on the classifier's inputs first, so the
 * classification runs once per distinct resource, not once per row.
 */
export function registry(s: ChSchema): string {
  const classifierInputs = `ServiceName, ResourceAttributes['telemetry.sdk.name'] AS r1, ResourceAttributes['telemetry.distro.name'] AS r2,
    ResourceAttributes['otel.scope.name'] AS r3, ResourceAttributes['otel.library.name'] AS r4, ScopeName`;
  const per = (from: string, first: string, last: string, where = 'true') =>
    `SELECT ${classifierInputs}, min(${first}) AS f, max(${last}) AS l FROM ${from} WHERE ${where} GROUP BY ServiceName, r1, r2, r3, r4, ScopeName`;
  const ns = (c: string) => `toUnixTimestamp64Nano(${c})`;
  const rebuilt = `map('telemetry.sdk.name', r1, 'telemetry.distro.name', r2, 'otel.scope.name', r3, 'otel.library.name', r4)`;
  // An event sent by a deploy tool (no telemetry SDK on its resource) says nothing about how the service is instrumented.
  return `(SELECT ServiceName AS service_name, ${sourceExpr(rebuilt, 'ScopeName')} AS source, min(f) AS first_seen_ns, max(l) AS last_seen_ns FROM (
    ${per(table(s, 'traces'), ns('Timestamp'), `${ns('Timestamp')} + toInt64(Duration)`)}
    UNION ALL ${per(table(s, 'gauge'), ns('TimeUnix'), ns('TimeUnix'))}
    UNION ALL ${per(table(s, 'sum'), ns('TimeUnix'), ns('TimeUnix'))}
    UNION ALL ${per(table(s, 'histogram'), ns('TimeUnix'), ns('TimeUnix'))}
    UNION ALL ${per(table(s, 'logs'), ns('Timestamp'), ns('Timestamp'), `NOT (${eventKindExpr(s)} != '' AND NOT mapContains(ResourceAttributes, 'telemetry.sdk.name'))`)}
  ) GROUP BY service_name, source)`;
}
