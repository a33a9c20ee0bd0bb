import { type BufferPool, type ColumnarSegment, encodeSegment } from './columnar.js';
import type { IngestBatch } from './rows.js';
import { APPENDED_TABLES } from './schema.js';
import { type Sighting, serviceSightings } from './sightings.js';
import { spanKeyWords } from './span-keys.js';
import type { SpanTimes } from './span-key-window.js';

/**
 * What the store writer takes: a batch's rows as columnar segments, with what the writer needs
 * besides (span keys for the upsert decision, service sightings for the registry). Made where the
 * rows are (a decode worker, or the writing thread for rows handed to ColonyStore.write) and
 * moved between threads by transfer: no object per row crosses.
 */
export interface ColumnarBatch {
  segments: ColumnarSegment[];
  rows: number;
  /** Per segment of spans, their span ids' key words (span-keys.ts), two per span. */
  spanKeys: Uint32Array<ArrayBuffer>[];
  /** The spans' earliest and latest start (null without spans): a span older than the writer remembers takes the exact path. */
  spanTimes: SpanTimes | null;
  sightings: Sighting[];
}

export function encodeBatch(b: IngestBatch, buffers?: BufferPool): ColumnarBatch {
  const segments: ColumnarSegment[] = [];
  let rows = 0;
  for (const { table, rows: of } of APPENDED_TABLES) {
    const r = of(b);
    if (r.length === 0) continue;
    segments.push(encodeSegment(table, r, buffers));
    rows += r.length;
  }
  const spanKeys = b.spans.length > 0 ? [spanKeyWordsOf(b.spans)] : [];
  return { segments, rows, spanKeys, spanTimes: spanTimesOf(b.spans), sightings: serviceSightings(b) };
}

/** The earliest and latest start of the spans (null without any). */
function spanTimesOf(spans: readonly { startNs: bigint }[]): SpanTimes | null {
  if (spans.length === 0) return null;
  let oldestNs = spans[0].startNs;
  let newestNs = oldestNs;
  for (const { startNs } of spans) {
    if (startNs < oldestNs) oldestNs = startNs;
    else if (startNs > newestNs) newestNs = startNs;
  }
  return { oldestNs, newestNs };
}

/** Both batches' span times together. */
function spanTimesOfBoth(a: SpanTimes | null, b: SpanTimes | null): SpanTimes | null {
  if (a === null || b === null) return a ?? b;
  return { oldestNs: a.oldestNs < b.oldestNs ? a.oldestNs : b.oldestNs, newestNs: a.newestNs > b.newestNs ? a.newestNs : b.newestNs };
}

export function spanKeyWordsOf(spans: readonly { spanId: string }[]): Uint32Array<ArrayBuffer> {
  const words = new Uint32Array(2 * spans.length);
  const one = new Uint32Array(2);
  for (let i = 0; i < spans.length; i++) {
    spanKeyWords(spans[i].spanId, one);
    words[2 * i] = one[0];
    words[2 * i + 1] = one[1];
  }
  return words;
}

/** Several batches as one (a group commit): their segments side by side, nothing copied. */
export function mergeColumnar(batches: readonly ColumnarBatch[]): ColumnarBatch {
  if (batches.length === 1) return batches[0];
  return {
    segments: batches.flatMap((b) => b.segments),
    rows: batches.reduce((n, b) => n + b.rows, 0),
    spanKeys: batches.flatMap((b) => b.spanKeys),
    spanTimes: batches.reduce<SpanTimes | null>((t, b) => spanTimesOfBoth(t, b.spanTimes), null),
    sightings: batches.flatMap((b) => b.sightings),
  };
}

/** The buffers to transfer (not copy) when posting the batch to another thread. */
export function transferList(b: ColumnarBatch): ArrayBuffer[] {
  return [...segmentBuffers(b), ...b.spanKeys.map((k) => k.buffer)];
}

/** The memory a batch's rows take (segments and span keys): what the in-flight budget holds for it until it is stored. */
export function batchBytes(b: ColumnarBatch): number {
  let bytes = 0;
  for (const s of b.segments) bytes += s.bytes;
  for (const k of b.spanKeys) bytes += k.byteLength;
  return bytes;
}

/** The segments' memory, to use again once they are stored. */
export function segmentBuffers(b: ColumnarBatch): ArrayBuffer[] {
  return b.segments.flatMap((s) => (s.heap.byteLength > 0 ? [s.data, s.heap] : [s.data]));
}
