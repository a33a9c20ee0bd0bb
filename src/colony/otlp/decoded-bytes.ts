import { columnarRowBytes } from '../store/columnar.js';
import { EVENTS, HISTOGRAM_POINTS, LOGS, NUMBER_POINTS, SPANS, SUMMARY_POINTS } from '../store/schema.js';
import type { Signal } from './model.js';
import type { Encoding } from './responses.js';

/** A span's two key words (columnar-batch.ts spanKeys) beside its row. */
const SPAN_KEY_BYTES = 8;

/**
 * Per item, the widest row its signal may become: a span's row and key words; a data point's row
 * in the widest of the three point tables; a log record's row and the operational event it may
 * also be (normalize.ts).
 */
const ROW_BYTES: Record<Signal, number> = {
  traces: columnarRowBytes(SPANS) + SPAN_KEY_BYTES,
  metrics: Math.max(columnarRowBytes(NUMBER_POINTS), columnarRowBytes(HISTOGRAM_POINTS), columnarRowBytes(SUMMARY_POINTS)),
  logs: columnarRowBytes(LOGS) + columnarRowBytes(EVENTS),
};

/**
 * A segment's fixed cost per column, whatever its rows: validity in whole 64-bit words and its
 * lists aligned to 8 bytes (columnar.ts). Counted once per table the signal may fill.
 */
const COLUMN_OVERHEAD_BYTES = 24;
const SEGMENT_BYTES: Record<Signal, number> = {
  traces: SPANS.columns.length * COLUMN_OVERHEAD_BYTES,
  metrics: (NUMBER_POINTS.columns.length + HISTOGRAM_POINTS.columns.length + SUMMARY_POINTS.columns.length) * COLUMN_OVERHEAD_BYTES,
  logs: (LOGS.columns.length + EVENTS.columns.length) * COLUMN_OVERHEAD_BYTES,
};

/**
 * Strings' bytes in the batch per byte of body. They come from the body, once per distinct value
 * and column: in protobuf, ids become hex (twice their bytes) and numbers decimal text; in JSON they
 * are text already, and the body spells every key and wrapper besides.
 */
const HEAP_PER_BODY_BYTE: Record<Encoding, number> = { protobuf: 2, json: 1 };

/**
 * The memory an export's columnar batch will take, told from its item count (export-items.ts)
 * and body before it is decoded, so that the in-flight budget refuses an export before the work
 * rather than after: refused once decoded, under load every export can find the others holding
 * the budget, and none go through. An upper bound for ordinary exports (a span's events and links
 * count as items but share its row); once decoded, the budget holds the batch's measured size.
 */
export function decodedBytesEstimate(signal: Signal, encoding: Encoding, items: number, bodyBytes: number): number {
  return SEGMENT_BYTES[signal] + items * ROW_BYTES[signal] + HEAP_PER_BODY_BYTE[encoding] * bodyBytes;
}
