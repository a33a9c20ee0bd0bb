/**
 * One query against one range of a NameTable's names: everything about each name that needs no
 * other name. Ranges are independent, so two threads can share them out (name-pool.ts), each with
 * its own QueryPlan and its own outputs.
 *
 * Per name: does it hold the query (exact, prefix, substring)? If not, an upper bound on its
 * difflib matching characters: real_quick_ratio (lengths alone), then the longest common
 * subsequence (Ratcliff/Obershelp's matching blocks form a common subsequence, so their total never
 * exceeds it), computed bit-parallel and resumed after the prefix a name shares with the one before.
 * Where the bound leaves the name open, whether its blocks reach the 0.3 threshold, matching only
 * until that answer is known.
 */
import { BlockMatcher } from './block-matcher.js';
import { GRAM_WORDS, type NameTable, RANGES, addGrams } from './name-table.js';
import { isMatch, matchScore } from './similarity.js';

/** difflib's autojunk starts at this length of the column side: such names take the plain path. */
export const AUTOJUNK_LENGTH = 200;
/** The longest query the LCS bound handles (one 32-bit word). */
const LCS_BITS = 32;

/**
 * What scoring the ranges found, written by the thread that scored each range, as short lists so
 * that reading them costs what was found rather than the table's size. Range r's lists start at
 * index ranges[r] of each array (ids ascending): counts[r] names holding the query (subIds, and subScores:
 * exact 1.0, prefix 0.9, else 0.8),
 * counts[RANGES + r] names the bounds leave open (openIds, their bound, and whether their blocks
 * reach the threshold when thresholds are asked for).
 */
export interface RangeOutputs {
  subIds: Int32Array;
  subScores: Float64Array;
  openIds: Int32Array;
  openBound: Int16Array;
  openReach: Uint8Array;
  counts: Int32Array;
}

export function rangeOutputs(size: number, shared: boolean): RangeOutputs {
  const buffer = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  return {
    subIds: new Int32Array(buffer(4 * size)),
    subScores: new Float64Array(buffer(8 * size)),
    openIds: new Int32Array(buffer(4 * size)),
    openBound: new Int16Array(buffer(2 * size)),
    openReach: new Uint8Array(buffer(size)),
    counts: new Int32Array(buffer(4 * 2 * RANGES)),
  };
}

/** What one thread derives from a query before scoring ranges: nothing here depends on a name. */
export class QueryPlan {
  readonly la: number;
  /** The query as table symbols (-1: a character no name holds). */
  readonly qSyms: Int32Array;
  /** A whole character no name holds: no name holds the query. */
  readonly noSubstring: boolean;
  /**
   * Every query character is a table symbol: the gram filter and the symbol-wise prefix test apply.
   * Otherwise the query holds a lone surrogate, which can still be half of a name's character in
   * UTF-16 (includes() finds it, as the plain port does).
   */
  readonly allKnown: boolean;
  readonly want: Int32Array;
  /** One character of a small alphabet: its gram bit says exactly whether a name holds it. */
  readonly bitIsAnswer: boolean;
  /**
   * need[L]: the fewest matching characters that keep a name of L code points, computed with the
   * same double operations as the ratio itself so the 0.3 threshold falls exactly where it does.
   */
  readonly need: Int32Array;
  /** Per symbol: the query positions holding it, as bits (the LCS bound's match masks). */
  readonly masks: Int32Array;
  readonly lowBits: number;
  readonly matcher: BlockMatcher;
  /** The bit-parallel LCS state after each character of the current name. */
  readonly states: Int32Array;

  constructor(
    readonly table: NameTable,
    readonly query: string,
  ) {
    const points = Array.from(query, (ch) => ch.codePointAt(0) as number);
    const la = points.length;
    this.la = la;
    this.qSyms = Int32Array.from(points, (cp) => table.symbolOf.get(cp) ?? -1);
    this.noSubstring = points.some((cp, k) => this.qSyms[k] < 0 && !isSurrogate(cp));
    this.allKnown = this.qSyms.every((s) => s >= 0);
    this.want = new Int32Array(GRAM_WORDS);
    if (this.allKnown) addGrams(this.want, 0, this.qSyms, 0, la);
    this.bitIsAnswer = la === 1 && this.qSyms[0] >= 0 && this.qSyms[0] < 64;
    const { maxLength } = table;
    this.need = new Int32Array(maxLength + 1);
    for (let L = 0; L <= maxLength; L++) {
      let m = 0;
      while (m <= Math.min(la, L) && !isMatch((2.0 * m) / (la + L) * 0.7)) m++;
      this.need[L] = m;
    }
    this.masks = new Int32Array(table.symbolOf.size);
    this.qSyms.forEach((sym, i) => {
      if (sym >= 0 && i < LCS_BITS) this.masks[sym] |= 1 << i;
    });
    this.lowBits = la >= LCS_BITS ? -1 : (1 << la) - 1;
    this.matcher = new BlockMatcher(table, this.qSyms, Math.min(maxLength, AUTOJUNK_LENGTH - 1));
    this.states = new Int32Array(maxLength + 1);
    this.states[0] = -1;
  }
}

