/**
 * Shares a query's ranges between this thread and one worker thread (name-worker.ts), so a search
 * over a large table uses both cores. This thread never waits for the worker: it claims ranges from
 * the first one up while the worker, once awake, claims from the last one down; when none is left
 * open it scores itself any range the worker is still on. On a loaded machine a worker that is not
 * running costs nothing but the range it holds. The worker is started on the first large table,
 * gets each table once (its arrays are shared memory) and never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';
import { CONTROL_WORDS, FLAGS, GEN, KEPT_TABLES, MAX_RANGES, MINE, OPEN, STATES, TABLE, TAKEN, THEIRS, THEIRS_DONE, moveRange, stateOf, tagOf, writeQuery } from './name-pool-protocol.js';
import type { RangeOutputs } from './name-range.js';
import type { NameTable } from './name-table.js';
import { workerSource } from '../core/worker-source.js';

/** The worker's code, bundled, in the built CLI (scripts/build.mjs); absent when running from sources. */
declare const __CORAL_NAME_WORKER__: string | undefined;

/** Tables with fewer names are scored in one thread: waking a worker costs more than it saves. */
export const PARALLEL_MIN_NAMES = 4096;

class NamePool {
  private readonly ctl = new Int32Array(new SharedArrayBuffer(4 * CONTROL_WORDS));
  private readonly worker: Worker;
  private readonly tableIds = new WeakMap<NameTable, number>();
  /** Ids the worker still keeps, oldest first. */
  private readonly kept: number[] = [];
  private nextTable = 1;
  private gen = 0;
  stopped = false;

  constructor() {
    this.worker = new Worker(workerSource(typeof __CORAL_NAME_WORKER__ === 'string' ? __CORAL_NAME_WORKER__ : undefined, new URL('./name-worker.ts', import.meta.url)), { eval: true, workerData: { control: this.ctl.buffer } });
    this.worker.unref();
    // A worker that cannot start or fails leaves its share to this thread, which can do it all.
    this.worker.on('error', () => {
      this.stopped = true;
    });
  }

  /** Per range: 1 when the worker's outputs hold it, 0 when `run` wrote it to this thread's. */
  share(table: NameTable, theirs: RangeOutputs, query: string, thresholds: boolean, run: (range: number) => void): Uint8Array {
    const ctl = this.ctl;
    let id = this.tableIds.get(table);
    if (id === undefined || !this.kept.includes(id)) {
      id = this.nextTable++;
      this.tableIds.set(table, id);
      this.kept.push(id);
      if (this.kept.length > KEPT_TABLES) this.kept.shift();
      this.worker.postMessage({ id, parts: table.parts(), outputs: theirs });
    }
    const ranges = table.ranges.length - 1;
    const tag = tagOf(++this.gen);
    ctl[TABLE] = id;
    ctl[FLAGS] = thresholds ? 1 : 0;
    writeQuery(ctl, query);
    for (let r = 0; r < ranges; r++) Atomics.store(ctl, STATES + r, stateOf(tag, OPEN));
    Atomics.store(ctl, GEN, this.gen);
    Atomics.notify(ctl, GEN);
    for (let r = 0; r < ranges; r++) if (moveRange(ctl, tag, r, OPEN, MINE)) run(r);
    const byWorker = new Uint8Array(ranges);
    for (let r = 0; r < ranges; r++) {
      if (Atomics.load(ctl, STATES + r) === stateOf(tag, THEIRS)) {
        run(r);
        if (moveRange(ctl, tag, r, THEIRS, TAKEN)) continue;
      }
      byWorker[r] = Atomics.load(ctl, STATES + r) === stateOf(tag, THEIRS_DONE) ? 1 : 0;
      rangesByWorker += byWorker[r];
    }
    return byWorker;
  }
}

/** null once starting a worker failed. */
let pool: NamePool | null | undefined;
let rangesByWorker = 0;

/** Ranges whose outputs the worker wrote, since the process started: how much it helps. */
export function workerRanges(): number {
  return rangesByWorker;
}

/**
 * Scores every range of the table: `run(range)` writes the ranges this thread takes to its own
 * outputs while the worker, if there is one, writes others to `theirs`. Returns which ranges are in
 * `theirs`, or null when the table is scored here alone.
 */
export function shareRanges(table: NameTable, theirs: RangeOutputs, query: string, thresholds: boolean, run: (range: number) => void): Uint8Array | null {
  if (table.size < PARALLEL_MIN_NAMES || table.ranges.length - 1 > MAX_RANGES) return null;
  if (pool === undefined) {
    try {
      pool = new NamePool();
    } catch {
      pool = null;
    }
  }
  if (!pool || pool.stopped) return null;
  return pool.share(table, theirs, query, thresholds, run);
}
