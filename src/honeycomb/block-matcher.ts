/**
 * difflib's matching blocks between one query and the names of a NameTable, without allocating
 * per name: the total that SequenceMatcher(None, query, name).ratio() is made of, for names under
 * the autojunk length (no junk, no popular elements).
 *
 * Column-major: the name is walked once per block search and each of its characters looks up the
 * query positions holding it (the query side's index, built once per query), so nothing is
 * indexed per name. The leftmost-longest tie-break of difflib's row-major walk is kept by comparing
 * where runs end.
 */
import type { NameTable } from './name-table.js';

/** `need` for matches(): the full total, no early stop. */
export const EXACT = -1;

export class BlockMatcher {
  private readonly la: number;
  /** 32-bit words per query position set. */
  private readonly words: number;
  /** Per symbol, from sym * words: the query positions holding it, as bits. */
  private readonly bits: Int32Array;
  /** Run lengths of cell (i, j) at (j + 1) * rows + i + 1, valid where marks holds the current stamp. */
  private readonly runs: Int32Array;
  private readonly marks: Int32Array;
  private readonly rows: number;
  private stamp = 0;
  /**
   * The first block search (whole query, whole name) keeps its own grid from name to name: column j
   * stays valid while names share their first j + 1 characters. A cell is valid where firstMarks
   * holds its column's stamp, columnStamp[j + 1]; best*[c] is the best block ending before column c.
   */
  private readonly firstRuns: Int32Array;
  private readonly firstMarks: Int32Array;
  private readonly columnStamp: Int32Array;
  private readonly bestSize: Int32Array;
  private readonly bestEndI: Int32Array;
  private readonly bestEndJ: Int32Array;
  private columnStamps = 0;
  private foundA = 0;
  private foundB = 0;
  private readonly stack: Int32Array;

  /** `aSym`: the query as table symbols (-1 for a character no name holds); `longestName`: the longest name matched. */
  constructor(
    private readonly table: NameTable,
    aSym: Int32Array,
    longestName: number,
  ) {
    const la = aSym.length;
    this.la = la;
    this.words = Math.max(1, Math.ceil(la / 32));
    this.bits = new Int32Array(table.symbolOf.size * this.words);
    aSym.forEach((sym, i) => {
      if (sym >= 0) this.bits[sym * this.words + (i >> 5)] |= 1 << (i & 31);
    });
    this.rows = la + 1;
    const cells = (longestName + 1) * this.rows;
    this.runs = new Int32Array(cells);
    this.marks = new Int32Array(cells);
    this.firstRuns = new Int32Array(cells);
    this.firstMarks = new Int32Array(cells);
    this.columnStamp = new Int32Array(longestName + 1).fill(-1);
    this.bestSize = new Int32Array(longestName + 1);
    this.bestEndI = new Int32Array(longestName + 1);
    this.bestEndJ = new Int32Array(longestName + 1);
    this.stack = new Int32Array(4 * (longestName + la + 2));
  }

  /**
   * The total size of difflib's matching blocks between the query and name `id`.
   * With `need` >= 0, stops once the answer to "at least `need`?" is known: the total so far
   * when it reaches `need`, or something under `need` when the ranges left cannot make it up.
   * `shared`: how many leading characters the name shares with the name of the call before
   * (0 when unknown).
   */
  matches(id: number, need: number, shared: number): number {
    const base = this.table.offsets[id];
    const lb = this.table.offsets[id + 1] - base;
    const stack = this.stack;
    let top = 0;
    let total = 0;
    // Matching characters the ranges still queued could add at most.
    let open = 0;
    for (let first = true; first || top > 0; first = false) {
      if (!first && need >= 0 && (total >= need || total + open < need)) return total;
      let alo = 0;
      let ahi = this.la;
      let blo = 0;
      let bhi = lb;
      if (!first) {
        bhi = stack[--top];
        blo = stack[--top];
        ahi = stack[--top];
        alo = stack[--top];
        open -= Math.min(ahi - alo, bhi - blo);
      }
      // Always run the first search, even when the answer is already known: the next name resumes it.
      const k = first ? this.firstLongest(base, lb, shared) : this.longest(base, alo, ahi, blo, bhi);
      if (k === 0) continue;
      const i = this.foundA;
      const j = this.foundB;
      total += k;
      if (alo < i && blo < j) {
        open += Math.min(i - alo, j - blo);
        stack[top++] = alo;
        stack[top++] = i;
        stack[top++] = blo;
        stack[top++] = j;
      }
      if (i + k < ahi && j + k < bhi) {
        open += Math.min(ahi - i - k, bhi - j - k);
        stack[top++] = i + k;
        stack[top++] = ahi;
        stack[top++] = j + k;
        stack[top++] = bhi;
      }
    }
    return total;
  }

