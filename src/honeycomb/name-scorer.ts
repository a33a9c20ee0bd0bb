/**
 * Scores every distinct name of a NameTable against one query, with exactly the numbers matchScore
 * gives (similarity.ts), but fast. A name is scored once however many datasets hold it; substring
 * tests run only where a name holds all of the query's characters and character pairs; the difflib
 * ratio runs only where no upper bound already puts the name under MIN_SCORE, and runs to the end
 * only for names that can reach the page asked for.
 *
 * The bounds: real_quick_ratio (lengths alone), then the longest common subsequence (Ratcliff/
 * Obershelp's matching blocks form a common subsequence, so their total never exceeds it), computed
 * bit-parallel and shared between names with a common prefix. For a name under the page, matching
 * stops as soon as its blocks reach the threshold (or can no longer reach it).
 */
import { GRAM_WORDS, type NameTable, addGrams } from './name-table.js';
import { MIN_SCORE, matchScore } from './similarity.js';

/**
 * Scratch space per table, reused by every query: allocating a megabyte per search costs more in
 * garbage collection than the scoring itself. Scoring is synchronous, so no two queries share it.
 */
interface Buffers {
  ids: Int32Array;
  scores: Float64Array;
  contains: Uint8Array;
  pendingId: Int32Array;
  pendingBound: Int32Array;
}

const buffersByTable = new WeakMap<NameTable, Buffers>();

function buffersFor(table: NameTable): Buffers {
  let b = buffersByTable.get(table);
  if (!b) {
    const n = table.size;
    b = { ids: new Int32Array(n), scores: new Float64Array(n), contains: new Uint8Array(n), pendingId: new Int32Array(n), pendingBound: new Int32Array(n) };
    buffersByTable.set(table, b);
  }
  return b;
}

export interface NameScores {
  /**
   * Ids of the matching names (score >= MIN_SCORE), in no particular order. The arrays are the
   * table's scratch space: valid until the next scoreNames on the same table.
   */
  ids: Int32Array;
  /** The exact score, or BELOW_PAGE. */
  scores: Float64Array;
  count: number;
}

/** A matching name whose score was not needed: at least `depth` results score strictly higher. */
export const BELOW_PAGE = -1;

/** difflib's autojunk starts at this length of the column side: such names take the plain path. */
const AUTOJUNK_LENGTH = 200;
/** The longest query scored here rather than by the plain matchScore. */
const MAX_FAST_QUERY = 1024;
/** The longest query the LCS bound handles (one 32-bit word). */
const LCS_BITS = 32;
/** `need` for QueryScratch.matches: the full total, no early stop. */
const EXACT = -1;

/**
 * Matching names with their scores. `depth` (offset + limit) and `weights` (results per name) say
 * which scores the page needs; without them every score is exact.
 */
