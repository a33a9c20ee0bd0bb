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
  type OtlpScope,
  type OtlpSpan,
  type ResourceGroup,
  type TracesRequest,
  MAX_ANY_VALUE_DEPTH,
  OtlpDecodeError,
  SPAN_KIND_NAMES,
} from './model.js';

/**
 * OTLP/JSON: lowerCamelCase keys, ids as hex (parsed by hand: a generic proto3 JSON parser would
 * read them as base64), 64-bit integers as decimal strings or numbers, enums as integers.
 */
type Json = unknown;
type JsonObject = Record<string, Json>;

/** Marks a timestamp that was present but not a non-negative integer; the item is then rejected. */
export const INVALID_TIME = -1n;

function isObject(v: Json): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function arrayAt(obj: JsonObject, key: string, where: string): Json[] {
  const v = obj[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new OtlpDecodeError(`${where ? `${where}.` : ''}${key} must be an array`);
  return v;
}

function objectAt(v: Json, where: string): JsonObject {
  if (!isObject(v)) throw new OtlpDecodeError(`${where} must be an object`);
  return v;
}

function str(v: Json): string {
  return typeof v === 'string' ? v : '';
}

/** '' when absent, null when malformed (wrong length, not hex, or all zero). */
export function parseHexId(v: Json, bytes: number): string | null {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v !== 'string' || v.length !== bytes * 2) return null;
  // One pass for all three checks: ids arrive on every span and this ran a regex and a copy each.
  let upper = false;
  let zero = true;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 48) continue;
    zero = false;
    if ((c >= 49 && c <= 57) || (c >= 97 && c <= 102)) continue;
    if (c >= 65 && c <= 70) upper = true;
    else return null;
  }
  if (zero) return null;
  return upper ? v.toLowerCase() : v;
}

function nanos(v: Json): bigint {
  if (v === undefined || v === null) return 0n;
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? BigInt(v) : INVALID_TIME;
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return BigInt(v);
  return INVALID_TIME;
}

function int64(v: Json): number | string {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v;
  }
  return 0;
}

function num(v: Json): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    // proto3 JSON spells non-finite doubles as strings.
    if (v === 'NaN') return NaN;
    if (v === 'Infinity') return Infinity;
    if (v === '-Infinity') return -Infinity;
    const n = Number(v);
    return Number.isNaN(n) ? 0 : n;
  }
  return 0;
}

function enumValue(v: Json, names: readonly string[], prefix: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const i = names.indexOf(v.replace(prefix, ''));
    return i < 0 ? 0 : i;
  }
  return 0;
}

/** `depth` counts the arrays and key-value lists around this value (bounded: see MAX_ANY_VALUE_DEPTH). */
function anyValue(v: Json, depth = 0): AttrValue {
  if (!isObject(v)) return null;
  if ('stringValue' in v) return str(v.stringValue);
  if ('boolValue' in v) return v.boolValue === true;
  if ('intValue' in v) return int64(v.intValue);
  if ('doubleValue' in v) return num(v.doubleValue);
  if ('arrayValue' in v || 'kvlistValue' in v) {
    if (depth >= MAX_ANY_VALUE_DEPTH) throw new OtlpDecodeError(`AnyValue nested deeper than ${MAX_ANY_VALUE_DEPTH} levels (arrays and key-value lists)`);
    // The list itself in place of `{"values": [...]}`: not the proto3 JSON mapping, but the shape of
    // opentelemetry-proto's own examples/events.json, so senders copy it; read it rather than drop it.
    if ('arrayValue' in v) {
      if (Array.isArray(v.arrayValue)) return v.arrayValue.map((x) => anyValue(x, depth + 1));
      return isObject(v.arrayValue) ? arrayAt(v.arrayValue, 'values', 'arrayValue').map((x) => anyValue(x, depth + 1)) : [];
    }
    if (Array.isArray(v.kvlistValue)) return attributes(v.kvlistValue, depth + 1);
    return isObject(v.kvlistValue) ? attributes(v.kvlistValue.values, depth + 1) : {};
  }
  if ('bytesValue' in v) return str(v.bytesValue);
  return null;
}

function attributes(v: Json, depth = 0): Attributes {
  const out: Attributes = {};
  if (!Array.isArray(v)) return out;
  for (const kv of v) {
    if (!isObject(kv)) continue;
    // proto3 JSON: an absent key is the empty string, as the protobuf decoder reads it.
    const key = kv.key === undefined || kv.key === null ? '' : kv.key;
    if (typeof key === 'string') out[key] = anyValue(kv.value, depth);
  }
  return out;
}

