import {
  type Attributes,
  type AttrValue,
  type ExponentialBuckets,
  type ExponentialPoint,
  type HistogramPoint,
  type SummaryPoint,
  type LogsRequest,
  type MetricsRequest,
  type NumberPoint,
  type OtlpLogRecord,
  type OtlpMetric,
  type OtlpMetricData,
  type OtlpResource,
  type OtlpScope,
  type OtlpSpan,
  type OtlpSpanEvent,
  type OtlpSpanLink,
  type ResourceGroup,
  type ScopeGroup,
  type TracesRequest,
  MAX_ANY_VALUE_DEPTH,
  OtlpDecodeError,
} from './model.js';
import { WIRE_FIXED64_REPEATED, WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT, WireReader, messageSpec } from './wire.js';

// Field numbers from opentelemetry-proto (common, resource, trace, metrics, logs v1). The
// envelope's specs are exported for export-items.ts, which walks the same messages to count them.
const L = WIRE_LEN;
const V = WIRE_VARINT;
const F64 = WIRE_I64;
const ANY_VALUE = messageSpec('AnyValue', { 1: ['string_value', L], 2: ['bool_value', V], 3: ['int_value', V], 4: ['double_value', F64], 5: ['array_value', L], 6: ['kvlist_value', L], 7: ['bytes_value', L] });
const ARRAY_VALUE = messageSpec('ArrayValue', { 1: ['values', L] });
const KV_LIST = messageSpec('KeyValueList', { 1: ['values', L] });
const KEY_VALUE = messageSpec('KeyValue', { 1: ['key', L], 2: ['value', L] });
const RESOURCE = messageSpec('Resource', { 1: ['attributes', L], 2: ['dropped_attributes_count', V] });
const SCOPE = messageSpec('InstrumentationScope', { 1: ['name', L], 2: ['version', L], 3: ['attributes', L], 4: ['dropped_attributes_count', V] });
export const RESOURCE_GROUP = messageSpec('Resource{Spans,Metrics,Logs}', { 1: ['resource', L], 2: ['scope_items', L], 3: ['schema_url', L] });
export const REQUEST = messageSpec('Export*ServiceRequest', { 1: ['resource_items', L] });
export const SCOPE_GROUP = messageSpec('Scope{Spans,Metrics,Logs}', { 1: ['scope', L], 2: ['items', L], 3: ['schema_url', L] });
const EVENT = messageSpec('Span.Event', { 1: ['time_unix_nano', F64], 2: ['name', L], 3: ['attributes', L], 4: ['dropped_attributes_count', V] });
const LINK = messageSpec('Span.Link', { 1: ['trace_id', L], 2: ['span_id', L], 3: ['trace_state', L], 4: ['attributes', L], 5: ['dropped_attributes_count', V], 6: ['flags', WIRE_I32] });
const STATUS = messageSpec('Status', { 2: ['message', L], 3: ['code', V] });
export const SPAN = messageSpec('Span', {
  1: ['trace_id', L], 2: ['span_id', L], 3: ['trace_state', L], 4: ['parent_span_id', L], 5: ['name', L], 6: ['kind', V],
  7: ['start_time_unix_nano', F64], 8: ['end_time_unix_nano', F64], 9: ['attributes', L], 10: ['dropped_attributes_count', V],
  11: ['events', L], 12: ['dropped_events_count', V], 13: ['links', L], 14: ['dropped_links_count', V], 15: ['status', L], 16: ['flags', WIRE_I32],
});
const NUMBER_POINT = messageSpec('NumberDataPoint', { 2: ['start_time_unix_nano', F64], 3: ['time_unix_nano', F64], 4: ['as_double', F64], 5: ['exemplars', L], 6: ['as_int', F64], 7: ['attributes', L], 8: ['flags', V] });
const HISTOGRAM_POINT = messageSpec('HistogramDataPoint', {
  2: ['start_time_unix_nano', F64], 3: ['time_unix_nano', F64], 4: ['count', F64], 5: ['sum', F64], 6: ['bucket_counts', WIRE_FIXED64_REPEATED],
  7: ['explicit_bounds', WIRE_FIXED64_REPEATED], 8: ['exemplars', L], 9: ['attributes', L], 10: ['flags', V], 11: ['min', F64], 12: ['max', F64],
});
const EXP_POINT = messageSpec('ExponentialHistogramDataPoint', {
  1: ['attributes', L], 2: ['start_time_unix_nano', F64], 3: ['time_unix_nano', F64], 4: ['count', F64], 5: ['sum', F64], 6: ['scale', V],
  7: ['zero_count', F64], 8: ['positive', L], 9: ['negative', L], 10: ['flags', V], 11: ['exemplars', L], 12: ['min', F64], 13: ['max', F64], 14: ['zero_threshold', F64],
});
// bucket_counts (field 2) is absent: a repeated uint64 may come packed (LEN) or not (VARINT), both valid.
const EXP_BUCKETS = messageSpec('ExponentialHistogramDataPoint.Buckets', { 1: ['offset', V] });
const SUMMARY_POINT = messageSpec('SummaryDataPoint', {
  2: ['start_time_unix_nano', F64], 3: ['time_unix_nano', F64], 4: ['count', F64], 5: ['sum', F64], 6: ['quantile_values', L], 7: ['attributes', L], 8: ['flags', V],
});
const QUANTILE = messageSpec('SummaryDataPoint.ValueAtQuantile', { 1: ['quantile', F64], 2: ['value', F64] });
export const METRIC_BODY = messageSpec('Gauge/Sum/Histogram', { 1: ['data_points', L], 2: ['aggregation_temporality', V], 3: ['is_monotonic', V] });
export const METRIC = messageSpec('Metric', { 1: ['name', L], 2: ['description', L], 3: ['unit', L], 5: ['gauge', L], 7: ['sum', L], 9: ['histogram', L], 10: ['exponential_histogram', L], 11: ['summary', L], 12: ['metadata', L] });
const LOG_RECORD = messageSpec('LogRecord', {
  1: ['time_unix_nano', F64], 2: ['severity_number', V], 3: ['severity_text', L], 5: ['body', L], 6: ['attributes', L], 7: ['dropped_attributes_count', V],
  8: ['flags', WIRE_I32], 9: ['trace_id', L], 10: ['span_id', L], 11: ['observed_time_unix_nano', F64], 12: ['event_name', L],
});

