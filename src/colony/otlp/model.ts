/**
 * The decoded shape of an OTLP export request, shared by the JSON and protobuf decoders so that
 * everything after decoding (classification, normalisation, storage) has one code path.
 * Ids are lowercase hex; an id that failed validation is kept as `null` so the normaliser can reject
 * that item alone (partial success) instead of the whole request.
 */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attributes = Record<string, AttrValue>;

export interface OtlpScope {
  name: string;
  version: string;
  attributes: Attributes;
}

export interface OtlpResource {
  attributes: Attributes;
}

export interface OtlpSpanEvent {
  timeNs: bigint;
  name: string;
  attributes: Attributes;
}

export interface OtlpSpanLink {
  traceId: string | null;
  spanId: string | null;
  attributes: Attributes;
}

export interface OtlpSpan {
  traceId: string | null;
  spanId: string | null;
  /** '' for a root span; null when present but malformed. */
  parentSpanId: string | null;
  traceState: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Attributes;
  events: OtlpSpanEvent[];
  links: OtlpSpanLink[];
  statusCode: number;
  statusMessage: string;
}

export interface ScopeGroup<T> {
  scope: OtlpScope;
  items: T[];
}

export interface ResourceGroup<T> {
  resource: OtlpResource;
  scopes: ScopeGroup<T>[];
}

/** What every data point carries, whatever its type. */
export interface PointBase {
  attributes: Attributes;
  startNs: bigint;
  timeNs: bigint;
}

export interface NumberPoint extends PointBase {
  value: number;
}

/** The observations a histogram point summarises, explicit or exponential. */
export interface HistogramTotals extends PointBase {
  count: number;
  sum: number | null;
  min: number | null;
  max: number | null;
}

export interface HistogramPoint extends HistogramTotals {
  bucketCounts: number[];
  bounds: number[];
}

/** One side (positive or negative) of an exponential histogram: counts of buckets offset, offset+1, ... */
export interface ExponentialBuckets {
  offset: number;
  counts: number[];
}

export interface ExponentialPoint extends HistogramTotals {
  scale: number;
  zeroCount: number;
  zeroThreshold: number;
  positive: ExponentialBuckets;
  negative: ExponentialBuckets;
}

export interface SummaryPoint extends PointBase {
  count: number;
  sum: number;
  quantiles: { quantile: number; value: number }[];
}

export const TEMPORALITY_UNSPECIFIED = 0;
export const TEMPORALITY_DELTA = 1;
export const TEMPORALITY_CUMULATIVE = 2;

export type OtlpMetricData =
  | { type: 'gauge'; points: NumberPoint[] }
  | { type: 'sum'; points: NumberPoint[]; temporality: number; monotonic: boolean }
  | { type: 'histogram'; points: HistogramPoint[]; temporality: number }
  | { type: 'exponentialHistogram'; points: ExponentialPoint[]; temporality: number }
  | { type: 'summary'; points: SummaryPoint[] };

export interface OtlpMetric {
  name: string;
  description: string;
  unit: string;
  data: OtlpMetricData | null;
}

export interface OtlpLogRecord {
  timeNs: bigint;
  observedNs: bigint;
  severityNumber: number;
  severityText: string;
  body: AttrValue;
  attributes: Attributes;
  traceId: string | null;
  spanId: string | null;
  eventName: string;
}

export type TracesRequest = ResourceGroup<OtlpSpan>[];
export type MetricsRequest = ResourceGroup<OtlpMetric>[];
export type LogsRequest = ResourceGroup<OtlpLogRecord>[];

export type Signal = 'traces' | 'metrics' | 'logs';

/**
 * AnyValue arrays and key-value lists nest at most this deep: deeper is a 400, not a stack overflow
 * (and no real attribute comes near it).
 */
export const MAX_ANY_VALUE_DEPTH = 64;

/** Thrown for a request that cannot be decoded at all (HTTP 400, nothing stored). */
export class OtlpDecodeError extends Error {
  override name = 'OtlpDecodeError';
}

export const SPAN_KIND_NAMES = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
export const STATUS_CODE_NAMES = ['UNSET', 'OK', 'ERROR'] as const;
