import type { ColonyWriter } from '../colony/store/colony.js';
import { appendBatch, emptyBatch, type IngestBatch } from '../colony/store/rows.js';
import { batchSize } from '../colony/store/writer.js';
import { decodeLogsValue, decodeMetricsValue, decodeTracesValue } from '../colony/otlp/decode-json.js';
import { type Normalized, normalizeLogs, normalizeMetrics, normalizeTraces } from '../colony/otlp/normalize.js';
import { type Nanos, nowNs } from '../core/time.js';
import type { ExportLine } from './generate.js';
import { type ScenarioMeta, exportLinesNewestFirst, readMeta, scenariosDir, streamExportLines } from './files.js';
import { shiftTimestamps } from './shift.js';

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
}

export interface LoadResult {
  meta: ScenarioMeta;
  /** Added to every timestamp in the file. */
  shiftNs: Nanos;
  /** The scenario's hour after shifting. */
  fromNs: Nanos;
  toNs: Nanos;
  accepted: { spans: number; metricPoints: number; logs: number; events: number };
  rejected: number;
}

/**
 * Rows gathered before each store write: big enough to amortise a commit, small enough to show
 * progress and to keep the rows waiting as JS objects few (20,000 kept the console's heap ~50 MB larger).
 */
const WRITE_ROWS = 5_000;
/**
 * With newestFirst: the first write, about the last minute of a demo hour (a few exports). Each row
 * costs ~50 us of CPU to decode and write, and the first trace waits for all of them; a minute
 * already holds the failing traces of every bundled scenario, and the view is refreshed with the
 * whole hour once it is in.
 */
const FIRST_WRITE_ROWS = 1_000;

export function decodeLine(line: ExportLine): Normalized {
  if (line.signal === 'traces') return normalizeTraces(decodeTracesValue(line.body));
  if (line.signal === 'metrics') return normalizeMetrics(decodeMetricsValue(line.body));
  return normalizeLogs(decodeLogsValue(line.body));
}

/**
 * Loads a demo scenario into a colony through the same OTLP/JSON decoder as live telemetry,
 * shifted in time so that its hour ends at `endAtNs`.
 */
export async function loadScenario(store: ColonyWriter, name: string, opts: LoadOptions = {}): Promise<LoadResult> {
  const dir = opts.dir ?? scenariosDir();
  const meta = readMeta(name, dir);
  return loadLines(store, meta, opts.newestFirst ? exportLinesNewestFirst(name, dir) : streamExportLines(name, dir), opts);
}

/**
 * Loads exports (a scenario file's, or freshly generated ones) described by `meta`, shifted so that
 * the hour ends at `opts.endAtNs`.
 */
export async function loadLines(store: ColonyWriter, meta: ScenarioMeta, lines: AsyncIterable<ExportLine> | Iterable<ExportLine>, opts: LoadOptions = {}): Promise<LoadResult> {
  const baseNs = BigInt(Date.parse(meta.baseTime)) * 1_000_000n;
  const durationNs = BigInt(meta.durationSec) * 1_000_000_000n;
  const toNs = opts.endAtNs ?? nowNs();
  const shiftNs = toNs - (baseNs + durationNs);
  const accepted = { spans: 0, metricPoints: 0, logs: 0, events: 0 };
  let rejected = 0;
  let pending: IngestBatch = emptyBatch();
  let rows = 0;
  const flush = async () => {
    await store.write(pending);
    pending = emptyBatch();
  };
  const total = meta.counts.exports;
  let done = 0;
  let writeRows = opts.newestFirst ? FIRST_WRITE_ROWS : WRITE_ROWS;
  for await (const line of lines) {
    done++;
    shiftTimestamps(line.body, shiftNs);
    const n = decodeLine(line);
    rejected += n.rejected;
    const b = n.batch;
    accepted.spans += b.spans.length;
    accepted.metricPoints += b.numberPoints.length + b.histogramPoints.length;
    accepted.logs += b.logs.length;
    accepted.events += b.events.length;
    appendBatch(pending, b);
    rows += batchSize(b);
    // Each export is parsed and decoded synchronously: let queries, tool calls and frames run
    // between two of them, not only between two writes seconds apart.
    await new Promise((r) => setImmediate(r));
    if (batchSize(pending) >= writeRows) {
      await flush();
      writeRows = WRITE_ROWS;
      opts.onProgress?.({ exportsDone: done, exportsTotal: total, rows });
    }
  }
  await flush();
  opts.onProgress?.({ exportsDone: done, exportsTotal: total, rows });
  return { meta, shiftNs, fromNs: toNs - durationNs, toNs, accepted, rejected };
}
