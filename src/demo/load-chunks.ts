/** A demo's exports turned into store writes: pure but for the decoding, shared by both ways of loading (load.ts). */
import { type IngestBatch, appendBatch, batchSize, emptyBatch } from '../colony/store/rows.js';
import { decodeLogsValue, decodeMetricsValue, decodeTracesValue } from '../colony/otlp/decode-json.js';
import { type Normalized, normalizeLogs, normalizeMetrics, normalizeTraces } from '../colony/otlp/normalize.js';
import { type Nanos, nowNs } from '../core/time.js';
import type { ExportLine } from './generate.js';
import type { ScenarioMeta } from './scenario-meta.js';
import { shiftTimestamps } from './shift.js';

/** Counts of what a load stored, by kind. */
export interface LoadCounts {
  spans: number;
  metricPoints: number;
  logs: number;
  events: number;
}

/** Nothing loaded yet. */
export const noCounts = (): LoadCounts => ({ spans: 0, metricPoints: 0, logs: 0, events: 0 });

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

/** Decoded rows ready for one store write, and the load's totals so far (cumulative). */
export interface DecodedChunk {
  batch: IngestBatch;
  exportsDone: number;
  rows: number;
  accepted: LoadCounts;
  rejected: number;
}

/**
 * Exports to store writes: each export shifted by `shiftNs`, decoded and normalised, gathered into
 * writes of WRITE_ROWS rows (the first one FIRST_WRITE_ROWS with `newestFirst`); the last chunk
 * holds what is left, possibly nothing. Runs on a load worker (load-off-thread.ts) or in loadLines.
 */
export async function* decodedChunks(lines: AsyncIterable<ExportLine> | Iterable<ExportLine>, shiftNs: bigint, newestFirst: boolean): AsyncGenerator<DecodedChunk> {
  const accepted = noCounts();
  let rejected = 0;
  let pending: IngestBatch = emptyBatch();
  let rows = 0;
  let done = 0;
  let writeRows = newestFirst ? FIRST_WRITE_ROWS : WRITE_ROWS;
  const chunk = (): DecodedChunk => {
    const c = { batch: pending, exportsDone: done, rows, accepted: { ...accepted }, rejected };
    pending = emptyBatch();
    return c;
  };
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
      writeRows = WRITE_ROWS;
      yield chunk();
    }
  }
  yield chunk();
}

/** Where a scenario's hour lands: the shift that makes it end at `endAtNs` (default now). */
export interface Placement {
  /** Added to every timestamp in the file. */
  shiftNs: Nanos;
  /** The scenario's hour after shifting. */
  fromNs: Nanos;
  toNs: Nanos;
}

export function placement(meta: ScenarioMeta, endAtNs?: Nanos): Placement {
  const baseNs = BigInt(Date.parse(meta.baseTime)) * 1_000_000n;
  const durationNs = BigInt(meta.durationSec) * 1_000_000_000n;
  const toNs = endAtNs ?? nowNs();
  return { shiftNs: toNs - (baseNs + durationNs), fromNs: toNs - durationNs, toNs };
}