/**
 * How deep arrays and key-value lists currently nest. The decoder is synchronous and one request
 * decodes at a time, so a counter reset per request is exact and costs nothing per value.
 */
let nesting = 0;

function enterNested(): void {
  if (++nesting > MAX_ANY_VALUE_DEPTH) throw new OtlpDecodeError(`AnyValue nested deeper than ${MAX_ANY_VALUE_DEPTH} levels (arrays and key-value lists)`);
}

function anyValue(r: WireReader): AttrValue {
  let value: AttrValue = null;
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(ANY_VALUE, field, wire);
    switch (field) {
      case 1: value = r.string(); break;
      case 2: value = r.varint() !== 0; break;
      case 3: value = r.int64(); break;
      case 4: value = r.double(); break;
      case 5: value = r.message(arrayValue, undefined); break;
      case 6: value = r.message(kvList, undefined); break;
      case 7: value = r.base64(); break;
      default: r.skip(wire);
    }
  }
  return value;
}

function arrayValue(r: WireReader): AttrValue[] {
  enterNested();
  const out: AttrValue[] = [];
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(ARRAY_VALUE, field, wire);
    if (field === 1) out.push(r.message(anyValue, undefined));
    else r.skip(wire);
  }
  nesting--;
  return out;
}

function kvList(r: WireReader): Attributes {
  enterNested();
  const out: Attributes = {};
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(KV_LIST, field, wire);
    if (field === 1) r.message(keyValueInto, out);
    else r.skip(wire);
  }
  nesting--;
  return out;
}

function keyValueInto(r: WireReader, out: Attributes): void {
  let key = '';
  let value: AttrValue = null;
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(KEY_VALUE, field, wire);
    if (field === 1) key = r.string();
    else if (field === 2) value = r.message(anyValue, undefined);
    else r.skip(wire);
  }
  out[key] = value;
}