export function scoreNames(table: NameTable, queryLower: string, depth = Infinity, weights?: Int32Array): NameScores {
  const n = table.size;
  const buffers = buffersFor(table);
  const out: NameScores = { ids: buffers.ids, scores: buffers.scores, count: 0 };
  const w = weights ?? new Int32Array(n).fill(1);
  // The matcher's grid grows with the query: absurdly long queries (the tools take 512) take the plain path.
  if (!table.usable || queryLower.length > MAX_FAST_QUERY) {
    for (let id = 0; id < n; id++) {
      const s = matchScore(queryLower, table.names[id]);
      if (s !== null) push(out, id, s);
    }
    return out;
  }
  const points = Array.from(queryLower, (ch) => ch.codePointAt(0) as number);
  const la = points.length;
  const { names, lengths, maxLength } = table;

  // Exact, prefix and substring: scores above any ratio score (at most 0.7).
  const contains = buffers.contains.fill(0);
  const aboveRatios = substringPass(table, queryLower, points, contains, out, w);
  if (la === 0) return out;

  // need[L]: the fewest matching characters that keep a name of L code points, computed with the
  // same double operations as the ratio itself so the 0.3 threshold falls exactly where it does.
  const need = new Int32Array(maxLength + 1);
  for (let L = 0; L <= maxLength; L++) {
    let m = 0;
    while (m <= Math.min(la, L) && (2.0 * m) / (la + L) * 0.7 < MIN_SCORE) m++;
    need[L] = m;
  }
  const ratio = (m: number, L: number) => (2.0 * m) / (la + L) * 0.7;

  const q = new QueryScratch(table, points);
  const { pendingId, pendingBound } = buffers;
  const pending = boundPass(table, la, need, q.masks, q.lowBits, contains, pendingId, pendingBound);

  // Exact scores in falling order of their bound, until the page is settled: once `depth` results
  // score strictly above a bound, no name under it can enter the page, and only its threshold matters.
  const keyOf = (m: number, L: number) => m * (maxLength + 1) + L;
  const byKey = new Map<number, number[]>();
  for (let p = 0; p < pending; p++) {
    const key = keyOf(pendingBound[p], lengths[pendingId[p]]);
    const list = byKey.get(key);
    if (list) list.push(pendingId[p]);
    else byKey.set(key, [pendingId[p]]);
  }
  const groups = [...byKey.keys()].map((key) => ({ key, bound: ratio(Math.floor(key / (maxLength + 1)), key % (maxLength + 1)) }));
  groups.sort((x, y) => y.bound - x.bound);
  const knownRatios = new Map<number, number>();
  let settled = depth <= 0;
  for (const { key, bound } of groups) {
    if (!settled && depth !== Infinity) settled = scoredAbove(bound, aboveRatios, knownRatios) >= depth;
    for (const id of byKey.get(key) as number[]) {
      const L = lengths[id];
      let score: number;
      if (L >= AUTOJUNK_LENGTH) score = matchScore(queryLower, names[id]) ?? 0;
      else if (settled) {
        if (q.matches(id, need[L]) >= need[L]) push(out, id, BELOW_PAGE);
        continue;
      } else score = ratio(q.matches(id, EXACT), L);
      if (score < MIN_SCORE) continue;
      push(out, id, score);
      knownRatios.set(score, (knownRatios.get(score) ?? 0) + w[id]);
    }
  }
  return out;
}

function push(out: NameScores, id: number, score: number): void {
  out.ids[out.count] = id;
  out.scores[out.count++] = score;
}

/** Names holding the query, scored; returns how many results they make. */
function substringPass(table: NameTable, query: string, points: number[], contains: Uint8Array, out: NameScores, weights: Int32Array): number {
  const { names, lengths, symbolOf, grams, syms, offsets } = table;
  const la = points.length;
  const qSyms = points.map((cp) => symbolOf.get(cp) ?? -1);
  const want = new Int32Array(GRAM_WORDS);
  // A character no name holds as a code point can still be half of one in UTF-16 (a lone surrogate,
  // which includes() finds as the plain port does): such queries go unfiltered.
  const allKnown = qSyms.every((s) => s >= 0);
  if (allKnown) addGrams(want, 0, qSyms, 0, la);
  const [w0, w1, w2, w3, w4, w5] = want;
  // One character of a small alphabet: its bit says exactly whether the name holds it.
  const bitIsAnswer = la === 1 && qSyms[0] >= 0 && qSyms[0] < 64;
  const shortest = allKnown ? la : 0;
  let results = 0;
  for (let id = 0, g = 0; id < names.length; id++, g += GRAM_WORDS) {
    if (lengths[id] < shortest) continue;
    if ((grams[g] & w0) !== w0 || (grams[g + 1] & w1) !== w1 || (grams[g + 2] & w2) !== w2 || (grams[g + 3] & w3) !== w3 || (grams[g + 4] & w4) !== w4 || (grams[g + 5] & w5) !== w5) continue;
    if (!bitIsAnswer && !names[id].includes(query)) continue;
    contains[id] = 1;
    results += weights[id];
    if (!allKnown) {
      push(out, id, names[id] === query ? 1.0 : names[id].startsWith(query) ? 0.9 : 0.8);
      continue;
    }
    let prefix = true;
    for (let k = 0, base = offsets[id]; k < la && prefix; k++) prefix = syms[base + k] === qSyms[k];
    push(out, id, !prefix ? 0.8 : lengths[id] === la ? 1.0 : 0.9);
  }
  return results;
}

