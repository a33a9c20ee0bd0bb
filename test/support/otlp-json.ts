/** Builders for OTLP/JSON payloads, written the way the specification spells them. */
import type { ColonyStore } from '../../src/colony/store/store.js';
import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from '../../src/colony/otlp/decode-json.js';
import { normalizeLogs, normalizeMetrics, normalizeTraces } from '../../src/colony/otlp/normalize.js';

export type Scalar = string | number | boolean;

export function anyValue(v: Scalar): Record<string, unknown> {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
}

export function attrs(obj: Record<string, Scalar>): { key: string; value: Record<string, unknown> }[] {
  return Object.entries(obj).map(([key, v]) => ({ key, value: anyValue(v) }));
}

export const sdkResource = (service: string, extra: Record<string, Scalar> = {}) => ({
  'service.name': service,
  'telemetry.sdk.name': 'opentelemetry',
  'telemetry.sdk.language': 'nodejs',
  ...extra,
});

/** Beyla copies the application's language; only telemetry.sdk.name tells it apart. */
export const beylaResource = (service: string, extra: Record<string, Scalar> = {}) => ({
  'service.name': service,
  'telemetry.sdk.name': 'beyla',
  'telemetry.sdk.language': 'nodejs',
  ...extra,
});

export interface SpanSpec {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startNs: bigint;
  durationMs: number;
  attributes?: Record<string, Scalar>;
  status?: 0 | 1 | 2;
  statusMessage?: string;
  links?: { traceId: string; spanId: string }[];
}

export function jsonSpan(s: SpanSpec): Record<string, unknown> {
  return {
    traceId: s.traceId,
    spanId: s.spanId,
    ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
    name: s.name,
    kind: s.kind ?? 2,
    startTimeUnixNano: s.startNs.toString(),
    endTimeUnixNano: (s.startNs + BigInt(Math.round(s.durationMs * 1e6))).toString(),
    attributes: attrs(s.attributes ?? {}),
    status: s.status ? { code: s.status, message: s.statusMessage ?? '' } : {},
    ...(s.links ? { links: s.links } : {}),
  };
}

export function tracesBody(resource: Record<string, Scalar>, scopeName: string, spans: SpanSpec[]): Record<string, unknown> {
  return { resourceSpans: [{ resource: { attributes: attrs(resource) }, scopeSpans: [{ scope: { name: scopeName }, spans: spans.map(jsonSpan) }] }] };
}

export interface HistogramSpec {
  attributes: Record<string, Scalar>;
  startNs: bigint;
  timeNs: bigint;
  bounds: number[];
  counts: number[];
}

export function histogramBody(
  resource: Record<string, Scalar>,
  scopeName: string,
  metric: { name: string; unit: string; temporality?: 1 | 2 },
  points: HistogramSpec[],
): Record<string, unknown> {
  return {
    resourceMetrics: [{
      resource: { attributes: attrs(resource) },
      scopeMetrics: [{
        scope: { name: scopeName },
        metrics: [{
          name: metric.name,
          unit: metric.unit,
          histogram: {
            aggregationTemporality: metric.temporality ?? 2,
            dataPoints: points.map((p) => ({
              attributes: attrs(p.attributes),
              startTimeUnixNano: p.startNs.toString(),
              timeUnixNano: p.timeNs.toString(),
              count: String(p.counts.reduce((a, b) => a + b, 0)),
              bucketCounts: p.counts.map(String),
              explicitBounds: p.bounds,
            })),
          },
        }],
      }],
    }],
  };
}

export interface LogSpec {
  timeNs: bigint;
  severityNumber?: number;
  severityText?: string;
  body: string;
  attributes?: Record<string, Scalar>;
  traceId?: string;
  spanId?: string;
  eventName?: string;
}

export function logsBody(resource: Record<string, Scalar>, scopeName: string, logs: LogSpec[]): Record<string, unknown> {
  return {
    resourceLogs: [{
      resource: { attributes: attrs(resource) },
      scopeLogs: [{
        scope: { name: scopeName },
        logRecords: logs.map((l) => ({
          timeUnixNano: l.timeNs.toString(),
          severityNumber: l.severityNumber ?? 9,
          severityText: l.severityText ?? '',
          body: { stringValue: l.body },
          attributes: attrs(l.attributes ?? {}),
          ...(l.traceId ? { traceId: l.traceId } : {}),
          ...(l.spanId ? { spanId: l.spanId } : {}),
          ...(l.eventName ? { eventName: l.eventName } : {}),
        })),
      }],
    }],
  };
}

const enc = (body: unknown) => Buffer.from(JSON.stringify(body));

/** Decodes and stores a JSON payload through the same path the receiver uses, minus HTTP. */
export async function ingest(store: Pick<ColonyStore, 'write'>, signal: 'traces' | 'metrics' | 'logs', body: unknown): Promise<number> {
  const n =
    signal === 'traces' ? normalizeTraces(decodeTracesJson(enc(body)))
    : signal === 'metrics' ? normalizeMetrics(decodeMetricsJson(enc(body)))
    : normalizeLogs(decodeLogsJson(enc(body)));
  await store.write(n.batch);
  return n.rejected;
}

/** Deterministic hex ids for tests: hexId(16, 7) -> '000...07' (32 chars). */
export function hexId(bytes: number, n: number, salt = 1): string {
  return (BigInt(salt) * 10n ** 12n + BigInt(n)).toString(16).padStart(bytes * 2, '0');
}

export const T0 = 1_764_671_400_000_000_000n; // 2025-12-02T10:30:00Z
export const SEC = 1_000_000_000n;
export const MIN = 60n * SEC;
