import duckdb from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';
import type { Column } from './columns.js';

/**
 * Rows into a DuckDB DataChunk (up to 2048 rows), column by column. Per value, the row appender
 * crossed into native code (appendVarchar, appendNull, ...) and built a DuckDB Value; here numbers
 * and NULLs go into typed arrays copied in with one call per column, short ASCII strings are
 * written in place, and a string repeated within the chunk (service, scope, resource, trace id)
 * crosses once.
 */

/** sizeof(duckdb_string_t) in DuckDB's C API: a length, then 12 inlined bytes or a 4-byte prefix and a pointer. */
export const STRING_SLOT_BYTES = 16;
const INLINE_MAX = 12;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/**
 * Writes `s` as an inlined duckdb_string_t at byte `at` of `slots` when it is ASCII of at most 12
 * bytes (its UTF-8 form is then its char codes); returns false, writing nothing, otherwise.
 */
export function writeInlineString(slots: Uint8Array, at: number, s: string): boolean {
  const n = s.length;
  if (n > INLINE_MAX) return false;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) > 0x7f) return false;
  // Little-endian uint32 length; the unused inline bytes must be zero (DuckDB compares them).
  slots[at] = n;
  slots[at + 1] = 0;
  slots[at + 2] = 0;
  slots[at + 3] = 0;
  for (let i = 0; i < INLINE_MAX; i++) slots[at + 4 + i] = i < n ? s.charCodeAt(i) : 0;
  return true;
}

/** How each row of a string column reaches its vector slot. */
export const SLOT_NULL = -1;
export const SLOT_NATIVE = -2;
export const SLOT_INLINE = -3;

/**
 * Plans one string column of `count` values: per row SLOT_NULL, SLOT_INLINE (written into
 * `inline`), SLOT_NATIVE (copied into the vector's string heap by `assign`), or the index of an
 * earlier row holding the same string, whose slot it shares. Returns whether any slot must be
 * written from JS (an inline string or a repeat).
 */
export function planStrings(
  value: (i: number) => string | null,
  count: number,
  source: Int32Array,
  inline: Uint8Array,
  assign: (i: number, s: string) => void,
): boolean {
  const first = new Map<string, number>();
  let fromJs = false;
  for (let i = 0; i < count; i++) {
    const s = value(i);
    if (s === null) {
      source[i] = SLOT_NULL;
      continue;
    }
    if (writeInlineString(inline, i * STRING_SLOT_BYTES, s)) {
      source[i] = SLOT_INLINE;
      fromJs = true;
      continue;
    }
    const seen = first.get(s);
    if (seen !== undefined) {
      source[i] = seen;
      fromJs = true;
      continue;
    }
    first.set(s, i);
    assign(i, s);
    source[i] = SLOT_NATIVE;
  }
  return fromJs;
}

/** Reused scratch space for one chunk (appends run one at a time on the JS thread). */
class Scratch {
  readonly validity: Uint8Array<ArrayBuffer>;
  readonly source: Int32Array<ArrayBuffer>;
  readonly inline: Uint8Array<ArrayBuffer>;
  readonly inlineWords: Uint32Array<ArrayBuffer>;
  readonly bigints: BigInt64Array<ArrayBuffer>;
  readonly ints: Int32Array<ArrayBuffer>;
  readonly doubles: Float64Array<ArrayBuffer>;
  readonly bools: Uint8Array<ArrayBuffer>;

  constructor(readonly capacity: number) {
    this.validity = new Uint8Array(Math.ceil(capacity / 64) * 8);
    this.source = new Int32Array(capacity);
    this.inline = new Uint8Array(capacity * STRING_SLOT_BYTES);
    this.inlineWords = new Uint32Array(this.inline.buffer);
    this.bigints = new BigInt64Array(capacity);
    this.ints = new Int32Array(capacity);
    this.doubles = new Float64Array(capacity);
    this.bools = new Uint8Array(capacity);
  }
}

let scratch: Scratch | null = null;

function scratchFor(capacity: number): Scratch {
  if (scratch === null || scratch.capacity < capacity) scratch = new Scratch(capacity);
  return scratch;
}

/** Writes rows [from, from + count) into `chunk`, whose vectors have the columns' types in order. */
export function fillChunk<R>(chunk: DuckDBDataChunk, columns: readonly Column<R>[], rows: readonly R[], from: number, count: number): void {
  const s = scratchFor(count);
  chunk.rowCount = count;
  for (let c = 0; c < columns.length; c++) fillVector(duckdb.data_chunk_get_vector(chunk.chunk, c), columns[c], rows, from, count, s);
}

