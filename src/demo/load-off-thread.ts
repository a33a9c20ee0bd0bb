/**
 * A demo loaded by a worker thread (load-worker.ts): the worker reads, decodes and encodes the
 * exports into columnar batches while this thread stores them, so a console keeps drawing and the
 * load uses both cores (decoding is most of a load's CPU).
 */
import { Worker } from 'node:worker_threads';
import type { ColonyWriter } from '../colony/store/colony.js';
import { workerSource } from '../core/worker-source.js';
import type { ScenarioMeta } from './files.js';
import { placement } from './load-chunks.js';
import type { LoadOptions, LoadResult } from './load.js';
import type { LoadCredit, LoadJob, LoadReply } from './load-protocol.js';

/** The worker's code, bundled, in the built CLI (scripts/build.mjs); absent when running from sources. */
declare const __CORAL_LOAD_WORKER__: string | undefined;

/** A store that takes rows already in columnar form (the DuckDB colony). */
export type ColumnarWriter = Required<Pick<ColonyWriter, 'writeColumnar'>>;

/** The worker could not start or stopped before any row was stored: nothing to undo, so the caller can load on its own thread. */
export class LoadWorkerUnavailable extends Error {}

export function loadOffThread(store: ColumnarWriter, meta: ScenarioMeta, dir: string, opts: LoadOptions = {}): Promise<LoadResult> {
  const at = placement(meta, opts.endAtNs);
  const job: LoadJob = { name: meta.name, dir, shiftNs: at.shiftNs.toString(), newestFirst: opts.newestFirst ?? false };
  const worker = new Worker(workerSource(typeof __CORAL_LOAD_WORKER__ === 'string' ? __CORAL_LOAD_WORKER__ : undefined, new URL('./load-worker.ts', import.meta.url)), { eval: true, workerData: job });
  let stored = false;
  let settled = false;
  return new Promise<LoadResult>((resolve, reject) => {
    const result: LoadResult = { meta, ...at, accepted: { spans: 0, metricPoints: 0, logs: 0, events: 0 }, rejected: 0 };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      reject(stored ? err : new LoadWorkerUnavailable(err.message, { cause: err }));
    };
    // Chunks are stored one after the other, in the order the worker sent them.
    let queue = Promise.resolve();
    worker.on('message', (m: LoadReply) => {
      queue = queue.then(async () => {
        if (settled) return;
        if (m.kind === 'error') throw new Error(m.message);
        if (m.kind === 'done') {
          settled = true;
          resolve(result);
          return;
        }
        stored = true;
        await store.writeColumnar(m.batch);
        result.accepted = m.accepted;
        result.rejected = m.rejected;
        opts.onProgress?.({ exportsDone: m.exportsDone, exportsTotal: meta.counts.exports, rows: m.rows });
        worker.postMessage({ credit: 1 } satisfies LoadCredit);
      }).catch(fail);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the demo load worker stopped (exit code ${code})`)));
  }).finally(() => void worker.terminate());
}
