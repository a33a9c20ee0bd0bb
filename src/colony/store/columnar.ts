import { INLINE_MAX, SLOT_INLINE, SLOT_NATIVE, SLOT_NULL, STRING_SLOT_BYTES, planStrings } from './string-slots.js';
import type { Column, ColumnKind, TableDef } from './columns.js';

/**
 * Rows of one table laid out as DuckDB's vectors want them, in transferable buffers only: a decode
 * worker builds it, and the thread that fills DuckDB's chunks only copies memory (columnar-fill.ts).
 * Structured-cloning row objects between threads cost 3.4-10 us per span (measured, issue 16);
 * transferring two ArrayBuffers costs nothing per row.
 */
export interface ColumnarSegment {
  table: string;
  rows: number;
  /** Every column's fixed-width values, validity bitmaps and long-string row lists. */
  data: ArrayBuffer;
  /** The bytes of the string columns' long (more than 12 bytes) strings, each distinct one once per column. */
  heap: ArrayBuffer;
  /**
   * The bytes of `data` and `heap` it uses: what it costs. Its buffers may be larger (BufferPool
   * rounds them up), their rest never written, so never made resident.
   */
  bytes: number;
  columns: ColumnVector[];
}

export interface ColumnVector {
  /**
   * Byte offset in `data` of the values, in DuckDB's layout: BIGINT and DOUBLE 8 bytes, INTEGER 4,
   * BOOLEAN 1, strings a 16-byte duckdb_string_t each, complete for NULL and inlined strings; a long
   * string's slot holds its length and first four bytes, and in word 2 its offset within the
   * column's bytes in `heap`, to which the filling thread adds their address once DuckDB holds them.
   */
  values: number;
  /** Byte offset in `data` of the validity bitmap (bit set: not NULL), or -1 when no value is NULL. */
  validity: number;
  /** Strings: the column's bytes in `heap`, [heapFrom, heapTo). */
  heapFrom: number;
  heapTo: number;
  /** Strings: byte offset in `data` of the ascending Int32 list of rows whose slot points into `heap`, and its length. */
  long: number;
  longCount: number;
}

export const VALUE_BYTES: Record<ColumnKind, number> = { bigint: 8, double: 8, integer: 4, boolean: 1, varchar: STRING_SLOT_BYTES };

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/** Validity bytes for `rows` rows: whole 64-bit words, as DuckDB keeps them. */
export function validityBytes(rows: number): number {
  return Math.ceil(rows / 64) * 8;
}

const align8 = (n: number) => (n + 7) & ~7;

/**
 * Bytes per row of `table` in a segment's `data` (values, validity bits, long-string row lists),
 * not counting alignment (a few bytes per column and segment) nor strings' bytes in the heap.
 */
export function columnarRowBytes<R>(table: TableDef<R>): number {
  let bytes = 0;
  for (const c of table.columns) bytes += VALUE_BYTES[c.kind] + (c.kind === 'varchar' ? 4 : 0) + 1 / 8;
  return Math.ceil(bytes);
}

/**
 * Memory for segments: buffers handed back once their rows are stored (DecodePool.recycle) are
 * used again. Fresh ones cost more than their allocation: every transferred buffer is external
 * memory to the receiving thread's heap, and tens of megabytes a second of it made V8 run a full
 * mark-compact every ~200 ms there (measured, issue 16).
 */
export class BufferPool {
  private readonly free: ArrayBuffer[] = [];
  private held = 0;

  constructor(readonly maxBytes: number = MAX_POOLED_BYTES) {}

  /** A buffer of at least `bytes` bytes, zeroed up to `bytes` (past them a recycled one may hold old bytes, never read). */
  take(bytes: number): ArrayBuffer {
    for (let k = 0; k < this.free.length; k++) {
      const b = this.free[k];
      // Not a buffer far larger than needed: it is worth keeping for a segment that needs it.
      if (b.byteLength >= bytes && b.byteLength <= 4 * bytes) {
        this.free.splice(k, 1);
        this.held -= b.byteLength;
        // Only what the segment uses: zeroing the rest would make pages resident that nothing reads.
        new Uint8Array(b, 0, bytes).fill(0);
        return b;
      }
    }
    return new ArrayBuffer(bytes <= MIN_POOLED_BYTES ? bytes : 2 ** Math.ceil(Math.log2(bytes)));
  }

