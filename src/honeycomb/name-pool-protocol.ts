/**
 * How this thread and the name worker share one query's ranges, through one control block of
 * shared memory (no message per query). This thread writes the query, opens a generation (every
 * range OPEN, tagged with it) and wakes the worker. Each range is claimed with a compare-and-swap on
 * its state word, which carries the generation tag: a worker still holding an older query can never
 * claim a range of a newer one. Each thread writes its own outputs, so this thread may score a range
 * the worker claimed but has not finished, instead of waiting for it, without either overwriting the
 * other: the range's final state says whose outputs hold it.
 */
import type { RangeOutputs } from './name-range.js';
import type { NameTableParts } from './name-table.js';

/** Control block words. */
export const GEN = 0;
/** Which registered table the generation scores. */
export const TABLE = 1;
/** 1 when thresholds are asked for. */
export const FLAGS = 2;
export const QUERY_LENGTH = 3;
/** One state word per range from here on. */
export const STATES = 8;
export const MAX_RANGES = 64;
/** The query's code points from here on. */
export const QUERY = STATES + MAX_RANGES;
export const MAX_QUERY_POINTS = 1024;
export const CONTROL_WORDS = QUERY + MAX_QUERY_POINTS;
/** Tables the worker keeps; the oldest registered goes first. */
export const KEPT_TABLES = 8;

/** Range states. */
export const OPEN = 0;
/** Claimed by this thread, which scores it before it looks at anything else. */
export const MINE = 1;
export const THEIRS = 2;
export const THEIRS_DONE = 3;
/** Claimed by the worker, then scored by this thread first. */
export const TAKEN = 4;

/** Posted once per table: its arrays are shared, not copied, and so are the worker's outputs. */
export interface Registration {
  id: number;
  parts: NameTableParts;
  outputs: RangeOutputs;
}

export const tagOf = (gen: number) => gen & 0x7fffff;
export const stateOf = (tag: number, status: number) => (tag << 3) | status;

/** Moves range r of this generation from `from` to `to`; false when it was not in `from`. */
export function moveRange(ctl: Int32Array, tag: number, r: number, from: number, to: number): boolean {
  const expected = stateOf(tag, from);
  return Atomics.compareExchange(ctl, STATES + r, expected, stateOf(tag, to)) === expected;
}

export function writeQuery(ctl: Int32Array, query: string): void {
  let k = 0;
  for (const ch of query) ctl[QUERY + k++] = ch.codePointAt(0) as number;
  ctl[QUERY_LENGTH] = k;
}

export function readQuery(ctl: Int32Array): string {
  return String.fromCodePoint(...ctl.subarray(QUERY, QUERY + ctl[QUERY_LENGTH]));
}
