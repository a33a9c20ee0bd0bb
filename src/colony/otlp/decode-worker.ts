/**
 * A decode worker (decode-pool.ts): turns export bodies into columnar batches off the thread that
 * serves HTTP and fills DuckDB's chunks, with the same decoders and normaliser as that thread would
 * use. It never writes to stdout.
 */
import { parentPort } from 'node:worker_threads';
import { type ColumnarBatch, encodeBatch, transferList } from '../store/columnar-batch.js';
import { BufferPool } from '../store/columnar.js';
import { decodeExport } from './ingest.js';
import { OtlpDecodeError } from './model.js';
import type { Normalized } from './normalize.js';
import type { DecodeReply, DecodeRequest, RecycleRequest } from './decode-protocol.js';

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
  let n: Normalized;
  try {
    n = decodeExport(m.signal, m.encoding, Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength));
  } catch (err) {
    fail(err instanceof OtlpDecodeError ? 'invalid' : 'internal', err);
    return;
  }
  let batch: ColumnarBatch;
  try {
    batch = encodeBatch(n.batch, buffers);
  } catch (err) {
    fail(err instanceof RangeError ? 'store' : 'internal', err);
    return;
  }
  const reply: DecodeReply = { id: m.id, ok: true, batch, accepted: n.accepted, rejected: n.rejected, reasons: [...n.reasons] };
  port.postMessage(reply, transferList(batch));
});
