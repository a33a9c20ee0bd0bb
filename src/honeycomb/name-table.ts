/**
 * Distinct lower-cased column names prepared once per schema for the fast scorer
 * (name-scorer.ts): everything about a name that no query changes.
 */

/** More distinct characters than this and the table is not built: the scorer falls back to the plain path. */
const MAX_SYMBOLS = 0xffff;
/** Ranges of about equal work the names are split into, for two threads to share out. */
export const RANGES = 16;
/** Work per name beyond its characters not shared with the name before. */
const NAME_WORK = 4;

/** Everything a NameTable holds, as posted to a worker: the typed arrays live in shared memory. */
export interface NameTableParts {
  names: string[];
  lengths: Int32Array;
  maxLength: number;
  sharedPrefix: Int32Array;
  syms: Uint16Array;
  offsets: Int32Array;
  symbolOf: Map<number, number>;
  grams: Int32Array;
  usable: boolean;
  ranges: Int32Array;
}

const sharedInt32 = (n: number) => new Int32Array(new SharedArrayBuffer(4 * n));
/** Words per name in `grams`: 64 bits of characters, then 128 bits of character pairs. */
export const GRAM_WORDS = 6;

export class NameTable {
  /** Lower-cased names in code-point order (a name's id is its index here). */
  readonly names: string[];
  /** Length in code points. */
  readonly lengths: Int32Array;
  readonly maxLength: number;
  /** How many leading code points each name shares with the one before. */
  readonly sharedPrefix: Int32Array;
  /** Each code point as a small symbol number, all names back to back from offsets[id]. */
  readonly syms: Uint16Array;
  readonly offsets: Int32Array;
  /** Code point to symbol; a query character absent here matches nothing. */
  readonly symbolOf: Map<number, number>;
  /**
   * Per name, GRAM_WORDS words: the symbols it holds (symbol mod 64) and its adjacent symbol pairs
   * (hashed to 128 bits). A name holding the query holds all of the query's bits: a cheap filter
   * before a substring test.
   */
  readonly grams: Int32Array;
  /** False when the names hold more distinct characters than symbols can number. */
  readonly usable: boolean;
  /** Range r is names [ranges[r], ranges[r + 1]): RANGES ranges of about equal work. */
  readonly ranges: Int32Array;

  /** A table over these distinct lower-cased names, or (given parts) the same table in another thread. */
  constructor(distinctLower: string[], parts?: NameTableParts) {
    if (parts) {
      ({ names: this.names, lengths: this.lengths, maxLength: this.maxLength, sharedPrefix: this.sharedPrefix, syms: this.syms, offsets: this.offsets, symbolOf: this.symbolOf, grams: this.grams, usable: this.usable, ranges: this.ranges } = parts);
      return;
    }
    const points = distinctLower.map((s) => Array.from(s, (ch) => ch.codePointAt(0) as number));
    const order = distinctLower.map((_, i) => i).sort((x, y) => comparePoints(points[x], points[y]));
    this.names = order.map((i) => distinctLower[i]);
    const n = order.length;
    this.lengths = sharedInt32(n);
    this.offsets = sharedInt32(n + 1);
    this.sharedPrefix = sharedInt32(n);
    let total = 0;
    let maxLength = 0;
    order.forEach((i, id) => {
      const p = points[i];
      this.lengths[id] = p.length;
      maxLength = Math.max(maxLength, p.length);
      this.offsets[id] = total;
      total += p.length;
      if (id > 0) {
        const before = points[order[id - 1]];
        let k = 0;
        while (k < p.length && k < before.length && p[k] === before[k]) k++;
        this.sharedPrefix[id] = k;
      }
    });
    this.offsets[n] = total;
    this.maxLength = maxLength;
    this.ranges = equalWork(this.lengths, this.sharedPrefix);
    this.symbolOf = new Map();
    this.syms = new Uint16Array(new SharedArrayBuffer(2 * total));
    this.grams = sharedInt32(n * GRAM_WORDS);
    this.usable = true;
    for (let id = 0; id < n; id++) {
      const p = points[order[id]];
      const base = this.offsets[id];
      for (let k = 0; k < p.length; k++) {
        let sym = this.symbolOf.get(p[k]);
        if (sym === undefined) {
          sym = this.symbolOf.size;
          if (sym >= MAX_SYMBOLS) {
            this.usable = false;
            return;
          }
          this.symbolOf.set(p[k], sym);
        }
        this.syms[base + k] = sym;
      }
      addGrams(this.grams, id * GRAM_WORDS, this.syms, base, p.length);
    }
  }

  get size(): number {
    return this.names.length;
  }

  parts(): NameTableParts {
    const { names, lengths, maxLength, sharedPrefix, syms, offsets, symbolOf, grams, usable, ranges } = this;
    return { names, lengths, maxLength, sharedPrefix, syms, offsets, symbolOf, grams, usable, ranges };
  }
}

/** RANGES boundaries splitting the names into runs of about equal unshared characters. */
function equalWork(lengths: Int32Array, sharedPrefix: Int32Array): Int32Array {
  const n = lengths.length;
  let total = 0;
  for (let id = 0; id < n; id++) total += lengths[id] - sharedPrefix[id] + NAME_WORK;
  const ranges = new Int32Array(RANGES + 1);
  let r = 1;
  let done = 0;
  for (let id = 0; id < n && r < RANGES; id++) {
    done += lengths[id] - sharedPrefix[id] + NAME_WORK;
    while (r < RANGES && done >= (total * r) / RANGES) ranges[r++] = id + 1;
  }
  while (r <= RANGES) ranges[r++] = n;
  return ranges;
}

/** Sets the gram bits of `len` symbols from `syms[base]` into `into[at .. at + GRAM_WORDS)`. */
export function addGrams(into: Int32Array, at: number, syms: ArrayLike<number>, base: number, len: number): void {
  for (let k = 0; k < len; k++) {
    const s = syms[base + k];
    into[at + ((s >> 5) & 1)] |= 1 << (s & 31);
    if (k + 1 < len) {
      const pair = (s * 31 + syms[base + k + 1]) & 127;
      into[at + 2 + (pair >> 5)] |= 1 << (pair & 31);
    }
  }
}

function comparePoints(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) if (a[k] !== b[k]) return a[k] - b[k];
  return a.length - b.length;
}
