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
import { BlockMatcher, EXACT } from './block-matcher.js';
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
  /** Names the bounds leave open: their ids (ascending), bounds, and prefix shared with the one before. */
  pendingId: Int32Array;
  pendingBound: Int32Array;
  pendingShared: Int32Array;
  /** Per pending name: 1 once its exact score is known. */
  scored: Uint8Array;
}

const buffersByTable = new WeakMap<NameTable, Buffers>();

function buffersFor(table: NameTable): Buffers {
  let b = buffersByTable.get(table);
  if (!b) {
    const n = table.size;
    b = { ids: new Int32Array(n), scores: new Float64Array(n), contains: new Uint8Array(n), pendingId: new Int32Array(n), pendingBound: new Int32Array(n), pendingShared: new Int32Array(n), scored: new Uint8Array(n) };
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

  const aSym = Int32Array.from(points, (cp) => table.symbolOf.get(cp) ?? -1);
  // Per symbol: the query positions holding it, as bits (the LCS bound's match masks).
  const masks = new Int32Array(table.symbolOf.size);
  aSym.forEach((sym, i) => {
    if (sym >= 0 && i < LCS_BITS) masks[sym] |= 1 << i;
  });
  const lowBits = la >= LCS_BITS ? -1 : (1 << la) - 1;
  const { pendingId, pendingBound, pendingShared } = buffers;
  const pending = boundPass(table, la, need, masks, lowBits, contains, buffers);
  const q = new BlockMatcher(table, aSym, Math.min(maxLength, AUTOJUNK_LENGTH - 1));

  // Exact scores in falling order of their bound, until the page is settled: once `depth` results
  // score strictly above a bound, no name under it can enter the page, and only its threshold matters.
  const keyOf = (m: number, L: number) => m * (maxLength + 1) + L;
  const byKey = new Map<number, number[]>();
  for (let p = 0; p < pending; p++) {
    const key = keyOf(pendingBound[p], lengths[pendingId[p]]);
    const list = byKey.get(key);
    if (list) list.push(p);
    else byKey.set(key, [p]);
  }
  const groups = [...byKey.keys()].map((key) => ({ key, bound: ratio(Math.floor(key / (maxLength + 1)), key % (maxLength + 1)) }));
  groups.sort((x, y) => y.bound - x.bound);
  const knownRatios = new Map<number, number>();
  const scored = buffers.scored.fill(0, 0, pending);
  for (const { key, bound } of groups) {
    if (depth <= 0 || (depth !== Infinity && scoredAbove(bound, aboveRatios, knownRatios) >= depth)) break;
    for (const p of byKey.get(key) as number[]) {
      scored[p] = 1;
      const id = pendingId[p];
      const L = lengths[id];
      const score = L >= AUTOJUNK_LENGTH ? (matchScore(queryLower, names[id]) ?? 0) : ratio(q.matches(id, EXACT, 0), L);
      if (score < MIN_SCORE) continue;
      push(out, id, score);
      knownRatios.set(score, (knownRatios.get(score) ?? 0) + w[id]);
    }
  }
  // The rest only need their threshold, decided in name order: each name resumes the first block
  // search after the prefix it shares with the name decided before it.
  let shared = 0;
  for (let p = 0; p < pending; p++) {
    shared = Math.min(shared, pendingShared[p]);
    if (scored[p] === 1) continue;
    const id = pendingId[p];
    const L = lengths[id];
    if (L >= AUTOJUNK_LENGTH) {
      if (matchScore(queryLower, names[id]) !== null) push(out, id, BELOW_PAGE);
      continue;
    }
    if (q.matches(id, need[L], shared) >= need[L]) push(out, id, BELOW_PAGE);
    shared = L;
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
  // A whole character no name holds: no name holds the query.
  if (points.some((cp, k) => qSyms[k] < 0 && !isSurrogate(cp))) return 0;
  const want = new Int32Array(GRAM_WORDS);
  // A lone surrogate no name holds as a code point can still be half of one in UTF-16, which
  // includes() finds as the plain port does: such queries go unfiltered.
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
function boundPass(table: NameTable, la: number, need: Int32Array, masks: Int32Array, lowBits: number, contains: Uint8Array, buffers: Buffers): number {
  const { sharedPrefix, syms, offsets, lengths, maxLength } = table;
  const { pendingId, pendingBound, pendingShared } = buffers;
  const n = lengths.length;
  const useLcs = la <= LCS_BITS;
  const states = new Int32Array(maxLength + 1);
  states[0] = -1;
  let valid = 0;
  let pending = 0;
  // The prefix shared with the last pending name.
  let sincePending = 0;
  for (let id = 0; id < n; id++) {
    if (sharedPrefix[id] < valid) valid = sharedPrefix[id];
    if (sharedPrefix[id] < sincePending) sincePending = sharedPrefix[id];
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
    pendingShared[pending] = sincePending;
    pendingBound[pending++] = bound;
    sincePending = L;
  }
  return pending;
}

/** How many results score strictly above `bound`. */
function scoredAbove(bound: number, aboveRatios: number, knownRatios: Map<number, number>): number {
  let n = aboveRatios;
  for (const [score, w] of knownRatios) if (score > bound) n += w;
  return n;
}

const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
