import type { IngestBatch } from '../store/rows.js';
import { StoreBusyError } from '../store/busy.js';
import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from './decode-json.js';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from './decode-proto.js';
import { OtlpDecodeError, type Signal } from './model.js';
import { type Normalized, normalizeLogs, normalizeMetrics, normalizeTraces } from './normalize.js';
import type { Encoding } from './responses.js';

/** Where decoded telemetry goes: the store, or anything that commits a batch. */
export interface IngestSink {
  write(batch: IngestBatch): Promise<void>;
}

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
export function decodeExport(signal: Signal, encoding: Encoding, body: Buffer): Normalized {
  const codec = CODECS[signal];
  return codec.normalize((encoding === 'json' ? codec.json(body) : codec.proto(body)) as never);
}

/**
 * Why an export was refused, independent of the transport: `invalid` is final (HTTP 400,
 * INVALID_ARGUMENT), `busy` and `unavailable` are worth retrying (HTTP 503; gRPC RESOURCE_EXHAUSTED
 * with RetryInfo, UNAVAILABLE).
 */
export class IngestError extends Error {
  constructor(
    readonly kind: 'invalid' | 'busy' | 'unavailable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Decode -> normalise -> store: the one path every OTLP transport (HTTP, gRPC) takes. */
export async function ingestExport(sink: IngestSink, signal: Signal, encoding: Encoding, body: Buffer): Promise<Normalized> {
  let n: Normalized;
  try {
    n = decodeExport(signal, encoding, body);
  } catch (err) {
    if (err instanceof OtlpDecodeError) throw new IngestError('invalid', `cannot decode ${signal} ${encoding}: ${err.message}`);
    throw err;
  }
  try {
    await sink.write(n.batch);
  } catch (err) {
    if (err instanceof StoreBusyError) throw new IngestError('busy', err.message);
    // Items the store cannot hold were rejected one by one before this point; what fails here is
    // the store itself, so the sender retries later. Its own error text is for the colony's log.
    throw new IngestError('unavailable', 'the store could not take this batch; retry later (details are in the colony log)', { cause: err });
  }
  return n;
}
