import type { EventKind, HistogramPointRow, IngestBatch, LogRow, NumberPointRow, SpanRow, SummaryPointRow, Temporality } from '../rows.js';
import { SUMMARY_TABLE, qualified } from './ddl.js';
import { summaryRow } from './summary.js';
import type { ChClient } from './client.js';
import { type ChSchema, table } from './views.js';

/**
 * Normalised OTLP rows written the way the Collector's ClickHouse exporter writes them (its column
 * names, `Server`/`Error` spellings, attribute values as strings), so one schema serves both paths.
 */

/**
 * A DateTime64(9) value for JSONEachRow: ClickHouse reads a JSON number as ticks (exact while it is a
 * safe integer, e.g. an unset start time of 0) and `seconds.nanos` text as a Unix time (exact for any
 * time since 2001; short texts like "0.000000000" would be taken for dates).
 */
export function dateTime64(ns: bigint): string | number {
  if (ns <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(ns);
  const s = ns / 1_000_000_000n;
  const frac = ns % 1_000_000_000n;
  return `${s}.${frac.toString().padStart(9, '0')}`;
}

/** pcommon Value.AsString: strings as they are, everything else as JSON. */
export function attributeMap(json: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(JSON.parse(json) as Record<string, unknown>)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

const TITLE = (s: string) => (s === '' ? s : s[0] + s.slice(1).toLowerCase());

const TEMPORALITY: Record<Temporality, number> = { unspecified: 0, delta: 1, cumulative: 2 };

interface SpanEventJson {
  time_ns: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface SpanLinkJson {
  traceId: string | null;
  spanId: string | null;
  attributes: Record<string, unknown>;
}

const stringify = (attrs: Record<string, unknown>) => attributeMap(JSON.stringify(attrs));

function spanRow(r: SpanRow): object {
  const events = JSON.parse(r.events) as SpanEventJson[];
  const links = JSON.parse(r.links) as SpanLinkJson[];
  return {
    Timestamp: dateTime64(r.startNs),
    TraceId: r.traceId,
    SpanId: r.spanId,
    ParentSpanId: r.parentSpanId,
    TraceState: r.traceState,
    SpanName: r.name,
    SpanKind: TITLE(r.kind),
    ServiceName: r.serviceName,
    ResourceAttributes: attributeMap(r.resourceAttributes),
    ScopeName: r.scopeName,
    ScopeVersion: r.scopeVersion,
    SpanAttributes: attributeMap(r.attributes),
    Duration: (r.endNs - r.startNs).toString(),
    StatusCode: TITLE(r.statusCode),
    StatusMessage: r.statusMessage,
    'Events.Timestamp': events.map((e) => dateTime64(BigInt(e.time_ns))),
    'Events.Name': events.map((e) => e.name),
    'Events.Attributes': events.map((e) => stringify(e.attributes)),
    'Links.TraceId': links.map((l) => l.traceId ?? ''),
    'Links.SpanId': links.map((l) => l.spanId ?? ''),
    'Links.TraceState': links.map(() => ''),
    'Links.Attributes': links.map((l) => stringify(l.attributes)),
  };
}

function logRow(r: LogRow, eventKind: EventKind | undefined): object {
  return {
    Timestamp: dateTime64(r.timeNs),
    TraceId: r.traceId,
    SpanId: r.spanId,
    TraceFlags: 0,
    SeverityText: r.severityText,
    SeverityNumber: r.severityNumber,
    ServiceName: r.serviceName,
    Body: r.body,
    ResourceAttributes: attributeMap(r.resourceAttributes),
    ScopeName: r.scopeName,
    LogAttributes: attributeMap(r.attributes),
    EventName: eventKind ?? '',
  };
}

function pointBase(r: NumberPointRow | HistogramPointRow | SummaryPointRow): Record<string, unknown> {
  return {
    ResourceAttributes: attributeMap(r.resourceAttributes),
    ScopeName: r.scopeName,
    ServiceName: r.serviceName,
    MetricName: r.metricName,
    MetricDescription: r.description,
    MetricUnit: r.unit,
    Attributes: attributeMap(r.attributes),
    StartTimeUnix: dateTime64(r.startNs),
    TimeUnix: dateTime64(r.timeNs),
  };
}

function histogramRow(r: HistogramPointRow): object {
  return {
    ...pointBase(r),
    Count: r.count,
    Sum: r.sum ?? 0,
    BucketCounts: r.bucketCounts,
    ExplicitBounds: r.bounds,
    Min: r.min ?? 0,
    Max: r.max ?? 0,
    AggregationTemporality: TEMPORALITY[r.temporality],
  };
}

/** Writes one batch; the tables are independent, so they are written side by side. */
export async function writeBatch(ch: ChClient, s: ChSchema, b: IngestBatch): Promise<void> {
  const eventOf = new Map(b.events.map((e) => [e.eventId, e.kind]));
  const gauges = b.numberPoints.filter((p) => p.metricType === 'gauge');
  const sums = b.numberPoints.filter((p) => p.metricType === 'sum');
  await Promise.all([
    ch.insert(table(s, 'traces'), b.spans.map(spanRow)),
    ch.insert(table(s, 'logs'), b.logs.map((l) => logRow(l, eventOf.get(l.logId)))),
    ch.insert(table(s, 'gauge'), gauges.map((p) => ({ ...pointBase(p), Value: p.value }))),
    ch.insert(table(s, 'sum'), sums.map((p) => ({ ...pointBase(p), Value: p.value, AggregationTemporality: TEMPORALITY[p.temporality], IsMonotonic: p.isMonotonic }))),
    ch.insert(table(s, 'histogram'), b.histogramPoints.map(histogramRow)),
    b.summaryPoints.length === 0 ? undefined : ch.insert(qualified(s.database, SUMMARY_TABLE), b.summaryPoints.map((p) => summaryRow(p, pointBase(p)))),
  ]);
}
