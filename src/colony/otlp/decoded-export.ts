import type { ColumnarBatch } from '../store/columnar-batch.js';
import type { Encoding } from './responses.js';
import type { Signal } from './model.js';

/** An export decoded: its rows in columnar form, and what partial success reports. */
export interface DecodedExport {
  batch: ColumnarBatch;
  accepted: number;
  rejected: number;
  reasons: Map<string, number>;
}

/** What ingest needs of the decode workers (DecodePool), kept apart so ingest does not import the pool that imports it. */
export interface ExportDecoder {
  decode(signal: Signal, encoding: Encoding, body: Buffer): Promise<DecodedExport>;
  /** Gives a stored batch's buffers back to the worker that made them. */
  recycle(batch: ColumnarBatch): void;
}
