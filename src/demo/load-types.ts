import type { Nanos } from '../core/time.js';
import type { LoadCounts, Placement } from './load-chunks.js';
import type { ScenarioMeta } from './scenario-meta.js';

/** How a demo scenario is loaded, and what the load stored: shared by the load and its worker. */
export interface LoadOptions {
  /** Where the scenario's hour ends after shifting; default now. */
  endAtNs?: Nanos;
  dir?: string;
  onProgress?: (p: { exportsDone: number; exportsTotal: number; rows: number }) => void;
  /**
   * Newest exports first, the first of them written after FIRST_WRITE_ROWS rows: a console can
   * query the last minutes within a second while the rest of the hour loads. The store ends
   * with the same rows either way.
   */
  newestFirst?: boolean;
  /**
   * Decode on a worker thread when the store takes columnar batches (default): the load then uses
   * both cores and leaves this thread free to draw. false decodes here.
   */
  offThread?: boolean;
  /**
   * With newestFirst: after its first write the load waits for this, so that a first look answered
   * from the newest minutes (the console's) has both cores to itself.
   */
  holdAfterFirst?: Promise<unknown>;
  /** With holdAfterFirst: hold only once this many of the newest minutes are stored (default: after the first write). */
  holdAfterMinutes?: number;
}

export interface LoadResult extends Placement {
  meta: ScenarioMeta;
  accepted: LoadCounts;
  rejected: number;
}
