import {
  type Column,
  type ColumnShape,
  type TableDef,
  bigint,
  boolean,
  double,
  integer,
  json,
  numberArray,
  varchar,
} from './columns.js';
import type { EventRow, HistogramPointRow, HotAttributes, IngestBatch, LogRow, NumberPointRow, PointBase, SpanRow, SummaryPointRow } from './rows.js';

/**
 * Empty optional span fields are stored as NULL: appending a string costs ~0.16 us, a NULL a
 * fifth of that, and these are empty on almost every span.
 *
 * Table names follow the OpenTelemetry Collector ClickHouse exporter (otel_traces, otel_logs,
 * otel_metrics_histogram) so that a ClickHouse backend later is a mapping, not a redesign.
 * Gauges and sums share otel_metrics_number (the exporter splits them into _gauge and _sum).
 */
function hotColumns<R extends HotAttributes>(): Column<R>[] {
  return [
    varchar('http_method', (r) => r.httpMethod),
    varchar('http_route', (r) => r.httpRoute),
    integer('http_status_code', (r) => r.httpStatusCode),
    varchar('rpc_system', (r) => r.rpcSystem),
    varchar('rpc_service', (r) => r.rpcService),
    varchar('rpc_method', (r) => r.rpcMethod),
    integer('rpc_status_code', (r) => r.rpcStatusCode),
    varchar('db_system', (r) => r.dbSystem),
    varchar('db_operation', (r) => r.dbOperation),
    varchar('db_table', (r) => r.dbTable),
    varchar('db_statement', (r) => r.dbStatement),
    varchar('peer_service', (r) => r.peerService),
    varchar('server_address', (r) => r.serverAddress),
  ];
}

export const SPANS: TableDef<SpanRow> = {
  name: 'otel_traces',
  primaryKey: ['trace_id', 'span_id'],
  // Kept unique by the writer (span-keys.ts): the index cost more than the rest of the insert.
  // A colony file made before keeps its index, which stays correct (a conflict takes the upsert path).
  keyIndex: false,
  columns: [
    varchar('trace_id', (r) => r.traceId),
    varchar('span_id', (r) => r.spanId),
    varchar('parent_span_id', (r) => r.parentSpanId),
    varchar('trace_state', (r) => r.traceState || null),
    varchar('name', (r) => r.name),
    varchar('kind', (r) => r.kind),
    varchar('service_name', (r) => r.serviceName),
    varchar('source', (r) => r.source),
    varchar('scope_name', (r) => r.scopeName),
    varchar('scope_version', (r) => r.scopeVersion || null),
    bigint('start_ns', (r) => r.startNs),
    bigint('end_ns', (r) => r.endNs),
    varchar('status_code', (r) => r.statusCode),
    varchar('status_message', (r) => r.statusMessage || null),
    ...hotColumns<SpanRow>(),
    json('attributes', (r) => r.attributes),
    json('resource_attributes', (r) => r.resourceAttributes),
    json('events', (r) => (r.events === '[]' ? null : r.events)),
    json('links', (r) => (r.links === '[]' ? null : r.links)),
  ],
  // Computed on read: appending it cost a BigInt and a value per span on the ingest path.
  virtualColumns: [{ name: 'duration_ns', sqlType: 'BIGINT', expression: 'end_ns - start_ns' }],
};

/** The columns every point table starts with: its series, metric, service, source and instants. */
function seriesColumns<R extends PointBase>(): Column<R>[] {
  return [
    varchar('series_key', (r) => r.seriesKey),
    varchar('metric_name', (r) => r.metricName),
    varchar('description', (r) => r.description),
    varchar('unit', (r) => r.unit),
    varchar('service_name', (r) => r.serviceName),
    varchar('source', (r) => r.source),
    bigint('start_ns', (r) => r.startNs),
    bigint('time_ns', (r) => r.timeNs),
  ];
}

function pointColumns<R extends NumberPointRow | HistogramPointRow>(): Column<R>[] {
  return [...seriesColumns<R>(), varchar('temporality', (r) => r.temporality)];
}

export const NUMBER_POINTS: TableDef<NumberPointRow> = {
  name: 'otel_metrics_number',
  primaryKey: ['series_key', 'time_ns'],
  columns: [
    ...pointColumns<NumberPointRow>(),
    varchar('metric_type', (r) => r.metricType),
    boolean('is_monotonic', (r) => r.isMonotonic),
    double('value', (r) => r.value),
    json('attributes', (r) => r.attributes),
    json('resource_attributes', (r) => r.resourceAttributes),
  ],
};

export const HISTOGRAM_POINTS: TableDef<HistogramPointRow> = {
  name: 'otel_metrics_histogram',
  primaryKey: ['series_key', 'time_ns'],
  columns: [
    ...pointColumns<HistogramPointRow>(),
    ...hotColumns<HistogramPointRow>(),
    double('count', (r) => r.count),
    double('sum', (r) => r.sum),
    double('min', (r) => r.min),
    double('max', (r) => r.max),
    numberArray('bounds', (r) => r.bounds),
    numberArray('bucket_counts', (r) => r.bucketCounts),
    json('attributes', (r) => r.attributes),
    json('resource_attributes', (r) => r.resourceAttributes),
  ],
};

