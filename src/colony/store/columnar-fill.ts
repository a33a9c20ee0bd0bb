import duckdb from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';
import { STRING_SLOT_BYTES } from './string-slots.js';
import type { ColumnKind } from './columns.js';
import { type ColumnarSegment, type ColumnVector, VALUE_BYTES, validityBytes } from './columnar.js';

/**
 * Columnar segments (columnar.ts) into a DuckDB DataChunk: per column one memory copy per segment
 * part, per string column one native call handing DuckDB a segment's long strings joined, then
 * each long string's slot is pointed at its bytes within them. No value passes through JS.
 */

/** Where the next chunk starts: a segment, and a row within it. */
export interface SegmentCursor {
  segment: number;
  row: number;
}

/** Rows [from, from + count) of a segment, bound for rows [at, at + count) of the chunk. */
interface Part {
  segment: ColumnarSegment;
  from: number;
  at: number;
  count: number;
}

const TWO_TO_32 = 2 ** 32;

/** Reused scratch for one chunk (chunks are filled one at a time on the JS thread). */
class Scratch {
  readonly validity: Uint8Array<ArrayBuffer>;
  readonly slots: Uint32Array<ArrayBuffer>;

  constructor(readonly capacity: number) {
    this.validity = new Uint8Array(validityBytes(capacity));
    this.slots = new Uint32Array(capacity * 4);
  }
}

let scratch: Scratch | null = null;

/**
 * Fills `chunk` (vectors typed as `kinds`, in order) with up to `max` rows from `segments` at
 * `cursor`, which it advances; returns the number of rows written (0: none left).
 */
export function fillFromSegments(chunk: DuckDBDataChunk, kinds: readonly ColumnKind[], segments: readonly ColumnarSegment[], cursor: SegmentCursor, max: number): number {
  const parts: Part[] = [];
  let at = 0;
  while (at < max && cursor.segment < segments.length) {
    const segment = segments[cursor.segment];
    const count = Math.min(max - at, segment.rows - cursor.row);
    if (count > 0) parts.push({ segment, from: cursor.row, at, count });
    at += count;
    cursor.row += count;
    if (cursor.row >= segment.rows) {
      cursor.segment++;
      cursor.row = 0;
    }
  }
  chunk.rowCount = at;
  if (at === 0) return 0;
  if (scratch === null || scratch.capacity < at) scratch = new Scratch(Math.max(at, duckdb.vector_size()));
  for (let c = 0; c < kinds.length; c++) {
    const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
    if (kinds[c] === 'varchar') fillStrings(vector, c, parts, at, scratch);
    else {
      const width = VALUE_BYTES[kinds[c]];
      for (const p of parts) duckdb.copy_data_to_vector(vector, p.at * width, p.segment.data, p.segment.columns[c].values + p.from * width, p.count * width);
    }
    fillValidity(vector, c, parts, at, scratch.validity);
  }
  return at;
}

/** Written for every chunk, NULLs or not: a reused chunk must not keep an earlier mask. */
function fillValidity(vector: duckdb.Vector, c: number, parts: readonly Part[], rows: number, out: Uint8Array<ArrayBuffer>): void {
  const bytes = validityBytes(rows);
  out.fill(0xff, 0, bytes);
  for (const p of parts) {
    const v = p.segment.columns[c];
    if (v.validity < 0) continue;
    const src = new Uint8Array(p.segment.data, v.validity, validityBytes(p.segment.rows));
    let i = 0;
    // Whole bytes when the part starts on a byte in both (segments of a multiple of 8 rows).
    if ((p.from & 7) === 0 && (p.at & 7) === 0) {
      const bytes = p.count >> 3;
      out.set(src.subarray(p.from >> 3, (p.from >> 3) + bytes), p.at >> 3);
      i = bytes << 3;
    }
    for (; i < p.count; i++) {
      const r = p.from + i;
      if ((src[r >> 3] & (1 << (r & 7))) === 0) {
        const to = p.at + i;
        out[to >> 3] &= ~(1 << (to & 7));
      }
    }
  }
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, out.buffer, 0, bytes);
}

function fillStrings(vector: duckdb.Vector, c: number, parts: readonly Part[], rows: number, s: Scratch): void {
  const slots = s.slots;
  for (const p of parts) {
    const v = p.segment.columns[c];
    slots.set(new Uint32Array(p.segment.data, v.values + p.from * STRING_SLOT_BYTES, p.count * 4), p.at * 4);
    if (v.longCount > 0) pointLongStrings(vector, slots, p, v);
  }
  duckdb.copy_data_to_vector(vector, 0, slots.buffer, 0, rows * STRING_SLOT_BYTES);
}

/** First index of `list` (ascending) holding a value >= `x`. */
function lowerBound(list: Int32Array, x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Hands DuckDB the part's long strings in one call, assigned to the first row of the part that
 * holds one, reads back where DuckDB keeps them (the address in that row's slot: the string heap
 * lives as long as the chunk), and points every long string's slot there. Only the heap bytes the
 * part's rows point at are handed over, not the segment's whole column: a segment larger than a
 * chunk (a big export) had its whole column copied once per chunk, quadratic in its size.
 */
function pointLongStrings(vector: duckdb.Vector, slots: Uint32Array, p: Part, v: ColumnVector): void {
  const long = new Int32Array(p.segment.data, v.long, v.longCount);
  const first = lowerBound(long, p.from);
  const end = p.from + p.count;
  if (first >= long.length || long[first] >= end) return;
  const host = p.at + long[first] - p.from;
  const bytes = heapRange(slots, long, first, end, p.at - p.from);
  duckdb.vector_assign_string_element_len(vector, host, new Uint8Array(p.segment.heap, v.heapFrom + bytes.from, bytes.to - bytes.from));
  const data = duckdb.vector_get_data(vector, (host + 1) * STRING_SLOT_BYTES);
  const view = new DataView(data.buffer, data.byteOffset + host * STRING_SLOT_BYTES, STRING_SLOT_BYTES);
  const lo = view.getUint32(8, true);
  const hi = view.getUint32(12, true);
  for (let k = first; k < long.length && long[k] < end; k++) {
    const at = (p.at + long[k] - p.from) * 4;
    const address = lo + slots[at + 2] - bytes.from;
    slots[at + 2] = address >>> 0;
    slots[at + 3] = address >= TWO_TO_32 ? hi + 1 : hi;
  }
}

/**
 * The bytes of a column's heap (offsets within it) that the long strings of rows `long[first..]`
 * below `end` point at, their slots in `slots` at their row plus `shift`. A repeated string's
 * slot points at its first holder's bytes, which may lie before the part's own.
 */
export function heapRange(slots: Uint32Array, long: Int32Array, first: number, end: number, shift: number): { from: number; to: number } {
  let from = Infinity;
  let to = 0;
  for (let k = first; k < long.length && long[k] < end; k++) {
    const at = (long[k] + shift) * 4;
    const offset = slots[at + 2];
    if (offset < from) from = offset;
    if (offset + slots[at] > to) to = offset + slots[at];
  }
  return { from, to };
}
