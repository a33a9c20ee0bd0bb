import { type ColumnarBatch, encodeBatch } from '../store/columnar-batch.js';
import type { BufferPool } from '../store/columnar.js';
import type { IngestBatch } from '../store/rows.js';
import { StoreBusyError } from '../store/busy.js';
import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from './decode-json.js';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from './decode-proto.js';
import type { DecodedExport, ExportDecoder } from './decoded-export.js';
import { OtlpDecodeError, type Signal } from './model.js';
import { type Normalized, normalizeLogs, normalizeMetrics, normalizeTraces } from './normalize.js';
import type { Encoding } from './responses.js';

/** Where decoded telemetry goes: the store, or anything that commits a batch. */
export interface IngestSink {
  write(batch: IngestBatch): Promise<void>;
  /**
   * A sink that takes columnar batches has exports decoded on worker threads (decode-pool.ts). It
   * gets each batch while it is still being decoded, so that it can wait for it rather than commit
   * a small group without it.
   */
  writeColumnar?(batch: Promise<ColumnarBatch>): Promise<void>;
}

/** What an export came to: partial success's counts and reasons. */
export type ExportOutcome = Pick<Normalized, 'accepted' | 'rejected' | 'reasons'>;

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

/**
 * The store cannot take a batch. Items the store cannot hold were rejected one by one before this
 * point; what fails here is the store itself, so the sender retries later. Its own error text is
 * for the colony's log.
 */
export function storeUnavailable(cause: unknown): IngestError {
  return new IngestError('unavailable', 'the store could not take this batch; retry later (details are in the colony log)', { cause });
}

/**
 * A decode worker's work (decode-pool.ts): decodeExport, then the rows in columnar form, in
 * `buffers` when given. A value its column type cannot hold fails the batch with storeUnavailable.
 */
export function decodeColumnar(signal: Signal, encoding: Encoding, body: Buffer, buffers?: BufferPool): DecodedExport {
  const n = decodeExport(signal, encoding, body);
  let batch: ColumnarBatch;
  try {
    batch = encodeBatch(n.batch, buffers);
  } catch (err) {
    if (err instanceof RangeError) throw storeUnavailable(err);
    throw err;
  }
  return { batch, accepted: n.accepted, rejected: n.rejected, reasons: n.reasons };
}

/**
 * Decode -> normalise -> store: the one path every OTLP transport (HTTP, gRPC) takes. With
 * `decoders` and a sink taking columnar batches, the first two steps run on a decode worker.
 */
export async function ingestExport(sink: IngestSink, signal: Signal, encoding: Encoding, body: Buffer, decoders?: ExportDecoder | null): Promise<ExportOutcome> {
  const cannotDecode = (err: unknown) => (err instanceof OtlpDecodeError ? new IngestError('invalid', `cannot decode ${signal} ${encoding}: ${err.message}`) : err);
  const writeColumnar = sink.writeColumnar?.bind(sink);
  if (decoders && writeColumnar) {
    const decoding = decoders.decode(signal, encoding, body);
    const written = store(() => writeColumnar(decoding.then((d) => d.batch)));
    let decoded: DecodedExport;
    try {
      decoded = await decoding;
    } catch (err) {
      // The store saw the same failure and stored nothing; the sender hears why.
      written.catch(() => undefined);
      throw cannotDecode(err);
    }
    try {
      await written;
    } finally {
      decoders.recycle(decoded.batch);
    }
    return decoded;
  }
  let n: Normalized;
  try {
    n = decodeExport(signal, encoding, body);
  } catch (err) {
    throw cannotDecode(err);
  }
  await store(() => sink.write(n.batch));
  return n;
}

async function store(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (err instanceof StoreBusyError) throw new IngestError('busy', err.message);
    throw storeUnavailable(err);
  }
}