  /** longest() over the whole query and name, resuming after the `shared` columns of the name before. */
  private firstLongest(base: number, lb: number, shared: number): number {
    const { bits, words, firstRuns: runs, firstMarks: marks, columnStamp, bestSize, bestEndI, bestEndJ, rows } = this;
    const syms = this.table.syms;
    let best = shared === 0 ? 0 : bestSize[shared];
    let endI = shared === 0 ? this.la : bestEndI[shared];
    let endJ = shared === 0 ? lb : bestEndJ[shared];
    for (let j = shared; j < lb; j++) {
      const stamp = ++this.columnStamps;
      columnStamp[j + 1] = stamp;
      const previous = columnStamp[j];
      const column = (j + 1) * rows + 1;
      for (let w = 0, at = syms[base + j] * words; w < words; w++) {
        // Query positions holding this character, lowest first (difflib's row order).
        for (let set = bits[at + w]; set !== 0; set &= set - 1) {
          const i = (w << 5) + 31 - Math.clz32(set & -set);
          const before = column - rows + i - 1;
          const k = marks[before] === previous ? runs[before] + 1 : 1;
          runs[column + i] = k;
          marks[column + i] = stamp;
          if (k > best || (k === best && i < endI)) {
            best = k;
            endI = i;
            endJ = j;
          }
        }
      }
      bestSize[j + 1] = best;
      bestEndI[j + 1] = endI;
      bestEndJ[j + 1] = endJ;
    }
    this.foundA = endI - best + 1;
    this.foundB = endJ - best + 1;
    return best;
  }

  /**
   * difflib's find_longest_match without junk: the longest block, and of those the one difflib's
   * row-major walk meets first (the smallest query end, then the smallest name end). Returns its
   * size and leaves its start in foundA and foundB (no object per call). difflib's extension loops
   * are left out: without junk a run already ends where they would stop.
   */
  private longest(base: number, alo: number, ahi: number, blo: number, bhi: number): number {
    const { bits, words, runs, marks, rows } = this;
    const syms = this.table.syms;
    const stamp = ++this.stamp;
    let endI = ahi;
    let endJ = bhi;
    let best = 0;
    // Query positions [alo, ahi) as words wlo..whi, the end words masked.
    const wlo = alo >> 5;
    const whi = (ahi - 1) >> 5;
    const loMask = -1 << (alo & 31);
    const hiMask = -1 >>> (31 - ((ahi - 1) & 31));
    for (let j = blo; j < bhi; j++) {
      const column = (j + 1) * rows + 1;
      const at = syms[base + j] * words;
      for (let w = wlo; w <= whi; w++) {
        let set = bits[at + w];
        if (w === wlo) set &= loMask;
        if (w === whi) set &= hiMask;
        for (; set !== 0; set &= set - 1) {
          const i = (w << 5) + 31 - Math.clz32(set & -set);
          // The run ending at (i - 1, j - 1), if this call recorded one.
          const before = column - rows + i - 1;
          const k = marks[before] === stamp ? runs[before] + 1 : 1;
          runs[column + i] = k;
          marks[column + i] = stamp;
          if (k > best || (k === best && i < endI)) {
            best = k;
            endI = i;
            endJ = j;
          }
        }
      }
    }
    this.foundA = endI - best + 1;
    this.foundB = endJ - best + 1;
    return best;
  }
}
