/**
 * Distinct lower-cased column names prepared once per schema for the fast scorer
 * (name-scorer.ts): everything about a name that no query changes.
 */

/** More distinct characters than this and the table is not built: the scorer falls back to the plain path. */
const MAX_SYMBOLS = 0xffff;
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

  constructor(distinctLower: string[]) {
    const points = distinctLower.map((s) => Array.from(s, (ch) => ch.codePointAt(0) as number));
    const order = distinctLower.map((_, i) => i).sort((x, y) => comparePoints(points[x], points[y]));
    this.names = order.map((i) => distinctLower[i]);
    const n = order.length;
    this.lengths = new Int32Array(n);
    this.offsets = new Int32Array(n + 1);
    this.sharedPrefix = new Int32Array(n);
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
    this.symbolOf = new Map();
    this.syms = new Uint16Array(total);
    this.grams = new Int32Array(n * GRAM_WORDS);
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
