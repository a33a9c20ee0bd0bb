import {
  type Attributes,
  type AttrValue,
  type HistogramPoint,
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
} from './model.js';
import { WIRE_I64, WIRE_LEN, WireReader } from './wire.js';

// Field numbers from opentelemetry-proto (common, resource, trace, metrics, logs v1).

function anyValue(r: WireReader): AttrValue {
  let value: AttrValue = null;
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    switch (field) {
      case 1: value = r.string(); break;
      case 2: value = r.varint() !== 0; break;
      case 3: value = r.int64(); break;
      case 4: value = wire === WIRE_I64 ? r.double() : (r.skip(wire), null); break;
      case 5: value = r.message(arrayValue, undefined); break;
      case 6: value = r.message(kvList, undefined); break;
      case 7: value = r.base64(); break;
      default: r.skip(wire);
    }
  }
  return value;
}

function arrayValue(r: WireReader): AttrValue[] {
  const out: AttrValue[] = [];
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === WIRE_LEN) out.push(r.message(anyValue, undefined));
    else r.skip(wire);
  }
  return out;
}

function kvList(r: WireReader): Attributes {
  const out: Attributes = {};
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === WIRE_LEN) r.message(keyValueInto, out);
    else r.skip(wire);
  }
  return out;
}

function keyValueInto(r: WireReader, out: Attributes): void {
  let key = '';
  let value: AttrValue = null;
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
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
  while (r.pos < r.end) {
    const tag = r.tag();
    if (tag >>> 3 === 1 && (tag & 7) === WIRE_LEN) groups.push(r.message(resourceGroup, item));
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

/** Gauge/Sum/Histogram bodies: data_points = 1, aggregation_temporality = 2, is_monotonic = 3. */
function metricBody<P>(r: WireReader, point: (r: WireReader) => P): { points: P[]; temporality: number; monotonic: boolean } {
  const out = { points: [] as P[], temporality: 0, monotonic: false };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1) out.points.push(r.message(point, undefined));
    else if (field === 2) out.temporality = r.varint();
    else if (field === 3) out.monotonic = r.varint() !== 0;
    else r.skip(wire);
  }
  return out;
}

function countPoints(r: WireReader): number {
  let n = 0;
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1) n++;
    r.skip(wire);
  }
  return n;
}

function metric(r: WireReader): OtlpMetric {
  const m: OtlpMetric = { name: '', description: '', unit: '', data: null };
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
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
      case 10: data = { type: 'unsupported', kind: 'exponential histogram', pointCount: r.message(countPoints, undefined) }; break;
      case 11: data = { type: 'unsupported', kind: 'summary', pointCount: r.message(countPoints, undefined) }; break;
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
