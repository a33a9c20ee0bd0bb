import type { ColonyWriter } from '../colony/store/colony.js';
import type { Nanos } from '../core/time.js';
import type { ExportLine } from './generate.js';
import { exportLinesNewestFirst, streamExportLines } from './export-lines.js';
import { type ScenarioMeta, readMeta, scenariosDir } from './files.js';
import { type DecodedChunk, type LoadCounts, decodedChunks, placement } from './load-chunks.js';
import { LoadWorkerUnavailable, loadOffThread } from './load-off-thread.js';

export type { LoadCounts };

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
}

export interface LoadResult {
  meta: ScenarioMeta;
  /** Added to every timestamp in the file. */
  shiftNs: Nanos;
  /** The scenario's hour after shifting. */
  fromNs: Nanos;
  toNs: Nanos;
  accepted: LoadCounts;
  rejected: number;
}

/**
 * Loads a demo scenario into a colony through the same OTLP/JSON decoder as live telemetry,
 * shifted in time so that its hour ends at `endAtNs`.
 */
export async function loadScenario(store: ColonyWriter, name: string, opts: LoadOptions = {}): Promise<LoadResult> {
  const dir = opts.dir ?? scenariosDir();
  const meta = readMeta(name, dir);
  if (opts.offThread !== false && store.writeColumnar) {
    try {
      return await loadOffThread({ writeColumnar: store.writeColumnar.bind(store) }, meta, dir, opts);
    } catch (err) {
      // Nothing was stored yet (e.g. no worker could start): the same load, on this thread.
      if (!(err instanceof LoadWorkerUnavailable)) throw err;
    }
  }
  return loadLines(store, meta, opts.newestFirst ? exportLinesNewestFirst(name, dir) : streamExportLines(name, dir), opts);
}

/**
 * Loads exports (a scenario file's, or freshly generated ones) described by `meta`, shifted so that
 * the hour ends at `opts.endAtNs`, decoding on this thread.
 */
export async function loadLines(store: ColonyWriter, meta: ScenarioMeta, lines: AsyncIterable<ExportLine> | Iterable<ExportLine>, opts: LoadOptions = {}): Promise<LoadResult> {
  const at = placement(meta, opts.endAtNs);
  let last: DecodedChunk | undefined;
  for await (const c of decodedChunks(lines, at.shiftNs, opts.newestFirst ?? false)) {
    await store.write(c.batch);
    opts.onProgress?.({ exportsDone: c.exportsDone, exportsTotal: meta.counts.exports, rows: c.rows });
    last = c;
  }
  return { meta, ...at, accepted: last?.accepted ?? { spans: 0, metricPoints: 0, logs: 0, events: 0 }, rejected: last?.rejected ?? 0 };
}