function resource(r: WireReader): OtlpResource {
  const attributes: Attributes = {};
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(RESOURCE, field, wire);
    if (field === 1) r.message(keyValueInto, attributes);
    else r.skip(wire);
  }
  return { attributes };
}

function scope(r: WireReader): OtlpScope {
  const s: OtlpScope = { name: '', version: '', attributes: {} };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(SCOPE, field, wire);
    if (field === 1) s.name = r.string();
    else if (field === 2) s.version = r.string();
    else if (field === 3) r.message(keyValueInto, s.attributes);
    else r.skip(wire);
  }
  return s;
}

const EMPTY_SCOPE: OtlpScope = { name: '', version: '', attributes: {} };

function resourceGroup<T>(r: WireReader, item: (r: WireReader) => T): ResourceGroup<T> {
  const group: ResourceGroup<T> = { resource: { attributes: {} }, scopes: [] };
  while (r.pos < r.end) {
    const tag = r.tag();
    r.check(RESOURCE_GROUP, tag >>> 3, tag & 7);
    if (tag >>> 3 === 1) group.resource = r.message(resource, undefined);
    else if (tag >>> 3 === 2) group.scopes.push(r.message(scopeGroup, item));
    else r.skip(tag & 7);
  }
  return group;
}

/** ResourceX { resource = 1; scope_x = 2 } and ScopeX { scope = 1; items = 2 } share one layout. */
function resourceGroups<T>(buf: Buffer, item: (r: WireReader) => T): ResourceGroup<T>[] {
  const r = new WireReader(buf);
  const groups: ResourceGroup<T>[] = [];
  nesting = 0;
  while (r.pos < r.end) {
    const tag = r.tag();
    r.check(REQUEST, tag >>> 3, tag & 7);
    if (tag >>> 3 === 1) groups.push(r.message(resourceGroup, item));
    else r.skip(tag & 7);
  }
  return groups;
}

function scopeGroup<T>(r: WireReader, item: (r: WireReader) => T): ScopeGroup<T> {
  const g: ScopeGroup<T> = { scope: EMPTY_SCOPE, items: [] };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(SCOPE_GROUP, field, wire);
    if (field === 1) g.scope = r.message(scope, undefined);
    else if (field === 2) g.items.push(r.message(item, undefined));
    else r.skip(wire);
  }
  return g;
}

function spanEvent(r: WireReader): OtlpSpanEvent {
  const e: OtlpSpanEvent = { timeNs: 0n, name: '', attributes: {} };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(EVENT, field, wire);
    if (field === 1) e.timeNs = r.fixed64();
    else if (field === 2) e.name = r.string();
    else if (field === 3) r.message(keyValueInto, e.attributes);
    else r.skip(wire);
  }
  return e;
}

function spanLink(r: WireReader): OtlpSpanLink {
  const l: OtlpSpanLink = { traceId: null, spanId: null, attributes: {} };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(LINK, field, wire);
    if (field === 1) l.traceId = r.hexId(16);
    else if (field === 2) l.spanId = r.hexId(8);
    else if (field === 4) r.message(keyValueInto, l.attributes);
    else r.skip(wire);
  }
  return l;
}

function status(r: WireReader, s: OtlpSpan): void {
  while (r.pos < r.end) {
    const tag = r.tag();
    r.check(STATUS, tag >>> 3, tag & 7);
    if (tag >>> 3 === 2) s.statusMessage = r.string();
    else if (tag >>> 3 === 3) s.statusCode = r.varint();
    else r.skip(tag & 7);
  }
}

