import type { ColumnarBatch } from '../store/columnar-batch.js';
import type { Signal } from './model.js';
import type { Encoding } from './responses.js';

/** One export body for a decode worker; `body` is transferred, not copied. */
export interface DecodeRequest {
  id: number;
  signal: Signal;
  encoding: Encoding;
  body: Uint8Array<ArrayBuffer>;
}

/** Segment memory handed back to a decode worker once the rows in it are stored, to encode into again. */
export interface RecycleRequest {
  recycle: ArrayBuffer[];
}

/** What a decode worker answers: the export in columnar form and its partial-success counts, or why it failed. */
export type DecodeReply =
  | { id: number; ok: true; batch: ColumnarBatch; accepted: number; rejected: number; reasons: [string, number][] }
  /**
   * `invalid`: the body cannot be decoded (a 400); `store`: its rows cannot be encoded for the store
   * (a value its column type cannot hold); `internal`: anything else (a bug).
   */
  | { id: number; ok: false; kind: 'invalid' | 'store' | 'internal'; message: string };