function scope(v: Json): OtlpScope {
  if (!isObject(v)) return { name: '', version: '', attributes: {} };
  return { name: str(v.name), version: str(v.version), attributes: attributes(v.attributes) };
}

/** The keys an API (a query endpoint, a trace backend's HTTP API) wraps its answer in. */
const API_WRAPPERS = ['result', 'data'];

/**
 * A body without the export's key but with an API's wrapper is a saved API answer sent by mistake:
 * accepted, it would store nothing and say 200. An empty object stays a valid, empty export.
 */
function refuseApiResponse(root: JsonObject, resourceKey: string): void {
  if (resourceKey in root) return;
  const wrapper = API_WRAPPERS.find((k) => k in root);
  if (!wrapper) return;
  const inner = root[wrapper];
  const wraps = isObject(inner) && resourceKey in inner;
  throw new OtlpDecodeError(`this looks like an API response, not an OTLP export: it has a top-level "${wrapper}" and no "${resourceKey}"`
    + (wraps ? `; send the object under "${wrapper}" instead` : ''));
}

function groups<T>(body: Json, resourceKey: string, scopeKey: string, itemKey: string, item: (v: JsonObject) => T): ResourceGroup<T>[] {
  const root = objectAt(body, 'request body');
  refuseApiResponse(root, resourceKey);
  return arrayAt(root, resourceKey, '').map((rv, i) => {
    const r = objectAt(rv, `${resourceKey}[${i}]`);
    const res = isObject(r.resource) ? r.resource : {};
    return {
      resource: { attributes: attributes(res.attributes) },
      scopes: arrayAt(r, scopeKey, `${resourceKey}[${i}]`).map((sv, j) => {
        const s = objectAt(sv, `${resourceKey}[${i}].${scopeKey}[${j}]`);
        return {
          scope: scope(s.scope),
          items: arrayAt(s, itemKey, `${scopeKey}[${j}]`).map((x, k) => item(objectAt(x, `${itemKey}[${k}]`))),
        };
      }),
    };
  });
}

function span(v: JsonObject): OtlpSpan {
  const status = isObject(v.status) ? v.status : {};
  return {
    traceId: parseHexId(v.traceId, 16),
    spanId: parseHexId(v.spanId, 8),
    parentSpanId: parseHexId(v.parentSpanId, 8),
    traceState: str(v.traceState),
    name: str(v.name),
    kind: enumValue(v.kind, SPAN_KIND_NAMES, 'SPAN_KIND_'),
    startNs: nanos(v.startTimeUnixNano),
    endNs: nanos(v.endTimeUnixNano),
    attributes: attributes(v.attributes),
    events: (Array.isArray(v.events) ? v.events : []).filter(isObject).map((e) => ({
      timeNs: nanos(e.timeUnixNano),
      name: str(e.name),
      attributes: attributes(e.attributes),
    })),
    links: (Array.isArray(v.links) ? v.links : []).filter(isObject).map((l) => ({
      traceId: parseHexId(l.traceId, 16),
      spanId: parseHexId(l.spanId, 8),
      attributes: attributes(l.attributes),
    })),
    statusCode: enumValue(status.code, ['UNSET', 'OK', 'ERROR'], 'STATUS_CODE_'),
    statusMessage: str(status.message),
  };
}

function numberPoints(v: Json): NumberPoint[] {
  return (Array.isArray(v) ? v : []).filter(isObject).map((p) => ({
    attributes: attributes(p.attributes),
    startNs: nanos(p.startTimeUnixNano),
    timeNs: nanos(p.timeUnixNano),
    value: 'asDouble' in p ? num(p.asDouble) : Number(int64(p.asInt)),
  }));
}

function histogramPoints(v: Json): HistogramPoint[] {
  return (Array.isArray(v) ? v : []).filter(isObject).map((p) => ({
    attributes: attributes(p.attributes),
    startNs: nanos(p.startTimeUnixNano),
    timeNs: nanos(p.timeUnixNano),
    count: Number(int64(p.count)),
    sum: p.sum === undefined || p.sum === null ? null : num(p.sum),
    min: p.min === undefined || p.min === null ? null : num(p.min),
    max: p.max === undefined || p.max === null ? null : num(p.max),
    bucketCounts: (Array.isArray(p.bucketCounts) ? p.bucketCounts : []).map((c) => Number(int64(c))),
    bounds: (Array.isArray(p.explicitBounds) ? p.explicitBounds : []).map(num),
  }));
}

function optionalNum(v: Json | undefined): number | null {
  return v === undefined || v === null ? null : num(v);
}

function expBuckets(v: Json | undefined): ExponentialBuckets {
  if (!isObject(v)) return { offset: 0, counts: [] };
  return { offset: num(v.offset ?? 0), counts: (Array.isArray(v.bucketCounts) ? v.bucketCounts : []).map((c) => Number(int64(c))) };
}

