/**
 * A decode worker (decode-pool.ts): turns export bodies into columnar batches off the thread that
 * serves HTTP and fills DuckDB's chunks, with the same decoders and normaliser as that thread would
 * use. It never writes to stdout.
 */
import { parentPort } from 'node:worker_threads';
import { transferList } from '../store/columnar-batch.js';
import { BufferPool } from '../store/columnar.js';
import type { DecodedExport } from './decoded-export.js';
import { IngestError, decodeColumnar } from './ingest.js';
import { OtlpDecodeError } from './model.js';
import type { DecodeReply, DecodeRequest, RecycleRequest } from './decode-protocol.js';

// Keeps at most MAX_POOLED_BYTES (32 MiB) of the segments handed back: one huge export's are not kept for good.
const buffers = new BufferPool();
const port = parentPort;
port?.on('message', (m: DecodeRequest | RecycleRequest) => {
  if ('recycle' in m) {
    buffers.give(m.recycle);
    return;
  }
  const fail = (kind: 'invalid' | 'store' | 'internal', err: unknown) => {
    const reply: DecodeReply = { id: m.id, ok: false, kind, message: (err as Error)?.message ?? String(err) };
    port.postMessage(reply);
  };
  let d: DecodedExport;
  try {
    d = decodeColumnar(m.signal, m.encoding, Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength), buffers);
  } catch (err) {
    fail(err instanceof OtlpDecodeError ? 'invalid' : err instanceof IngestError ? 'store' : 'internal', err instanceof IngestError ? err.cause : err);
    return;
  }
  const reply: DecodeReply = { id: m.id, ok: true, batch: d.batch, accepted: d.accepted, rejected: d.rejected, reasons: [...d.reasons] };
  port.postMessage(reply, transferList(d.batch));
});
