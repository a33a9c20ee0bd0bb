/**
 * A colony of any size with the demo's realism, for the scale bench: the largest demo scenario's hour
 * (services, SDK spans and their eBPF twins, histograms, gauges, logs, events) decoded once, then
 * written again and again, each copy an hour earlier than the one before with its ids made its own
 * (the copy's number in the ids' first four hex digits, so twins and parent links still match).
 * The newest hour is the scenario's own, ending at SCALE_END: every size has the same last hour, so a
 * windowed read that slows down with the colony's size shows it.
 */
import type { ColonyWriter } from '../src/colony/store/colony.js';
import { type IngestBatch, appendBatch, batchSize, emptyBatch } from '../src/colony/store/rows.js';
import { decodedChunks, placement } from '../src/demo/load-chunks.js';
import { exportLines } from '../src/demo/export-lines.js';
import { listScenarios, readMeta, scenariosDir } from '../src/demo/files.js';
import { END } from './synthetic.js';

/** The newest hour ends here (the synthetic day's end plus an hour, as the other benches' demo). */
export const SCALE_END = END + 3_600_000_000_000n;
const HOUR_NS = 3_600_000_000_000n;
/** Rows per store write: a group commit's size at ingest. */
const WRITE_ROWS = 50_000;

/** The scenario the colony repeats: the largest one. */
export function scaleScenario(): { name: string; spans: number } {
  const s = listScenarios().sort((a, b) => b.counts.spans - a.counts.spans)[0];
  return { name: s.name, spans: s.counts.spans };
}

/** The demo hour ending at SCALE_END, in writes of about WRITE_ROWS rows. */
export async function templateHour(name: string): Promise<IngestBatch[]> {
  const at = placement(readMeta(name, scenariosDir()), SCALE_END);
  const out: IngestBatch[] = [];
  let pending = emptyBatch();
  for await (const c of decodedChunks(exportLines(name, scenariosDir(), false), at.shiftNs, false)) {
    appendBatch(pending, c.batch);
    if (batchSize(pending) >= WRITE_ROWS) {
      out.push(pending);
      pending = emptyBatch();
    }
  }
  if (batchSize(pending) > 0) out.push(pending);
  return out;
}

/** An id of copy `copy`: its first four hex digits replaced by the copy's number (other ids, e.g. empty, kept). */
function copyId(id: string, copy: number): string {
  if (copy === 0 || (id.length !== 16 && id.length !== 32)) return id;
  return (copy & 0xffff).toString(16).padStart(4, '0') + id.slice(4);
}

/** Copy `copy` of a template write: `copy` hours earlier, ids its own. Rows are shallow copies. */
function copyOf(b: IngestBatch, copy: number): IngestBatch {
  const d = BigInt(copy) * HOUR_NS;
  const tag = `~${copy}`;
  return {
    spans: b.spans.map((s) => ({ ...s, traceId: copyId(s.traceId, copy), spanId: copyId(s.spanId, copy), parentSpanId: copyId(s.parentSpanId, copy), startNs: s.startNs - d, endNs: s.endNs - d })),
    numberPoints: b.numberPoints.map((p) => ({ ...p, startNs: p.startNs - d, timeNs: p.timeNs - d })),
    histogramPoints: b.histogramPoints.map((p) => ({ ...p, startNs: p.startNs - d, timeNs: p.timeNs - d })),
    summaryPoints: b.summaryPoints.map((p) => ({ ...p, startNs: p.startNs - d, timeNs: p.timeNs - d })),
    logs: b.logs.map((l) => ({ ...l, logId: copy === 0 ? l.logId : l.logId + tag, timeNs: l.timeNs - d, observedNs: l.observedNs - d, traceId: copyId(l.traceId, copy), spanId: copyId(l.spanId, copy) })),
    events: b.events.map((e) => ({ ...e, eventId: copy === 0 ? e.eventId : e.eventId + tag, timeNs: e.timeNs - d })),
  };
}

/** Hours of the template needed for `spans` spans. */
export function hoursFor(spans: number, spansPerHour: number): number {
  return Math.max(1, Math.ceil(spans / spansPerHour));
}

/**
 * Writes `hours` copies of the template, oldest first (as a colony fills), two writes in flight so
 * that the next copy is made while the last one commits; `progress` after each hour.
 */
export async function populateScale(store: ColonyWriter, template: IngestBatch[], hours: number, progress: (hoursDone: number) => void): Promise<void> {
  let inFlight: Promise<void> = Promise.resolve();
  for (let copy = hours - 1; copy >= 0; copy--) {
    for (const b of template) {
      const next = copyOf(b, copy);
      await inFlight;
      inFlight = store.write(next);
    }
    progress(hours - copy);
  }
  await inFlight;
}
