import { type ColumnarBatch, batchBytes, encodeBatch } from '../store/columnar-batch.js';
import type { BufferPool } from '../store/columnar.js';
import type { IngestBatch } from '../store/rows.js';
import { StoreBusyError } from '../store/busy.js';
import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from './decode-json.js';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from './decode-proto.js';
import type { DecodedExport, ExportDecoder } from './decoded-export.js';
import { decodedBytesEstimate } from './decoded-bytes.js';
import { countExportItems, tooManyItemsMessage } from './export-items.js';
import { type BudgetHold, overBudgetMessage } from './limits.js';
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
 * Why an export was refused, independent of the transport: `invalid` and `too-large` (more items
 * than the cap) are final (HTTP 400 and 413; INVALID_ARGUMENT, RESOURCE_EXHAUSTED without
 * RetryInfo); `over-budget`, `busy` and `unavailable` are worth retrying (HTTP 429 and 503; gRPC
 * RESOURCE_EXHAUSTED with RetryInfo, UNAVAILABLE).
 */
export class IngestError extends Error {
  constructor(
    readonly kind: 'invalid' | 'too-large' | 'over-budget' | 'busy' | 'unavailable',
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

/** What a receiver lets one export take: the item cap, and the request's share of the in-flight budget (its body held already). */
export interface ExportAdmission {
  maxItems: number;
  hold: BudgetHold;
}

/**
 * Before an export is decoded: its items counted (a malformed envelope is `invalid`), more than
 * the cap refused (`too-large`), then the batch it will decode into reserved beside its body
 * (`over-budget` when that does not fit). Nothing is decoded or stored for a refused export.
 */
export function admitExport(signal: Signal, encoding: Encoding, body: Buffer, admission: ExportAdmission): void {
  let items: number;
  try {
    items = countExportItems(signal, encoding, body);
  } catch (err) {
    throw cannotDecode(signal, encoding, err);
  }
  if (items > admission.maxItems) throw new IngestError('too-large', tooManyItemsMessage(items, admission.maxItems));
  const estimate = decodedBytesEstimate(signal, encoding, items, body.length);
  if (!admission.hold.tryAdd(estimate)) throw new IngestError('over-budget', overBudgetMessage(admission.hold.budget, estimate));
}

function cannotDecode(signal: Signal, encoding: Encoding, err: unknown): unknown {
  return err instanceof OtlpDecodeError ? new IngestError('invalid', `cannot decode ${signal} ${encoding}: ${err.message}`) : err;
}

/**
 * Admission (with `admission`), decode -> normalise -> store: the one path every OTLP transport
 * (HTTP, gRPC) takes. With `decoders` and a sink taking columnar batches, the decoding runs on a
 * decode worker, and once it is done the budget holds the body and the batch's measured size in
 * place of the estimate (the body may still be referenced: a gRPC message, a body copied to the worker).
 */
export async function ingestExport(sink: IngestSink, signal: Signal, encoding: Encoding, body: Buffer, decoders?: ExportDecoder | null, admission?: ExportAdmission): Promise<ExportOutcome> {
  if (admission) admitExport(signal, encoding, body, admission);
  const bodyBytes = body.length;
  const writeColumnar = sink.writeColumnar?.bind(sink);
  if (decoders && writeColumnar) {
    const decoding = decoders.decode(signal, encoding, body).then((d) => {
      admission?.hold.resize(bodyBytes + batchBytes(d.batch));
      return d;
    });
    const written = store(() => writeColumnar(decoding.then((d) => d.batch)));
    let decoded: DecodedExport;
    try {
      decoded = await decoding;
    } catch (err) {
      // The store saw the same failure and stored nothing; the sender hears why.
      written.catch(() => undefined);
      throw cannotDecode(signal, encoding, err);
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
    throw cannotDecode(signal, encoding, err);
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