function span(r: WireReader): OtlpSpan {
  const s: OtlpSpan = {
    traceId: null, spanId: null, parentSpanId: '', traceState: '', name: '', kind: 0,
    startNs: 0n, endNs: 0n, attributes: {}, events: [], links: [], statusCode: 0, statusMessage: '',
  };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(SPAN, field, wire);
    switch (field) {
      case 1: s.traceId = r.hexId(16); break;
      case 2: s.spanId = r.hexId(8); break;
      case 3: s.traceState = r.string(); break;
      case 4: s.parentSpanId = r.hexId(8); break;
      case 5: s.name = r.string(); break;
      case 6: s.kind = r.varint(); break;
      case 7: s.startNs = r.fixed64(); break;
      case 8: s.endNs = r.fixed64(); break;
      case 9: r.message(keyValueInto, s.attributes); break;
      case 11: s.events.push(r.message(spanEvent, undefined)); break;
      case 13: s.links.push(r.message(spanLink, undefined)); break;
      case 15: {
        r.message(status, s);
        break;
      }
      default: r.skip(wire);
    }
  }
  return s;
}

function numberPoint(r: WireReader): NumberPoint {
  const p: NumberPoint = { attributes: {}, startNs: 0n, timeNs: 0n, value: 0 };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(NUMBER_POINT, field, wire);
    switch (field) {
      case 7: r.message(keyValueInto, p.attributes); break;
      case 2: p.startNs = r.fixed64(); break;
      case 3: p.timeNs = r.fixed64(); break;
      case 4: p.value = r.double(); break;
      case 6: p.value = Number(r.sfixed64()); break;
      default: r.skip(wire);
    }
  }
  return p;
}

function histogramPoint(r: WireReader): HistogramPoint {
  const p: HistogramPoint = {
    attributes: {}, startNs: 0n, timeNs: 0n, count: 0, sum: null, min: null, max: null, bucketCounts: [], bounds: [],
  };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(HISTOGRAM_POINT, field, wire);
    switch (field) {
      case 9: r.message(keyValueInto, p.attributes); break;
      case 2: p.startNs = r.fixed64(); break;
      case 3: p.timeNs = r.fixed64(); break;
      case 4: p.count = r.fixed64Number(); break;
      case 5: p.sum = r.double(); break;
      case 6: r.repeatedFixed64(wire, p.bucketCounts, false); break;
      case 7: r.repeatedFixed64(wire, p.bounds, true); break;
      case 11: p.min = r.double(); break;
      case 12: p.max = r.double(); break;
      default: r.skip(wire);
    }
  }
  return p;
}

/** sint32: zigzag-encoded varint. */
function sint32(r: WireReader): number {
  const z = r.varint();
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}

function packedVarints(r: WireReader, into: number[]): void {
  while (r.pos < r.end) into.push(r.varint());
}

function expBuckets(r: WireReader): ExponentialBuckets {
  const b: ExponentialBuckets = { offset: 0, counts: [] };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(EXP_BUCKETS, field, wire);
    if (field === 1) b.offset = sint32(r);
    else if (field === 2 && wire === WIRE_VARINT) b.counts.push(r.varint());
    else if (field === 2 && wire === WIRE_LEN) r.message(packedVarints, b.counts);
    else r.skip(wire);
  }
  return b;
}

function exponentialPoint(r: WireReader): ExponentialPoint {
  const p: ExponentialPoint = {
    attributes: {}, startNs: 0n, timeNs: 0n, count: 0, sum: null, min: null, max: null,
    scale: 0, zeroCount: 0, zeroThreshold: 0, positive: { offset: 0, counts: [] }, negative: { offset: 0, counts: [] },
  };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(EXP_POINT, field, wire);
    switch (field) {
      case 1: r.message(keyValueInto, p.attributes); break;
      case 2: p.startNs = r.fixed64(); break;
      case 3: p.timeNs = r.fixed64(); break;
      case 4: p.count = r.fixed64Number(); break;
      case 5: p.sum = r.double(); break;
      case 6: p.scale = sint32(r); break;
      case 7: p.zeroCount = r.fixed64Number(); break;
      case 8: p.positive = r.message(expBuckets, undefined); break;
      case 9: p.negative = r.message(expBuckets, undefined); break;
      case 12: p.min = r.double(); break;
      case 13: p.max = r.double(); break;
      case 14: p.zeroThreshold = r.double(); break;
      default: r.skip(wire);
    }
  }
  return p;
}

