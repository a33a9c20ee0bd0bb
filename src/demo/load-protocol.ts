import type { ColumnarBatch } from '../colony/store/columnar-batch.js';
import type { LoadCounts } from './load-chunks.js';

/** What a load worker loads (its workerData). */
export interface LoadJob {
  name: string;
  dir: string;
  /** A bigint, as text: workerData cannot carry one. */
  shiftNs: string;
  newestFirst: boolean;
  /** Chunks the worker may encode before the first is stored (more come with each credit). */
  ahead: number;
}

/** The load thread's answer to a chunk: stored, send this many more. */
export interface LoadCredit {
  credit: number;
}

/** A load worker's messages: a store write's rows with the totals so far, the end, or why it stopped. */
export type LoadReply =
  | { kind: 'chunk'; batch: ColumnarBatch; exportsDone: number; rows: number; accepted: LoadCounts; rejected: number }
  | { kind: 'done' }
  | { kind: 'error'; message: string };
