import type { ColonyWriter } from '../colony/store/colony.js';
import type { ExportLine } from './generate.js';
import { exportLines } from './export-lines.js';
import { readMeta, scenariosDir } from './files.js';
import type { ScenarioMeta } from './scenario-meta.js';
import { type DecodedChunk, decodedChunks, noCounts, placement } from './load-chunks.js';
import type { LoadOptions, LoadResult } from './load-types.js';
import { LoadWorker, LoadWorkerUnavailable } from './load-off-thread.js';
import { firstLookHold } from './first-look.js';

/** A demo load begun before its store is there (startDemoLoad). */
export interface DemoLoad {
  /** Stores the scenario into `store`, as loadScenario does. */
  into(store: ColonyWriter): Promise<LoadResult>;
  /** Gives the load up (the store did not open). */
  cancel(): void;
}

/**
 * Begins loading a demo scenario: with `offThread` (the default) its worker starts decoding at once,
 * so that the newest exports are ready when the store has opened; `into` then stores them.
 */
export function startDemoLoad(name: string, opts: LoadOptions = {}): DemoLoad {
  const dir = opts.dir ?? scenariosDir();
  const meta = readMeta(name, dir);
  const at = placement(meta, opts.endAtNs);
  // One placement for both ways: a load that falls back to this thread lands where the worker's would have.
  const here = (store: ColonyWriter) => loadLines(store, meta, exportLines(name, dir, opts.newestFirst ?? false), { ...opts, endAtNs: at.toNs });
  const worker = opts.offThread === false ? undefined : new LoadWorker(meta, dir, at, opts);
  return {
    async into(store) {
      if (worker && store.writeColumnar) {
        try {
          return await worker.into({ writeColumnar: store.writeColumnar.bind(store) });
        } catch (err) {
          // Nothing was stored yet (e.g. no worker could start): the same load, on this thread.
          if (!(err instanceof LoadWorkerUnavailable)) throw err;
        }
      }
      worker?.cancel();
      return here(store);
    },
    cancel: () => worker?.cancel(),
  };
}

/**
 * Loads a demo scenario into a colony through the same OTLP/JSON decoder as live telemetry,
 * shifted in time so that its hour ends at `endAtNs`; decoded on a worker thread when the store
 * takes columnar batches (and `offThread` is not false).
 */
export function loadScenario(store: ColonyWriter, name: string, opts: LoadOptions = {}): Promise<LoadResult> {
  return startDemoLoad(name, store.writeColumnar ? opts : { ...opts, offThread: false }).into(store);
}

/**
 * Loads exports (a scenario file's, or freshly generated ones) described by `meta`, shifted so that
 * the hour ends at `opts.endAtNs`, decoding on this thread.
 */
export async function loadLines(store: ColonyWriter, meta: ScenarioMeta, lines: AsyncIterable<ExportLine> | Iterable<ExportLine>, opts: LoadOptions = {}): Promise<LoadResult> {
  const at = placement(meta, opts.endAtNs);
  let last: DecodedChunk | undefined;
  const hold = firstLookHold(meta, opts);
  for await (const c of decodedChunks(lines, at.shiftNs, opts.newestFirst ?? false)) {
    await store.write(c.batch);
    opts.onProgress?.({ exportsDone: c.exportsDone, exportsTotal: meta.counts.exports, rows: c.rows });
    const wait = hold.due(c.exportsDone);
    if (wait) await wait;
    last = c;
  }
  return { meta, ...at, accepted: last?.accepted ?? noCounts(), rejected: last?.rejected ?? 0 };
}