function quantileValue(r: WireReader): { quantile: number; value: number } {
  const q = { quantile: 0, value: 0 };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(QUANTILE, field, wire);
    if (field === 1) q.quantile = r.double();
    else if (field === 2) q.value = r.double();
    else r.skip(wire);
  }
  return q;
}

function summaryPoint(r: WireReader): SummaryPoint {
  const p: SummaryPoint = { attributes: {}, startNs: 0n, timeNs: 0n, count: 0, sum: 0, quantiles: [] };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(SUMMARY_POINT, field, wire);
    switch (field) {
      case 7: r.message(keyValueInto, p.attributes); break;
      case 2: p.startNs = r.fixed64(); break;
      case 3: p.timeNs = r.fixed64(); break;
      case 4: p.count = r.fixed64Number(); break;
      case 5: p.sum = r.double(); break;
      case 6: p.quantiles.push(r.message(quantileValue, undefined)); break;
      default: r.skip(wire);
    }
  }
  return p;
}

/** Gauge/Sum/Histogram bodies: data_points = 1, aggregation_temporality = 2, is_monotonic = 3. */
function metricBody<P>(r: WireReader, point: (r: WireReader) => P): { points: P[]; temporality: number; monotonic: boolean } {
  const out = { points: [] as P[], temporality: 0, monotonic: false };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(METRIC_BODY, field, wire);
    if (field === 1) out.points.push(r.message(point, undefined));
    else if (field === 2) out.temporality = r.varint();
    else if (field === 3) out.monotonic = r.varint() !== 0;
    else r.skip(wire);
  }
  return out;
}

function metric(r: WireReader): OtlpMetric {
  const m: OtlpMetric = { name: '', description: '', unit: '', data: null };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(METRIC, field, wire);
    let data: OtlpMetricData | undefined;
    switch (field) {
      case 1: m.name = r.string(); break;
      case 2: m.description = r.string(); break;
      case 3: m.unit = r.string(); break;
      case 5: data = { type: 'gauge', points: r.message(metricBody, numberPoint).points }; break;
      case 7: {
        const b = r.message(metricBody, numberPoint);
        data = { type: 'sum', points: b.points, temporality: b.temporality, monotonic: b.monotonic };
        break;
      }
      case 9: {
        const b = r.message(metricBody, histogramPoint);
        data = { type: 'histogram', points: b.points, temporality: b.temporality };
        break;
      }
      case 10: {
        const b = r.message(metricBody, exponentialPoint);
        data = { type: 'exponentialHistogram', points: b.points, temporality: b.temporality };
        break;
      }
      case 11: data = { type: 'summary', points: r.message(metricBody, summaryPoint).points }; break;
      default: r.skip(wire);
    }
    if (data) m.data = data;
  }
  return m;
}

function logRecord(r: WireReader): OtlpLogRecord {
  const l: OtlpLogRecord = {
    timeNs: 0n, observedNs: 0n, severityNumber: 0, severityText: '', body: null, attributes: {},
    traceId: '', spanId: '', eventName: '',
  };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    r.check(LOG_RECORD, field, wire);
    switch (field) {
      case 1: l.timeNs = r.fixed64(); break;
      case 11: l.observedNs = r.fixed64(); break;
      case 2: l.severityNumber = r.varint(); break;
      case 3: l.severityText = r.string(); break;
      case 5: l.body = r.message(anyValue, undefined); break;
      case 6: r.message(keyValueInto, l.attributes); break;
      case 9: l.traceId = r.hexId(16); break;
      case 10: l.spanId = r.hexId(8); break;
      case 12: l.eventName = r.string(); break;
      default: r.skip(wire);
    }
  }
  return l;
}

export function decodeTracesProto(buf: Buffer): TracesRequest {
  return resourceGroups(buf, span);
}

export function decodeMetricsProto(buf: Buffer): MetricsRequest {
  return resourceGroups(buf, metric);
}

export function decodeLogsProto(buf: Buffer): LogsRequest {
  return resourceGroups(buf, logRecord);
}
