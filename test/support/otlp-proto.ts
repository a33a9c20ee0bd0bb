/**
 * A small protobuf writer for OTLP, for decoder tests: encodes the decoder's own model (spans,
 * metrics, log records) with the field numbers of opentelemetry-proto v1, written out here from
 * the .proto files rather than taken from the decoder, so a wrong number there is caught.
 */
import type { AttrValue, Attributes, ExponentialBuckets, ExponentialPoint, HistogramPoint, NumberPoint, SummaryPoint, OtlpLogRecord, OtlpMetric, OtlpSpan, ResourceGroup } from '../../src/colony/otlp/model.js';

type Bytes = number[];

/** A varint of the 64-bit two's complement of `v`. */
export function varint(v: number | bigint): Bytes {
  let x = BigInt.asUintN(64, BigInt(v));
  const out: Bytes = [];
  while (x >= 0x80n) {
    out.push(Number(x & 0x7fn) | 0x80);
    x >>= 7n;
  }
  out.push(Number(x));
  return out;
}
const tag = (field: number, wire: number) => varint((field << 3) | wire);
export const int = (field: number, v: number | bigint) => [...tag(field, 0), ...varint(v)];
export const len = (field: number, bytes: Bytes) => [...tag(field, 2), ...varint(bytes.length), ...bytes];
export const str = (field: number, s: string) => (s === '' ? [] : len(field, [...Buffer.from(s, 'utf8')]));
export const hex = (field: number, id: string | null) => (id ? len(field, [...Buffer.from(id, 'hex')]) : []);
export const fixed64 = (field: number, v: number | bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt.asUintN(64, BigInt(v)));
  return [...tag(field, 1), ...b];
};
export const double = (field: number, v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(v);
  return [...tag(field, 1), ...b];
};
const packed = (field: number, values: number[], asDouble: boolean) => {
  const b = Buffer.alloc(8 * values.length);
  values.forEach((v, i) => (asDouble ? b.writeDoubleLE(v, 8 * i) : b.writeBigUInt64LE(BigInt(v), 8 * i)));
  return values.length === 0 ? [] : len(field, [...b]);
};

// common.proto: AnyValue 1 string, 2 bool, 3 int, 4 double, 5 array, 6 kvlist; ArrayValue/KeyValueList 1 values; KeyValue 1 key, 2 value.
function anyValue(v: AttrValue): Bytes {
  if (v === null) return [];
  if (typeof v === 'string') return len(1, [...Buffer.from(v, 'utf8')]);
  if (typeof v === 'boolean') return int(2, v ? 1 : 0);
  if (typeof v === 'number') return Number.isInteger(v) ? int(3, v) : double(4, v);
  if (Array.isArray(v)) return len(5, v.flatMap((x) => len(1, anyValue(x))));
  return len(6, attributes(1, v));
}
const attributes = (field: number, a: Attributes) => Object.entries(a).flatMap(([k, v]) => len(field, [...str(1, k), ...len(2, anyValue(v))]));

// trace.proto: Span 1 trace_id ... 15 status; Event 1 time, 2 name, 3 attributes; Link 1 trace_id, 2 span_id, 3 trace_state, 4 attributes; Status 2 message, 3 code.
export function spanBytes(s: OtlpSpan): Bytes {
  return [
    ...hex(1, s.traceId), ...hex(2, s.spanId), ...str(3, s.traceState), ...hex(4, s.parentSpanId), ...str(5, s.name), ...int(6, s.kind),
    ...fixed64(7, s.startNs), ...fixed64(8, s.endNs), ...attributes(9, s.attributes),
    ...s.events.flatMap((e) => len(11, [...fixed64(1, e.timeNs), ...str(2, e.name), ...attributes(3, e.attributes)])),
    ...s.links.flatMap((l) => len(13, [...hex(1, l.traceId), ...hex(2, l.spanId), ...attributes(4, l.attributes)])),
    ...len(15, [...str(2, s.statusMessage), ...int(3, s.statusCode)]),
  ];
}

// metrics.proto: NumberDataPoint 2 start, 3 time, 4 as_double, 6 as_int, 7 attributes; HistogramDataPoint 2 start, 3 time,
// 4 count, 5 sum, 6 bucket_counts, 7 explicit_bounds, 9 attributes, 11 min, 12 max; Metric 1 name, 2 description, 3 unit,
// 5 gauge, 7 sum, 9 histogram, 10 exponential_histogram, 11 summary; Gauge/Sum/Histogram 1 data_points, 2 temporality, 3 monotonic.
const numberPoint = (p: NumberPoint, asInt: boolean) => [...fixed64(2, p.startNs), ...fixed64(3, p.timeNs), ...(asInt ? fixed64(6, BigInt(p.value)) : double(4, p.value)), ...attributes(7, p.attributes)];
const histogramPoint = (p: HistogramPoint) => [
  ...fixed64(2, p.startNs), ...fixed64(3, p.timeNs), ...fixed64(4, BigInt(p.count)), ...(p.sum === null ? [] : double(5, p.sum)),
  ...packed(6, p.bucketCounts, false), ...packed(7, p.bounds, true), ...attributes(9, p.attributes),
  ...(p.min === null ? [] : double(11, p.min)), ...(p.max === null ? [] : double(12, p.max)),
];