/** Scores range r into `out`; `thresholds`: also decide reach for the names left open. */
export function scoreRange(plan: QueryPlan, r: number, out: RangeOutputs, thresholds: boolean): void {
  const lo = plan.table.ranges[r];
  const hi = plan.table.ranges[r + 1];
  out.counts[r] = substrings(plan, lo, hi, out);
  out.counts[RANGES + r] = plan.la === 0 ? 0 : bounds(plan, lo, hi, out.counts[r], out, thresholds);
}

/** Lists the names of [lo, hi) holding the query; returns how many. */
function substrings(plan: QueryPlan, lo: number, hi: number, out: RangeOutputs): number {
  if (plan.noSubstring) return 0;
  const { names, lengths, grams, syms, offsets } = plan.table;
  const { la, qSyms, query, allKnown, bitIsAnswer } = plan;
  const { subIds, subScores } = out;
  const [w0, w1, w2, w3, w4, w5] = plan.want;
  const shortest = allKnown ? la : 0;
  let k = lo;
  for (let id = lo, g = lo * GRAM_WORDS; id < hi; id++, g += GRAM_WORDS) {
    if (lengths[id] < shortest || (grams[g] & w0) !== w0 || (grams[g + 1] & w1) !== w1 || (grams[g + 2] & w2) !== w2 || (grams[g + 3] & w3) !== w3 || (grams[g + 4] & w4) !== w4 || (grams[g + 5] & w5) !== w5) continue;
    if (!bitIsAnswer && !names[id].includes(query)) continue;
    subIds[k] = id;
    if (!allKnown) {
      subScores[k++] = names[id] === query ? 1.0 : names[id].startsWith(query) ? 0.9 : 0.8;
      continue;
    }
    let prefix = true;
    for (let c = 0, base = offsets[id]; c < la && prefix; c++) prefix = syms[base + c] === qSyms[c];
    subScores[k++] = !prefix ? 0.8 : lengths[id] === la ? 1.0 : 0.9;
  }
  return k - lo;
}

/**
 * Lists the names of [lo, hi) not holding the query (the first `held` listed by substrings() do)
 * that the bounds leave open; returns how many. Names are in code-point order, so a name resumes
 * the LCS state after the prefix it shares with the last name computed, and the first block search
 * after the prefix it shares with the last name matched.
 */
function bounds(plan: QueryPlan, lo: number, hi: number, held: number, out: RangeOutputs, thresholds: boolean): number {
  const { sharedPrefix, syms, offsets, lengths, names } = plan.table;
  const { la, need, masks, lowBits, states, matcher, query } = plan;
  const { subIds, openIds, openBound, openReach } = out;
  const useLcs = la <= LCS_BITS;
  let valid = 0;
  let sinceMatched = 0;
  let nextHeld = lo;
  const heldEnd = lo + held;
  let k = lo;
  for (let id = lo; id < hi; id++) {
    if (id > lo) {
      if (sharedPrefix[id] < valid) valid = sharedPrefix[id];
      if (sharedPrefix[id] < sinceMatched) sinceMatched = sharedPrefix[id];
    }
    if (nextHeld < heldEnd && subIds[nextHeld] === id) {
      nextHeld++;
      continue;
    }
    const L = lengths[id];
    const needed = need[L];
    let b = la < L ? la : L;
    if (b < needed) continue;
    if (useLcs && L < AUTOJUNK_LENGTH) {
      const base = offsets[id];
      // Later names resume at most from the prefix this one shares with the next: only those states are kept.
      const keep = Math.min(L, id + 1 < hi ? sharedPrefix[id + 1] : 0);
      let v = states[valid];
      let x = valid;
      for (; x < keep; x++) {
        const u = v & masks[syms[base + x]];
        v = (v + u) | (v - u);
        states[x + 1] = v;
      }
      for (; x < L; x++) {
        const u = v & masks[syms[base + x]];
        v = (v + u) | (v - u);
      }
      valid = keep;
      b = popcount(~v & lowBits);
      if (b < needed) continue;
    }
    openIds[k] = id;
    openBound[k] = b;
    if (!thresholds) openReach[k] = 0;
    else if (L >= AUTOJUNK_LENGTH) openReach[k] = matchScore(query, names[id]) === null ? 0 : 1;
    else {
      openReach[k] = matcher.matches(id, needed, sinceMatched) >= needed ? 1 : 0;
      sinceMatched = L;
    }
    k++;
  }
  return k - lo;
}

const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
