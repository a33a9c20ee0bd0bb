/**
 * Distinct lower-cased column names prepared once per schema for the fast scorer
 * (name-scorer.ts): everything about a name that no query changes.
 */

/** More distinct characters than this and the table is not built: the scorer falls back to the plain path. */
const MAX_SYMBOLS = 0xffff;

export class NameTable {
  /** Lower-cased names ordered by length in code points (a name's id is its index here). */
  readonly names: string[];
  readonly lengths: Int32Array;
  /** Ids [lengthStart[L], lengthStart[L + 1]) are the names of L code points. */
  readonly lengthStart: Int32Array;
  readonly maxLength: number;
  /** Each code point as a small symbol number, all names back to back from offsets[id]. */
  readonly syms: Uint16Array;
  readonly offsets: Int32Array;
  /** Code point to symbol; a query character absent here matches nothing. */
  readonly symbolOf: Map<number, number>;
  /** Ids in code-point order, and how many leading code points each shares with the one before. */
  readonly lexOrder: Int32Array;
  readonly sharedPrefix: Int32Array;
  /** The names joined by newlines (null if a name holds one), for one native substring scan. */
  readonly joined: string | null;
  /** Where each name starts in `joined`, in UTF-16 units; one more entry ends the last. */
  readonly joinedStart: Int32Array;
  /** False when the names hold more distinct characters than symbols can number. */
  readonly usable: boolean;

  constructor(distinctLower: string[]) {
    const points = distinctLower.map((s) => Array.from(s, (ch) => ch.codePointAt(0) as number));
    const order = distinctLower.map((_, i) => i).sort((x, y) => points[x].length - points[y].length || x - y);
    this.names = order.map((i) => distinctLower[i]);
    const n = order.length;
    this.lengths = new Int32Array(n);
    this.offsets = new Int32Array(n + 1);
    let total = 0;
    order.forEach((i, id) => {
      this.lengths[id] = points[i].length;
      this.offsets[id] = total;
      total += points[i].length;
    });
    this.offsets[n] = total;
    this.maxLength = n > 0 ? this.lengths[n - 1] : 0;
    this.lengthStart = new Int32Array(this.maxLength + 2);
    for (let L = 0, id = 0; L <= this.maxLength + 1; L++) {
      while (id < n && this.lengths[id] < L) id++;
      this.lengthStart[L] = id;
    }
    this.joinedStart = new Int32Array(n + 1);
    let at = 0;
    this.names.forEach((name, id) => {
      this.joinedStart[id] = at;
      at += name.length + 1;
    });
    this.joinedStart[n] = at;
    this.joined = this.names.some((name) => name.includes('\n')) ? null : this.names.join('\n');
    const lex = this.names.map((_, id) => id).sort((x, y) => comparePoints(points[order[x]], points[order[y]]));
    this.lexOrder = Int32Array.from(lex);
    this.sharedPrefix = new Int32Array(n);
    for (let k = 1; k < n; k++) {
      const a = points[order[lex[k - 1]]];
      const b = points[order[lex[k]]];
      let p = 0;
      while (p < a.length && p < b.length && a[p] === b[p]) p++;
      this.sharedPrefix[k] = p;
    }
    this.symbolOf = new Map();
    this.syms = new Uint16Array(total);
    this.usable = true;
    for (let id = 0; id < n; id++) {
      const p = points[order[id]];
      const base = this.offsets[id];
      for (let k = 0; k < p.length; k++) {
        const cp = p[k];
        let sym = this.symbolOf.get(cp);
        if (sym === undefined) {
          sym = this.symbolOf.size;
          if (sym >= MAX_SYMBOLS) {
            this.usable = false;
            return;
          }
          this.symbolOf.set(cp, sym);
        }
        this.syms[base + k] = sym;
      }
    }
  }

  get size(): number {
    return this.names.length;
  }
}

function comparePoints(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) if (a[k] !== b[k]) return a[k] - b[k];
  return a.length - b.length;
}
