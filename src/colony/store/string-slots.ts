/**
 * How string values become DuckDB string slots (duckdb_string_t): short ASCII strings are written
 * in place, and a string repeated within a column (service, scope, resource, trace id) is stored
 * once, its repeats sharing its slot. Used by the columnar encoder (columnar.ts).
 */

/** sizeof(duckdb_string_t) in DuckDB's C API: a length, then 12 inlined bytes or a 4-byte prefix and a pointer. */
export const STRING_SLOT_BYTES = 16;
/** A duckdb_string_t holds up to this many bytes inline. */
export const INLINE_MAX = 12;

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

/** Strings looked up before a column without repeats stops looking. */
const LOOKUP_TRIAL = 64;

/**
 * Plans one string column of `count` values: per row SLOT_NULL, SLOT_INLINE (written into
 * `inline`), SLOT_NATIVE (copied into the vector's string heap by `assign`), or the index of an
 * earlier row holding the same string, whose slot it shares.
 */
export function planStrings(
  value: (i: number) => string | null,
  count: number,
  source: Int32Array,
  inline: Uint8Array,
  assign: (i: number, s: string) => void,
): void {
  const first = new Map<string, number>();
  // Most repeats follow each other (a resource's spans, a trace's spans, a kind or status): compared
  // first, they cost no hashing and no writing. A column whose first strings never repeat otherwise (ids, attribute JSON)
  // stops looking them up: hashing each cost more than writing it again (measured, issue 16).
  let previous: string | null = null;
  let previousFirst = -1;
  let lookups = 0;
  let hits = 0;
  for (let i = 0; i < count; i++) {
    const s = value(i);
    if (s === null) {
      source[i] = SLOT_NULL;
      continue;
    }
    if (s === previous) {
      source[i] = previousFirst;
      continue;
    }
    previous = s;
    if (writeInlineString(inline, i * STRING_SLOT_BYTES, s)) {
      source[i] = SLOT_INLINE;
      previousFirst = i;
      continue;
    }
    if (hits > 0 || lookups < LOOKUP_TRIAL) {
      lookups++;
      const seen = first.get(s);
      if (seen !== undefined) {
        hits++;
        source[i] = seen;
        previousFirst = seen;
          continue;
      }
      first.set(s, i);
    }
    previousFirst = i;
    assign(i, s);
    source[i] = SLOT_NATIVE;
  }
}
