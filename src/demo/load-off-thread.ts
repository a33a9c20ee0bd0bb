/**
 * A demo loaded by a worker thread (load-worker.ts): the worker reads, decodes and encodes the
 * exports into columnar batches while this thread stores them, so a console keeps drawing and the
 * load uses both cores (decoding is most of a load's CPU). It starts before the store exists: the
 * newest exports are decoded while DuckDB opens.
 */
import { Worker } from 'node:worker_threads';
import type { ColonyWriter } from '../colony/store/colony.js';
import { workerSource } from '../core/worker-source.js';
import type { ScenarioMeta } from './scenario-meta.js';
import { type Placement, noCounts } from './load-chunks.js';
import type { LoadOptions, LoadResult } from './load-types.js';
import type { LoadCredit, LoadJob, LoadReply } from './load-protocol.js';
import { firstLookHold } from './first-look.js';

/** The worker's code, bundled, in the built CLI (scripts/build.mjs); absent when running from sources. */
declare const __CORAL_LOAD_WORKER__: string | undefined;

/** Chunks encoded ahead of the store: enough to keep it busy, few enough to hold little memory. */
const CHUNKS_AHEAD = 2;

/** A store that takes rows already in columnar form (the DuckDB colony). */
export type ColumnarWriter = Required<Pick<ColonyWriter, 'writeColumnar'>>;

/** The worker could not start or stopped before any row was stored: nothing to undo, so the caller can load on its own thread. */
export class LoadWorkerUnavailable extends Error {}

export class LoadWorker {
  private readonly worker: Worker;
  private readonly result: Promise<LoadResult>;
  private giveStore: (store: ColumnarWriter) => void = () => undefined;
  private readonly store = new Promise<ColumnarWriter>((r) => (this.giveStore = r));
  private settled = false;

  constructor(meta: ScenarioMeta, dir: string, at: Placement, opts: LoadOptions) {
    // Held once, where the first look's minutes are in. Held after the first chunk, nothing more is
    // decoded meanwhile either; held later, the chunks before it are decoded ahead as usual.
    const hold = firstLookHold(meta, opts);
    const ahead = hold.atFirstWrite ? 1 : CHUNKS_AHEAD;
    const job: LoadJob = { name: meta.name, dir, shiftNs: at.shiftNs.toString(), newestFirst: opts.newestFirst ?? false, ahead };
    this.worker = new Worker(workerSource(typeof __CORAL_LOAD_WORKER__ === 'string' ? __CORAL_LOAD_WORKER__ : undefined, new URL('./load-worker.ts', import.meta.url)), { eval: true, workerData: job });
    const worker = this.worker;
    let stored = false;
    this.result = new Promise<LoadResult>((resolve, reject) => {
      const result: LoadResult = { meta, ...at, accepted: noCounts(), rejected: 0 };
      const fail = (err: Error) => {
        if (this.settled) return;
        this.settled = true;
        reject(stored ? err : new LoadWorkerUnavailable(err.message, { cause: err }));
      };
      // Chunks are stored one after the other, in the order the worker sent them, once there is a store.
      let queue = Promise.resolve();
      worker.on('message', (m: LoadReply) => {
        queue = queue.then(async () => {
          if (this.settled) return;
          if (m.kind === 'error') throw new Error(m.message);
          if (m.kind === 'done') {
            this.settled = true;
            resolve(result);
            return;
          }
          const store = await this.store;
          if (this.settled) return;
          stored = true;
          await store.writeColumnar(m.batch);
          result.accepted = m.accepted;
          result.rejected = m.rejected;
          opts.onProgress?.({ exportsDone: m.exportsDone, exportsTotal: meta.counts.exports, rows: m.rows });
          const wait = hold.due(m.exportsDone);
          if (wait) await wait;
          worker.postMessage({ credit: wait && ahead === 1 ? CHUNKS_AHEAD : 1 } satisfies LoadCredit);
        }).catch(fail);
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the demo load worker stopped (exit code ${code})`)));
    }).finally(() => void worker.terminate());
    // Nobody may ever ask (the store did not open): the outcome is then of no interest.
    this.result.catch(() => undefined);
  }

  /** Stores the load into `store`; rejects with LoadWorkerUnavailable when nothing was stored. */
  into(store: ColumnarWriter): Promise<LoadResult> {
    this.giveStore(store);
    return this.result;
  }

  /** Stops the worker: the load goes elsewhere, or nowhere. */
  cancel(): void {
    this.settled = true;
    void this.worker.terminate();
  }
}
