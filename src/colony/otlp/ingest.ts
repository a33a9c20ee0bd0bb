import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from './decode-json.js';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from './decode-proto.js';
import type { Signal } from './model.js';
import { type Normalized, normalizeLogs, normalizeMetrics, normalizeTraces } from './normalize.js';

const CODECS: Record<Signal, { json: (b: Buffer) => unknown; proto: (b: Buffer) => unknown; normalize: (req: never) => Normalized }> = {
  traces: { json: decodeTracesJson, proto: decodeTracesProto, normalize: normalizeTraces },
  metrics: { json: decodeMetricsJson, proto: decodeMetricsProto, normalize: normalizeMetrics },
  logs: { json: decodeLogsJson, proto: decodeLogsProto, normalize: normalizeLogs },
};

/**
 * One export body to rows, pure and transport-neutral (OTLP/HTTP and OTLP/gRPC carry the same
 * bytes): throws OtlpDecodeError when the body cannot be decoded at all (a 400 / INVALID_ARGUMENT,
 * nothing stored); otherwise every item is stored or rejected alone, with `rejected` and the
 * reasons (naming the field) for partial_success.
 */
export function decodeExport(signal: Signal, encoding: 'json' | 'protobuf', body: Buffer): Normalized {
  const codec = CODECS[signal];
  return codec.normalize((encoding === 'json' ? codec.json(body) : codec.proto(body)) as never);
}