  /** Keeps what fits in `maxBytes` (and MAX_POOLED buffers); the rest is left to the collector. */
  give(buffers: readonly ArrayBuffer[]): void {
    for (const b of buffers) {
      if (b.byteLength < MIN_POOLED_BYTES || this.free.length >= MAX_POOLED || this.held + b.byteLength > this.maxBytes) continue;
      this.free.push(b);
      this.held += b.byteLength;
    }
  }

  get size(): number {
    return this.free.length;
  }

  /** The bytes of the buffers kept. */
  get bytes(): number {
    return this.held;
  }
}

/** Smaller buffers are cheap enough to allocate each time. */
const MIN_POOLED_BYTES = 16 * 1024;
const MAX_POOLED = 64;
/**
 * What a pool may keep. Bounded by count alone, it kept whatever the largest exports left (a
 * 380k-span export's spans alone are a 256 MiB buffer), held by the worker for good; 32 MiB holds
 * the segments of about four of the Collector's 8,192-span batches, the steady stream reuse is for.
 */
export const MAX_POOLED_BYTES = 32 * 1024 * 1024;

/** The scratch heap is dropped after a segment that grew it past this, rather than kept by the thread for good. */
const MAX_KEPT_SCRATCH_BYTES = 8 * 1024 * 1024;

/** Grows by doubling: the heap's size is known only once every string is encoded. */
class Heap {
  buf: Buffer = Buffer.allocUnsafe(0);
  at = 0;

  reserve(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes, 4096));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
}

/** Scratch reused across columns and segments (a thread encodes one segment at a time). */
let planned = new Int32Array(0);
let longRows = new Uint8Array(0);

/** The heap every segment is encoded into before its bytes are copied out (one segment at a time per thread). */
const heap = new Heap();

/**
 * Rows of `table` in columnar form, in buffers from `buffers`; throws a RangeError for a value its
 * column type cannot hold.
 */
export function encodeSegment<R>(table: TableDef<R>, rows: readonly R[], buffers?: BufferPool): ColumnarSegment {
  const n = rows.length;
  const layout: ColumnVector[] = [];
  let size = 0;
  for (const c of table.columns) {
    const values = size;
    size = align8(size + n * VALUE_BYTES[c.kind]);
    const validity = size;
    size += validityBytes(n);
    const long = size;
    if (c.kind === 'varchar') size = align8(size + 4 * n);
    layout.push({ values, validity, heapFrom: 0, heapTo: 0, long, longCount: 0 });
  }
  const data = buffers ? buffers.take(size) : new ArrayBuffer(size);
  heap.at = 0;
  if (planned.length < n) {
    planned = new Int32Array(n);
    longRows = new Uint8Array(n);
  }
  const bytes = new Uint8Array(data);
  for (let c = 0; c < table.columns.length; c++) {
    const v = layout[c];
    const valid = bytes.subarray(v.validity, v.validity + validityBytes(n));
    valid.fill(0xff);
    const nulls = encodeColumn(table.columns[c], rows, data, v, valid, heap);
    if (nulls === 0) v.validity = -1;
  }
  const heapBytes = buffers && heap.at > 0 ? buffers.take(heap.at) : new ArrayBuffer(heap.at);
  new Uint8Array(heapBytes).set(heap.buf.subarray(0, heap.at));
  const used = size + heap.at;
  if (heap.buf.length > MAX_KEPT_SCRATCH_BYTES) heap.buf = Buffer.allocUnsafe(0);
  return { table: table.name, rows: n, data, heap: heapBytes, bytes: used, columns: layout };
}