/** Summaries: the exporter's otel_metrics_summary keeps the same quantile/value pairs. */
export const SUMMARY_POINTS: TableDef<SummaryPointRow> = {
  name: 'otel_metrics_summary',
  primaryKey: ['series_key', 'time_ns'],
  columns: [
    ...seriesColumns<SummaryPointRow>(),
    double('count', (r) => r.count),
    double('sum', (r) => r.sum),
    numberArray('quantiles', (r) => r.quantiles),
    numberArray('quantile_values', (r) => r.quantileValues),
    json('attributes', (r) => r.attributes),
    json('resource_attributes', (r) => r.resourceAttributes),
  ],
};

export const LOGS: TableDef<LogRow> = {
  name: 'otel_logs',
  primaryKey: ['log_id'],
  columns: [
    varchar('log_id', (r) => r.logId),
    bigint('time_ns', (r) => r.timeNs),
    bigint('observed_ns', (r) => r.observedNs),
    varchar('service_name', (r) => r.serviceName),
    varchar('source', (r) => r.source),
    integer('severity_number', (r) => r.severityNumber),
    varchar('severity_text', (r) => r.severityText),
    varchar('level', (r) => r.level),
    varchar('body', (r) => r.body),
    varchar('trace_id', (r) => r.traceId),
    varchar('span_id', (r) => r.spanId),
    json('attributes', (r) => r.attributes),
    json('resource_attributes', (r) => r.resourceAttributes),
  ],
};

export const EVENTS: TableDef<EventRow> = {
  name: 'coral_events',
  primaryKey: ['event_id'],
  columns: [
    varchar('event_id', (r) => r.eventId),
    bigint('time_ns', (r) => r.timeNs),
    varchar('service_name', (r) => r.serviceName),
    varchar('kind', (r) => r.kind),
    varchar('title', (r) => r.title),
    json('attributes', (r) => r.attributes),
  ],
};

/** The service registry is derived from ingested rows (see writer.ts), never appended directly. */
const SERVICES_COLUMNS: readonly ColumnShape[] = [
  { name: 'service_name', sqlType: 'VARCHAR' },
  { name: 'source', sqlType: 'VARCHAR' },
  { name: 'first_seen_ns', sqlType: 'BIGINT' },
  { name: 'last_seen_ns', sqlType: 'BIGINT' },
  { name: 'resource_attributes', sqlType: 'JSON' },
];
export const SERVICES_DDL = keyedTableSql('coral_services', SERVICES_COLUMNS, ['service_name', 'source']);

const META_COLUMNS: readonly ColumnShape[] = [
  { name: 'key', sqlType: 'VARCHAR' },
  { name: 'value', sqlType: 'VARCHAR' },
];
export const META_DDL = keyedTableSql('coral_meta', META_COLUMNS, ['key']);

function keyedTableSql(name: string, columns: readonly ColumnShape[], key: string[]): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (\n${[...columns.map((c) => `  ${c.name} ${c.sqlType}`), `  PRIMARY KEY (${key.join(', ')})`].join(',\n')}\n)`;
}

export const SCHEMA_VERSION = 1;

/** A table and where its rows sit in an IngestBatch: the writer's loop over all appended tables. */
export interface AppendTarget {
  table: TableDef<unknown>;
  rows: (b: IngestBatch) => unknown[];
}

function target<R>(table: TableDef<R>, rows: (b: IngestBatch) => R[]): AppendTarget {
  // The pairing above is what makes this erasure safe: each table only ever sees its own rows.
  return { table: table as unknown as TableDef<unknown>, rows };
}

export const APPENDED_TABLES: readonly AppendTarget[] = [
  target(SPANS, (b) => b.spans),
  target(NUMBER_POINTS, (b) => b.numberPoints),
  target(HISTOGRAM_POINTS, (b) => b.histogramPoints),
  target(SUMMARY_POINTS, (b) => b.summaryPoints),
  target(LOGS, (b) => b.logs),
  target(EVENTS, (b) => b.events),
];

/** A table of the colony as DuckDB describes it: its columns in order, virtual ones included. */
export interface TableShape {
  name: string;
  columns: readonly ColumnShape[];
}

/** Every table coral writes into a colony file, as migrate creates it: what file-check.ts holds a file to. */
export const COLONY_TABLES: readonly TableShape[] = [
  ...APPENDED_TABLES.map(({ table }) => ({ name: table.name, columns: [...table.columns, ...(table.virtualColumns ?? [])] })),
  { name: 'coral_services', columns: SERVICES_COLUMNS },
  { name: 'coral_meta', columns: META_COLUMNS },
];