// ExponentialHistogramDataPoint 1 attributes, 2 start, 3 time, 4 count, 5 sum, 6 scale (sint32), 7 zero_count, 8 positive,
// 9 negative, 12 min, 13 max, 14 zero_threshold; Buckets 1 offset (sint32), 2 bucket_counts (packed uint64 varints).
// SummaryDataPoint 2 start, 3 time, 4 count, 5 sum, 6 quantile_values, 7 attributes; ValueAtQuantile 1 quantile, 2 value.
const sint = (field: number, v: number) => int(field, v >= 0 ? 2 * v : -2 * v - 1);
const expBuckets = (field: number, b: ExponentialBuckets) => len(field, [...sint(1, b.offset), ...(b.counts.length === 0 ? [] : len(2, b.counts.flatMap((c) => varint(c))))]);
const exponentialPoint = (p: ExponentialPoint) => [
  ...attributes(1, p.attributes), ...fixed64(2, p.startNs), ...fixed64(3, p.timeNs), ...fixed64(4, BigInt(p.count)), ...(p.sum === null ? [] : double(5, p.sum)),
  ...sint(6, p.scale), ...fixed64(7, BigInt(p.zeroCount)), ...expBuckets(8, p.positive), ...expBuckets(9, p.negative),
  ...(p.min === null ? [] : double(12, p.min)), ...(p.max === null ? [] : double(13, p.max)), ...double(14, p.zeroThreshold),
];
const summaryPoint = (p: SummaryPoint) => [
  ...fixed64(2, p.startNs), ...fixed64(3, p.timeNs), ...fixed64(4, BigInt(p.count)), ...double(5, p.sum),
  ...p.quantiles.flatMap((q) => len(6, [...double(1, q.quantile), ...double(2, q.value)])), ...attributes(7, p.attributes),
];

/** `intPoints`: write number points as as_int (their values must be integers). */
export function metricBytes(m: OtlpMetric, intPoints = false): Bytes {
  const head = [...str(1, m.name), ...str(2, m.description), ...str(3, m.unit)];
  const d = m.data;
  if (d === null) return head;
  if (d.type === 'gauge') return [...head, ...len(5, d.points.flatMap((p) => len(1, numberPoint(p, intPoints))))];
  if (d.type === 'sum') return [...head, ...len(7, [...d.points.flatMap((p) => len(1, numberPoint(p, intPoints))), ...int(2, d.temporality), ...int(3, d.monotonic ? 1 : 0)])];
  if (d.type === 'histogram') return [...head, ...len(9, [...d.points.flatMap((p) => len(1, histogramPoint(p))), ...int(2, d.temporality)])];
  if (d.type === 'exponentialHistogram') return [...head, ...len(10, [...d.points.flatMap((p) => len(1, exponentialPoint(p))), ...int(2, d.temporality)])];
  return [...head, ...len(11, d.points.flatMap((p) => len(1, summaryPoint(p))))];
}

// logs.proto: LogRecord 1 time, 2 severity_number, 3 severity_text, 5 body, 6 attributes, 9 trace_id, 10 span_id, 11 observed_time, 12 event_name.
export function logBytes(l: OtlpLogRecord): Bytes {
  return [
    ...fixed64(1, l.timeNs), ...int(2, l.severityNumber), ...str(3, l.severityText), ...(l.body === null ? [] : len(5, anyValue(l.body))),
    ...attributes(6, l.attributes), ...hex(9, l.traceId), ...hex(10, l.spanId), ...fixed64(11, l.observedNs), ...str(12, l.eventName),
  ];
}

// Export*ServiceRequest 1 resource_*; Resource* 1 resource, 2 scope_*; Scope* 1 scope, 2 items; Resource 1 attributes;
// InstrumentationScope 1 name, 2 version, 3 attributes.
export function requestBytes<T>(groups: ResourceGroup<T>[], item: (t: T) => Bytes): Buffer {
  return Buffer.from(groups.flatMap((g) => len(1, [
    ...len(1, attributes(1, g.resource.attributes)),
    ...g.scopes.flatMap((s) => len(2, [...len(1, [...str(1, s.scope.name), ...str(2, s.scope.version), ...attributes(3, s.scope.attributes)]), ...s.items.flatMap((x) => len(2, item(x)))])),
  ])));
}