function fillVector<R>(vector: duckdb.Vector, column: Column<R>, rows: readonly R[], from: number, count: number, s: Scratch): void {
  const validityBytes = Math.ceil(count / 64) * 8;
  s.validity.fill(0xff, 0, validityBytes);
  const setNull = (i: number) => {
    s.validity[i >> 3] &= ~(1 << (i & 7));
  };
  switch (column.kind) {
    case 'varchar':
      fillStrings(vector, column.get, rows, from, count, s);
      for (let i = 0; i < count; i++) if (s.source[i] === SLOT_NULL) setNull(i);
      break;
    case 'bigint': {
      for (let i = 0; i < count; i++) {
        const v = column.get(rows[from + i]);
        if (v === null) setNull(i);
        // A typed array would wrap silently where the row appender refused: refuse too.
        else if (v > INT64_MAX || v < INT64_MIN) throw new RangeError(`${column.name}: ${v} is outside BIGINT`);
        else s.bigints[i] = v;
      }
      duckdb.copy_data_to_vector(vector, 0, s.bigints.buffer, 0, count * 8);
      break;
    }
    case 'integer': {
      for (let i = 0; i < count; i++) {
        const v = column.get(rows[from + i]);
        if (v === null) setNull(i);
        else if ((v | 0) !== v) throw new RangeError(`${column.name}: ${v} is not a 32-bit integer`);
        else s.ints[i] = v;
      }
      duckdb.copy_data_to_vector(vector, 0, s.ints.buffer, 0, count * 4);
      break;
    }
    case 'double': {
      for (let i = 0; i < count; i++) {
        const v = column.get(rows[from + i]);
        if (v === null) setNull(i);
        else s.doubles[i] = v;
      }
      duckdb.copy_data_to_vector(vector, 0, s.doubles.buffer, 0, count * 8);
      break;
    }
    case 'boolean': {
      for (let i = 0; i < count; i++) {
        const v = column.get(rows[from + i]);
        if (v === null) setNull(i);
        else s.bools[i] = v ? 1 : 0;
      }
      duckdb.copy_data_to_vector(vector, 0, s.bools.buffer, 0, count);
      break;
    }
  }
  // Written every time rather than only with NULLs: a reused chunk must not keep an earlier mask.
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, s.validity.buffer, 0, validityBytes);
}

function fillStrings<R>(vector: duckdb.Vector, get: (row: R) => string | null, rows: readonly R[], from: number, count: number, s: Scratch): void {
  const batchedRows: number[] = [];
  const batched: string[] = [];
  const fromJs = planStrings((i) => get(rows[from + i]), count, s.source, s.inline, (i, str) => {
    // ASCII (UTF-8 as long as UTF-16) goes to the string heap with the others, in one crossing.
    if (Buffer.byteLength(str, 'utf8') === str.length) {
      batchedRows.push(i);
      batched.push(str);
    } else duckdb.vector_assign_string_element(vector, i, str);
  });
  if (!fromJs && batched.length === 0) return;
  // One crossing into native code per string cost more than the copy itself: the ASCII strings
  // are assigned as one, and each slot then points at its own bytes within it.
  if (batched.length > 0) duckdb.vector_assign_string_element(vector, batchedRows[0], batched.length === 1 ? batched[0] : batched.join(''));
  // The slots of strings assigned natively are read back, so that repeats can point at their
  // bytes in the vector's string heap, which lives as long as the chunk.
  const data = duckdb.vector_get_data(vector, count * STRING_SLOT_BYTES);
  const slots = data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer as ArrayBuffer, data.byteOffset, count * 4) : new Uint32Array(data.slice().buffer as ArrayBuffer);
  if (batched.length > 1) pointIntoJoined(slots, batchedRows, batched);
  const own = s.inlineWords;
  for (let i = 0; i < count; i++) {
    const src = s.source[i];
    if (src === SLOT_NULL || src === SLOT_NATIVE) continue;
    const from4 = src === SLOT_INLINE ? i * 4 : src * 4;
    const words = src === SLOT_INLINE ? own : slots;
    const to = i * 4;
    slots[to] = words[from4];
    slots[to + 1] = words[from4 + 1];
    slots[to + 2] = words[from4 + 2];
    slots[to + 3] = words[from4 + 3];
  }
  duckdb.copy_data_to_vector(vector, 0, slots.buffer, slots.byteOffset, count * STRING_SLOT_BYTES);
}

const TWO_TO_32 = 2 ** 32;

/**
 * `parts` (ASCII, each longer than 12 bytes) were assigned joined at row `rows[0]`: gives each row
 * of `rows` a non-inlined duckdb_string_t for its part (length, its first 4 bytes, and a pointer
 * into the joined bytes: the little-endian 64-bit address of rows[0]'s slot plus the offset).
 */
export function pointIntoJoined(slots: Uint32Array, rows: readonly number[], parts: readonly string[]): void {
  const base = rows[0] * 4;
  const lo = slots[base + 2];
  const hi = slots[base + 3];
  let offset = 0;
  for (let k = 0; k < rows.length; k++) {
    const str = parts[k];
    const at = rows[k] * 4;
    const address = lo + offset;
    slots[at] = str.length;
    slots[at + 1] = (str.charCodeAt(0) | (str.charCodeAt(1) << 8) | (str.charCodeAt(2) << 16) | (str.charCodeAt(3) << 24)) >>> 0;
    slots[at + 2] = address >>> 0;
    slots[at + 3] = address >= TWO_TO_32 ? hi + 1 : hi;
    offset += str.length;
  }
}