/**
 * Names that may still match, each with an upper bound on its matching characters: real_quick_ratio
 * (min of the lengths), then the LCS. Names are in code-point order, so a name resumes the
 * bit-parallel LCS state after the prefix it shares with the last name computed.
 */
function boundPass(table: NameTable, la: number, need: Int32Array, masks: Int32Array, lowBits: number, contains: Uint8Array, pendingId: Int32Array, pendingBound: Int32Array): number {
  const { sharedPrefix, syms, offsets, lengths, maxLength } = table;
  const n = lengths.length;
  const useLcs = la <= LCS_BITS;
  const states = new Int32Array(maxLength + 1);
  states[0] = -1;
  let valid = 0;
  let pending = 0;
  for (let id = 0; id < n; id++) {
    if (sharedPrefix[id] < valid) valid = sharedPrefix[id];
    const L = lengths[id];
    const needed = need[L];
    if (contains[id] === 1 || (la < L ? la : L) < needed) continue;
    let bound = la < L ? la : L;
    if (useLcs && L < AUTOJUNK_LENGTH) {
      const base = offsets[id];
      let v = states[valid];
      for (let x = valid; x < L; x++) {
        const u = v & masks[syms[base + x]];
        v = (v + u) | (v - u);
        states[x + 1] = v;
      }
      valid = L;
      bound = popcount(~v & lowBits);
      if (bound < needed) continue;
    }
    pendingId[pending] = id;
    pendingBound[pending++] = bound;
  }
  return pending;
}

/** How many results score strictly above `bound`. */
function scoredAbove(bound: number, aboveRatios: number, knownRatios: Map<number, number>): number {
  let n = aboveRatios;
  for (const [score, w] of knownRatios) if (score > bound) n += w;
  return n;
}

/** One query against the table: its symbols, LCS masks and the matcher's reusable buffers. */
class QueryScratch {
  private readonly la: number;
  /** The query as symbols (-1: a character no name holds). */
  private readonly aSym: Int32Array;
  /** Per query position: its slot among the query's distinct symbols, or -1. */
  private readonly aSlot: Int32Array;
  /** Per symbol: its slot, or -1 (a sparse map over the whole alphabet). */
  private readonly slotOfSym: Int32Array;
  private readonly slots: number;
  /** Per symbol: the query positions holding it, as bits (the LCS bound's match masks). */
  readonly masks: Int32Array;
  /** The bits of the query's positions. */
  readonly lowBits: number;
  // The matcher's buffers, sized for the longest name.
  private readonly slotStart: Int32Array;
  private readonly pos: Int32Array;
  /** Run lengths at (i + 1) * width + j + 1, valid where marks holds the current stamp. */
  private readonly runs: Int32Array;
  private readonly marks: Int32Array;
  private readonly width: number;
  private stamp = 0;
  private foundA = 0;
  private foundB = 0;
  private readonly stack: Int32Array;

