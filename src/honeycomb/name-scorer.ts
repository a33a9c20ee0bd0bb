/**
 * Scores every distinct name of a NameTable against one query, with exactly the numbers matchScore
 * gives (similarity.ts), but fast. A name is scored once however many datasets hold it; substring
 * hits come from one native scan; the difflib ratio runs only where no upper bound already puts the
 * name under MIN_SCORE; and it runs to the end only for names that can reach the page asked for.
 *
 * The bounds: real_quick_ratio (lengths alone), then the longest common subsequence (Ratcliff/
 * Obershelp's matching blocks form a common subsequence, so their total never exceeds it), computed
 * bit-parallel and shared between names with a common prefix. For a name under the page, matching
 * stops as soon as its blocks reach the threshold (or can no longer reach it).
 */
import type { NameTable } from './name-table.js';
import { MIN_SCORE, matchScore } from './similarity.js';

export interface NameScores {
  /** Ids of the matching names (score >= MIN_SCORE), in no particular order. */
  ids: Int32Array;
  /** The exact score, or BELOW_PAGE. */
  scores: Float64Array;
  count: number;
}

/** A matching name whose score was not needed: at least `depth` results score strictly higher. */
export const BELOW_PAGE = -1;

/** difflib's autojunk starts at this length of the column side: such names take the plain path. */
const AUTOJUNK_LENGTH = 200;
/** The longest query the LCS bound handles (one 32-bit word). */
const LCS_BITS = 32;
/** `need` for QueryScratch.matches: the full total, no early stop. */
const EXACT = -1;
/** Substring hits past this many: a per-name scan beats mapping each hit of the joined scan. */
const JOINED_HITS = 512;

/**
 * Matching names with their scores. `depth` (offset + limit) and `weights` (results per name) say
 * which scores the page needs; without them every score is exact.
 */
export function scoreNames(table: NameTable, queryLower: string, depth = Infinity, weights?: Int32Array): NameScores {
  const n = table.size;
  const out: NameScores = { ids: new Int32Array(n), scores: new Float64Array(n), count: 0 };
  const w = weights ?? new Int32Array(n).fill(1);
  // Block positions are packed into 16 bits each (see longest): absurdly long queries take the plain path.
  if (!table.usable || queryLower.length >= 0xffff) {
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
  const contains = new Uint8Array(n);
  const aboveRatios = substringPass(table, queryLower, la, contains, out, w);
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
  const pendingId = new Int32Array(n);
  const pendingBound = new Int32Array(n);
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
function substringPass(table: NameTable, query: string, la: number, contains: Uint8Array, out: NameScores, weights: Int32Array): number {
  const { names, lengthStart, maxLength, joined, joinedStart } = table;
  const n = names.length;
  let results = 0;
  const hit = (id: number) => {
    const name = names[id];
    contains[id] = 1;
    results += weights[id];
    push(out, id, name === query ? 1.0 : name.startsWith(query) ? 0.9 : 0.8);
  };
  // A name holding the query is at least as long as it.
  let from = lengthStart[Math.min(la, maxLength + 1)];
  if (joined !== null && !query.includes('\n') && la > 0) {
    // One native scan over all names finds rare queries fastest; common ones fall back to a scan per name.
    let hits = 0;
    let at = joined.indexOf(query, joinedStart[from]);
    for (;;) {
      if (at < 0) from = n;
      if (at < 0 || hits === JOINED_HITS) break;
      const id = nameAt(joinedStart, at);
      hit(id);
      hits++;
      from = id + 1;
      at = joined.indexOf(query, joinedStart[from]);
    }
  }
  for (let id = from; id < n; id++) if (names[id].includes(query)) hit(id);
  return results;
}

/**
 * Names that may still match, each with an upper bound on its matching characters: real_quick_ratio
 * (min of the lengths), then the LCS. Names are walked in code-point order, so a name resumes the
 * bit-parallel LCS state after the prefix it shares with the last name computed.
 */
function boundPass(table: NameTable, la: number, need: Int32Array, masks: Int32Array, lowBits: number, contains: Uint8Array, pendingId: Int32Array, pendingBound: Int32Array): number {
  const { lexOrder, sharedPrefix, syms, offsets, lengths, maxLength } = table;
  const n = lexOrder.length;
  const useLcs = la <= LCS_BITS;
  const states = new Int32Array(maxLength + 1);
  states[0] = -1;
  let valid = 0;
  let pending = 0;
  for (let k = 0; k < n; k++) {
    const id = lexOrder[k];
    if (sharedPrefix[k] < valid) valid = sharedPrefix[k];
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

/** The id of the name holding position `at` of the joined names. */
function nameAt(starts: Int32Array, at: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
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
  private prev: Int32Array;
  private next: Int32Array;
  private prevTouched: Int32Array;
  private nextTouched: Int32Array;
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
    this.prev = new Int32Array(size);
    this.next = new Int32Array(size);
    this.prevTouched = new Int32Array(size);
    this.nextTouched = new Int32Array(size);
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
      const found = this.longest(base, alo, ahi, blo, bhi);
      const k = found & 0xffff;
      if (k === 0) continue;
      const i = Math.floor(found / 0x10000) % 0x10000;
      const j = Math.floor(found / 0x100000000);
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
   * difflib's find_longest_match without junk: the leftmost-longest block, returned packed as
   * j * 2^32 + i * 2^16 + size (all below 2^16 here) to avoid an object per call.
   */
  private longest(base: number, alo: number, ahi: number, blo: number, bhi: number): number {
    const { aSlot, slotStart, pos, aSym } = this;
    const syms = this.table.syms;
    let prev = this.prev;
    let next = this.next;
    let prevTouched = this.prevTouched;
    let nextTouched = this.nextTouched;
    let prevCount = 0;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    for (let i = alo; i < ahi; i++) {
      let nextCount = 0;
      const s = aSlot[i];
      if (s >= 0) {
        for (let p = slotStart[s], end = slotStart[s + 1]; p < end; p++) {
          const j = pos[p];
          if (j < blo) continue;
          if (j >= bhi) break;
          const k = prev[j] + 1;
          next[j + 1] = k;
          nextTouched[nextCount++] = j + 1;
          if (k > bestsize) {
            besti = i - k + 1;
            bestj = j - k + 1;
            bestsize = k;
          }
        }
      }
      for (let t = 0; t < prevCount; t++) prev[prevTouched[t]] = 0;
      const swap = prev;
      prev = next;
      next = swap;
      const swapTouched = prevTouched;
      prevTouched = nextTouched;
      nextTouched = swapTouched;
      prevCount = nextCount;
    }
    for (let t = 0; t < prevCount; t++) prev[prevTouched[t]] = 0;
    this.prev = prev;
    this.next = next;
    this.prevTouched = prevTouched;
    this.nextTouched = nextTouched;
    while (besti > alo && bestj > blo && aSym[besti - 1] === syms[base + bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && aSym[besti + bestsize] === syms[base + bestj + bestsize]) bestsize++;
    return bestj * 0x100000000 + besti * 0x10000 + bestsize;
  }
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
