/** The rows the store ingests, one interface per table. Timestamps are epoch nanoseconds. */
export type Source = 'ebpf' | 'otlp';

/** Semantic-convention attributes promoted to columns, already normalised across old and new names. */
export interface HotAttributes {
  httpMethod: string | null;
  httpRoute: string | null;
  httpStatusCode: number | null;
  rpcSystem: string | null;
  rpcService: string | null;
  rpcMethod: string | null;
  rpcStatusCode: number | null;
  dbSystem: string | null;
  dbOperation: string | null;
  dbTable: string | null;
  dbStatement: string | null;
  peerService: string | null;
  serverAddress: string | null;
}

export interface SpanRow extends HotAttributes {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  name: string;
  kind: string;
  serviceName: string;
  source: Source;
  scopeName: string;
  scopeVersion: string;
  startNs: bigint;
  endNs: bigint;
  statusCode: string;
  statusMessage: string;
  attributes: string;
  resourceAttributes: string;
  events: string;
  links: string;
}

export interface PointBase {
  /** Identity of the series: metric, service, source, resource and point attributes. */
  seriesKey: string;
  metricName: string;
  description: string;
  unit: string;
  serviceName: string;
  source: Source;
  /** Not stored by DuckDB (source is); a ClickHouse colony keeps it to classify the source on read. */
  scopeName: string;
  startNs: bigint;
  timeNs: bigint;
  attributes: string;
  resourceAttributes: string;
}

export interface NumberPointRow extends PointBase {
  metricType: 'gauge' | 'sum';
  temporality: Temporality;
  isMonotonic: boolean;
  value: number;
}

export type Temporality = 'delta' | 'cumulative' | 'unspecified';

export interface HistogramPointRow extends PointBase, HotAttributes {
  temporality: Temporality;
  count: number;
  sum: number | null;
  min: number | null;
  max: number | null;
  bounds: number[];
  bucketCounts: number[];
}

/**
 * A summary point: quantiles a client computed over its own observations. Quantiles of different
 * series (or of one series over time) cannot be combined, so readers show them per series, as sent.
 */
export interface SummaryPointRow extends PointBase {
  count: number;
  sum: number;
  /** Ascending quantiles in [0, 1], each with its value at the same index of `quantileValues`. */
  quantiles: number[];
  quantileValues: number[];
}

export interface LogRow {
  /** Content hash: a retried export maps to the same id, so re-sending is idempotent. */
  logId: string;
  timeNs: bigint;
  observedNs: bigint;
  serviceName: string;
  source: Source;
  /** Not stored by DuckDB (source is); a ClickHouse colony keeps it to classify the source on read. */
  scopeName: string;
  severityNumber: number;
  severityText: string;
  level: LogLevel;
  body: string;
  traceId: string;
  spanId: string;
  attributes: string;
  resourceAttributes: string;
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

export type EventKind = 'deploy' | 'restart' | 'crash' | 'alert' | 'config_change';
export const EVENT_KINDS: readonly EventKind[] = ['deploy', 'restart', 'crash', 'alert', 'config_change'];

export interface EventRow {
  eventId: string;
  timeNs: bigint;
  serviceName: string;
  kind: EventKind;
  title: string;
  attributes: string;
}

/** Everything one export (or one group commit) hands to the store. */
export interface IngestBatch {
  spans: SpanRow[];
  numberPoints: NumberPointRow[];
  histogramPoints: HistogramPointRow[];
  summaryPoints: SummaryPointRow[];
  logs: LogRow[];
  events: EventRow[];
}

/** Rows in a batch, of every kind. */
export function batchSize(b: IngestBatch): number {
  return b.spans.length + b.numberPoints.length + b.histogramPoints.length + b.summaryPoints.length + b.logs.length + b.events.length;
}

export function emptyBatch(): IngestBatch {
  return { spans: [], numberPoints: [], histogramPoints: [], summaryPoints: [], logs: [], events: [] };
}

/** Appends every row of `from` to `into`. */
export function appendBatch(into: IngestBatch, from: IngestBatch): void {
  for (const key of Object.keys(into) as (keyof IngestBatch)[]) {
    const target = into[key] as unknown[];
    for (const row of from[key] as unknown[]) target.push(row);
  }
}