/** Writes one column's values; returns how many are NULL. */
function encodeColumn<R>(column: Column<R>, rows: readonly R[], data: ArrayBuffer, v: ColumnVector, valid: Uint8Array, heap: Heap): number {
  const n = rows.length;
  let nulls = 0;
  const setNull = (i: number) => {
    valid[i >> 3] &= ~(1 << (i & 7));
    nulls++;
  };
  switch (column.kind) {
    case 'varchar':
      encodeStrings(column.get, rows, data, v, heap);
      for (let i = 0; i < n; i++) if (planned[i] === SLOT_NULL) setNull(i);
      break;
    case 'bigint': {
      const out = new BigInt64Array(data, v.values, n);
      for (let i = 0; i < n; i++) {
        const x = column.get(rows[i]);
        if (x === null) setNull(i);
        // A typed array would wrap silently where the row appender refused: refuse too.
        else if (x > INT64_MAX || x < INT64_MIN) throw new RangeError(`${column.name}: ${x} is outside BIGINT`);
        else out[i] = x;
      }
      break;
    }
    case 'integer': {
      const out = new Int32Array(data, v.values, n);
      for (let i = 0; i < n; i++) {
        const x = column.get(rows[i]);
        if (x === null) setNull(i);
        else if ((x | 0) !== x) throw new RangeError(`${column.name}: ${x} is not a 32-bit integer`);
        else out[i] = x;
      }
      break;
    }
    case 'double': {
      const out = new Float64Array(data, v.values, n);
      for (let i = 0; i < n; i++) {
        const x = column.get(rows[i]);
        if (x === null) setNull(i);
        else out[i] = x;
      }
      break;
    }
    case 'boolean': {
      const out = new Uint8Array(data, v.values, n);
      for (let i = 0; i < n; i++) {
        const x = column.get(rows[i]);
        if (x === null) setNull(i);
        else out[i] = x ? 1 : 0;
      }
      break;
    }
  }
  return nulls;
}

/**
 * A string column's slots: NULL and short ASCII strings as planStrings writes them, other strings
 * UTF-8 encoded once per distinct value into the heap (or inlined when that is 12 bytes or
 * fewer), and repeats copying the slot of the row that first held the value. The long strings are
 * written joined, in one native call: one call per string cost more than the copy itself.
 */
function encodeStrings<R>(get: (row: R) => string | null, rows: readonly R[], data: ArrayBuffer, v: ColumnVector, heap: Heap): void {
  const n = rows.length;
  const slotBytes = new Uint8Array(data, v.values, n * STRING_SLOT_BYTES);
  const slots = new Uint32Array(data, v.values, n * 4);
  const longAt: number[] = [];
  const longs: string[] = [];
  planStrings((i) => get(rows[i]), n, planned, slotBytes, (i, s) => {
    // More than 12 UTF-16 code units make more than 12 UTF-8 bytes; fewer may not (non-ASCII).
    if (s.length > INLINE_MAX) {
      longAt.push(i);
      longs.push(s);
      longRows[i] = 1;
      return;
    }
    heap.reserve(3 * s.length);
    const len = heap.buf.write(s, heap.at, 'utf8');
    if (len <= INLINE_MAX) {
      slots[i * 4] = len;
      slotBytes.set(heap.buf.subarray(heap.at, heap.at + len), i * STRING_SLOT_BYTES + 4);
      longRows[i] = 0;
      return;
    }
    longAt.push(i);
    longs.push(s);
    longRows[i] = 1;
  });
  v.heapFrom = heap.at;
  writeLongStrings(longAt, longs, slots, heap);
  v.heapTo = heap.at;
  const long = new Int32Array(data, v.long, n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const from = planned[i];
    if (from === SLOT_NULL || from === SLOT_INLINE) {
      // Read by a later row repeating this one.
      longRows[i] = 0;
      continue;
    }
    if (from !== SLOT_NATIVE) {
      slots.copyWithin(i * 4, from * 4, from * 4 + 4);
      longRows[i] = longRows[from];
    }
    if (longRows[i] === 1) long[count++] = i;
  }
  v.longCount = count;
}

/**
 * Writes `strings` (each more than 12 UTF-8 bytes) one after another at the heap's end, and gives
 * row `rows[k]` a slot with the length, first four bytes and heap offset (from where they start)
 * of `strings[k]`.
 */
function writeLongStrings(rows: readonly number[], strings: readonly string[], slots: Uint32Array, heap: Heap): void {
  if (rows.length === 0) return;
  const start = heap.at;
  const joined = strings.length === 1 ? strings[0] : strings.join('');
  heap.reserve(3 * joined.length);
  const buf = heap.buf;
  const ascii = buf.write(joined, start, 'utf8') === joined.length;
  let at = start;
  for (let k = 0; k < rows.length; k++) {
    // ASCII: each string's bytes are its code units, where the joined write put them.
    const len = ascii ? strings[k].length : buf.write(strings[k], at, 'utf8');
    const slot = rows[k] * 4;
    slots[slot] = len;
    slots[slot + 1] = (buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)) >>> 0;
    slots[slot + 2] = at - start;
    at += len;
  }
  heap.at = at;
}
