/**
 * Scores every distinct name of a NameTable against one query, with exactly the numbers matchScore
 * gives (similarity.ts), but fast. A name is scored once however many datasets hold it. The names
 * are split into ranges scored independently (name-range.ts: substrings, bounds, thresholds), shared
 * out between this thread and a worker on large tables (name-pool.ts). Then, in this thread, exact
 * difflib ratios only for the names that can reach the page asked for.
 */
import { EXACT } from './block-matcher.js';
import { AUTOJUNK_LENGTH, QueryPlan, type RangeOutputs, rangeOutputs, scoreRange } from './name-range.js';
import { PARALLEL_MIN_NAMES, shareRanges } from './name-pool.js';
import { type NameTable, RANGES } from './name-table.js';
import { isMatch, matchScore } from './similarity.js';

/**
 * Scratch space per table, reused by every query: allocating a megabyte per search costs more in
 * garbage collection than the scoring itself. Scoring is synchronous, so no two queries share it.
 */
interface Buffers {
  ids: Int32Array;
  scores: Float64Array;
  /** Per-name range outputs: those this thread writes, and the worker's (in shared memory). */
  outputs: RangeOutputs;
  theirs: RangeOutputs;
  /** Names the bounds leave open: their ids (ascending), bounds and whether they reach the threshold. */
  pendingId: Int32Array;
  pendingBound: Int32Array;
  pendingReach: Uint8Array;
}

const buffersByTable = new WeakMap<NameTable, Buffers>();

function buffersFor(table: NameTable): Buffers {
  let b = buffersByTable.get(table);
  if (!b) {
    const n = table.size;
    b = { ids: new Int32Array(n), scores: new Float64Array(n), outputs: rangeOutputs(n, false), theirs: rangeOutputs(n >= PARALLEL_MIN_NAMES ? n : 0, true), pendingId: new Int32Array(n), pendingBound: new Int32Array(n), pendingReach: new Uint8Array(n) };
    buffersByTable.set(table, b);
  }
  return b;
}

export interface NameScores {
  /**
   * Ids of the matching names (score > MIN_SCORE), in no particular order. The arrays are the
   * table's scratch space: valid until the next scoreNames on the same table.
   */
  ids: Int32Array;
  /** The exact score, or BELOW_PAGE. */
  scores: Float64Array;
  count: number;
}

/** A matching name whose score was not needed: at least `depth` results score strictly higher. */
export const BELOW_PAGE = -1;

/** The longest query scored here rather than by the plain matchScore. */
const MAX_FAST_QUERY = 1024;

/**
 * Matching names with their scores. `depth` (offset + limit) and `weights` (results per name) say
 * which scores the page needs; without them every score is exact. `parallel: false` keeps all the
 * work in this thread.
 */
export function scoreNames(table: NameTable, queryLower: string, depth = Infinity, weights?: Int32Array, parallel = true): NameScores {
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
  // Thresholds are only needed for names under the page; with no page every score is exact.
  const thresholds = depth !== Infinity;
  let plan: QueryPlan | undefined;
  const mine = () => (plan ??= new QueryPlan(table, queryLower));
  const run = (r: number) => scoreRange(mine(), r, buffers.outputs, thresholds);
  const byWorker = parallel ? shareRanges(table, buffers.theirs, queryLower, thresholds, run) : null;
  if (!byWorker) for (let r = 0; r + 1 < table.ranges.length; r++) run(r);

  // Exact, prefix and substring hits score above any ratio score (at most 0.7).
  const { pendingId, pendingBound, pendingReach } = buffers;
  let aboveRatios = 0;
  let pending = 0;
  for (let r = 0; r + 1 < table.ranges.length; r++) {
    const { subIds, subScores, openIds, openBound, openReach, counts } = byWorker?.[r] === 1 ? buffers.theirs : buffers.outputs;
    const lo = table.ranges[r];
    const held = counts[r];
    out.ids.set(subIds.subarray(lo, lo + held), out.count);
    out.scores.set(subScores.subarray(lo, lo + held), out.count);
    out.count += held;
    for (let k = lo; k < lo + held; k++) aboveRatios += w[subIds[k]];
    for (let k = lo, end = lo + counts[RANGES + r]; k < end; k++) {
      pendingId[pending] = openIds[k];
      pendingReach[pending] = openReach[k];
      pendingBound[pending++] = openBound[k];
    }
  }
  if (pending === 0) return out;

  // Exact scores in falling order of their bound, until the page is settled: once `depth` results
  // score strictly above a bound, no name under it can enter the page, and only its threshold matters.
  const { lengths, names, maxLength } = table;
  const la = mine().la;
  const ratio = (m: number, L: number) => (2.0 * m) / (la + L) * 0.7;
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
  let g = 0;
  for (; g < groups.length; g++) {
    if (thresholds && scoredAbove(groups[g].bound, aboveRatios, knownRatios) >= depth) break;
    for (const p of byKey.get(groups[g].key) as number[]) {
      const id = pendingId[p];
      const L = lengths[id];
      const score = L >= AUTOJUNK_LENGTH ? (matchScore(queryLower, names[id]) ?? 0) : ratio(mine().matcher.matches(id, EXACT, 0), L);
      if (!isMatch(score)) continue;
      push(out, id, score);
      knownRatios.set(score, (knownRatios.get(score) ?? 0) + w[id]);
    }
  }
  // The rest only need their threshold, decided with the ranges.
  for (; g < groups.length; g++) for (const p of byKey.get(groups[g].key) as number[]) if (pendingReach[p] === 1) push(out, pendingId[p], BELOW_PAGE);
  return out;
}

function push(out: NameScores, id: number, score: number): void {
  out.ids[out.count] = id;
  out.scores[out.count++] = score;
}

/** How many results score strictly above `bound`. */
function scoredAbove(bound: number, aboveRatios: number, knownRatios: Map<number, number>): number {
  let n = aboveRatios;
  for (const [score, w] of knownRatios) if (score > bound) n += w;
  return n;
}