  constructor(
    private readonly table: NameTable,
    points: number[],
  ) {
    const la = points.length;
    this.la = la;
    const symbols = table.symbolOf.size;
    this.aSym = new Int32Array(la);
    this.aSlot = new Int32Array(la);
    this.slotOfSym = new Int32Array(symbols).fill(-1);
    this.masks = new Int32Array(symbols);
    let slots = 0;
    points.forEach((cp, i) => {
      const sym = table.symbolOf.get(cp) ?? -1;
      this.aSym[i] = sym;
      this.aSlot[i] = -1;
      if (sym < 0) return;
      if (this.slotOfSym[sym] < 0) this.slotOfSym[sym] = slots++;
      this.aSlot[i] = this.slotOfSym[sym];
      if (i < LCS_BITS) this.masks[sym] |= 1 << i;
    });
    this.slots = slots;
    this.lowBits = la >= LCS_BITS ? -1 : (1 << la) - 1;
    const size = table.maxLength + 2;
    this.slotStart = new Int32Array(slots + 2);
    this.pos = new Int32Array(size);
    this.width = size;
    this.runs = new Int32Array((la + 1) * size);
    this.marks = new Int32Array((la + 1) * size);
    this.stack = new Int32Array(4 * (size + la + 2));
  }

  /**
   * The total size of difflib's matching blocks between the query and name `id` (under 200 long).
   * With `need` >= 0, stops once the answer to "at least `need`?" is known: the total so far
   * when it reaches `need`, or something under `need` when the ranges left cannot make it up.
   */
  matches(id: number, need: number): number {
    const { syms, offsets } = this.table;
    const base = offsets[id];
    const lb = offsets[id + 1] - base;
    const { slotOfSym, slotStart, pos, slots } = this;
    // b2j for the query's symbols only, as position lists in one buffer (a counting sort).
    slotStart.fill(0, 0, slots + 2);
    for (let j = 0; j < lb; j++) {
      const s = slotOfSym[syms[base + j]];
      if (s >= 0) slotStart[s + 2]++;
    }
    for (let s = 2; s < slots + 2; s++) slotStart[s] += slotStart[s - 1];
    for (let j = 0; j < lb; j++) {
      const s = slotOfSym[syms[base + j]];
      if (s >= 0) pos[slotStart[s + 1]++] = j;
    }
    // slotStart[s + 1] now ends slot s, and slotStart[s] starts it.
    const stack = this.stack;
    let top = 0;
    stack[top++] = 0;
    stack[top++] = this.la;
    stack[top++] = 0;
    stack[top++] = lb;
    let total = 0;
    // Matching characters the ranges still queued could add at most.
    let open = Math.min(this.la, lb);
    while (top > 0) {
      if (need >= 0 && (total >= need || total + open < need)) return total;
      const bhi = stack[--top];
      const blo = stack[--top];
      const ahi = stack[--top];
      const alo = stack[--top];
      open -= Math.min(ahi - alo, bhi - blo);
      const k = this.longest(base, alo, ahi, blo, bhi);
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

  /**
   * difflib's find_longest_match without junk: the leftmost-longest block; returns its size and
   * leaves its start in foundA and foundB (no object per call). The run lengths
   * (difflib's j2len) live in one grid stamped per call, so nothing needs clearing between calls.
   */
  private longest(base: number, alo: number, ahi: number, blo: number, bhi: number): number {
    const { aSlot, slotStart, pos, aSym, runs, marks, width } = this;
    const syms = this.table.syms;
    const stamp = ++this.stamp;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    for (let i = alo; i < ahi; i++) {
      const s = aSlot[i];
      if (s < 0) continue;
      const row = (i + 1) * width;
      for (let p = slotStart[s], end = slotStart[s + 1]; p < end; p++) {
        const j = pos[p];
        if (j < blo) continue;
        if (j >= bhi) break;
        // The run ending at (i - 1, j - 1), if this call recorded one.
        const before = row - width + j;
        const k = marks[before] === stamp ? runs[before] + 1 : 1;
        runs[row + j + 1] = k;
        marks[row + j + 1] = stamp;
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
    }
    while (besti > alo && bestj > blo && aSym[besti - 1] === syms[base + bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && aSym[besti + bestsize] === syms[base + bestj + bestsize]) bestsize++;
    this.foundA = besti;
    this.foundB = bestj;
    return bestsize;
  }
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