function exponentialPoints(v: Json): ExponentialPoint[] {
  return (Array.isArray(v) ? v : []).filter(isObject).map((p) => ({
    attributes: attributes(p.attributes),
    startNs: nanos(p.startTimeUnixNano),
    timeNs: nanos(p.timeUnixNano),
    count: Number(int64(p.count)),
    sum: optionalNum(p.sum),
    min: optionalNum(p.min),
    max: optionalNum(p.max),
    scale: num(p.scale ?? 0),
    zeroCount: Number(int64(p.zeroCount)),
    zeroThreshold: num(p.zeroThreshold ?? 0),
    positive: expBuckets(p.positive),
    negative: expBuckets(p.negative),
  }));
}

function summaryPoints(v: Json): SummaryPoint[] {
  return (Array.isArray(v) ? v : []).filter(isObject).map((p) => ({
    attributes: attributes(p.attributes),
    startNs: nanos(p.startTimeUnixNano),
    timeNs: nanos(p.timeUnixNano),
    count: Number(int64(p.count)),
    sum: num(p.sum ?? 0),
    quantiles: (Array.isArray(p.quantileValues) ? p.quantileValues : []).filter(isObject).map((q) => ({ quantile: num(q.quantile ?? 0), value: num(q.value ?? 0) })),
  }));
}

function metric(v: JsonObject): OtlpMetric {
  const m: OtlpMetric = { name: str(v.name), description: str(v.description), unit: str(v.unit), data: null };
  if (isObject(v.gauge)) m.data = { type: 'gauge', points: numberPoints(v.gauge.dataPoints) };
  else if (isObject(v.sum)) {
    m.data = {
      type: 'sum',
      points: numberPoints(v.sum.dataPoints),
      temporality: enumValue(v.sum.aggregationTemporality, ['UNSPECIFIED', 'DELTA', 'CUMULATIVE'], 'AGGREGATION_TEMPORALITY_'),
      monotonic: v.sum.isMonotonic === true,
    };
  } else if (isObject(v.histogram)) {
    m.data = {
      type: 'histogram',
      points: histogramPoints(v.histogram.dataPoints),
      temporality: enumValue(v.histogram.aggregationTemporality, ['UNSPECIFIED', 'DELTA', 'CUMULATIVE'], 'AGGREGATION_TEMPORALITY_'),
    };
  } else if (isObject(v.exponentialHistogram)) {
    m.data = {
      type: 'exponentialHistogram',
      points: exponentialPoints(v.exponentialHistogram.dataPoints),
      temporality: enumValue(v.exponentialHistogram.aggregationTemporality, ['UNSPECIFIED', 'DELTA', 'CUMULATIVE'], 'AGGREGATION_TEMPORALITY_'),
    };
  } else if (isObject(v.summary)) {
    m.data = { type: 'summary', points: summaryPoints(v.summary.dataPoints) };
  }
  return m;
}

function logRecord(v: JsonObject): OtlpLogRecord {
  return {
    timeNs: nanos(v.timeUnixNano),
    observedNs: nanos(v.observedTimeUnixNano),
    severityNumber: typeof v.severityNumber === 'number' ? v.severityNumber : 0,
    severityText: str(v.severityText),
    body: anyValue(v.body, 0),
    attributes: attributes(v.attributes),
    traceId: parseHexId(v.traceId, 16),
    spanId: parseHexId(v.spanId, 8),
    eventName: str(v.eventName),
  };
}

function parse(buf: Buffer): Json {
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch (err) {
    throw new OtlpDecodeError(`malformed JSON: ${(err as Error).message}`);
  }
}

/** Decoders of an already-parsed OTLP/JSON value (the demo loader parses once, then shifts times). */
export function decodeTracesValue(body: unknown): TracesRequest {
  return groups(body, 'resourceSpans', 'scopeSpans', 'spans', span);
}

export function decodeMetricsValue(body: unknown): MetricsRequest {
  return groups(body, 'resourceMetrics', 'scopeMetrics', 'metrics', metric);
}

export function decodeLogsValue(body: unknown): LogsRequest {
  return groups(body, 'resourceLogs', 'scopeLogs', 'logRecords', logRecord);
}

export function decodeTracesJson(buf: Buffer): TracesRequest {
  return decodeTracesValue(parse(buf));
}

export function decodeMetricsJson(buf: Buffer): MetricsRequest {
  return decodeMetricsValue(parse(buf));
}

export function decodeLogsJson(buf: Buffer): LogsRequest {
  return decodeLogsValue(parse(buf));
}
