/**
 * Histograms with different bounds on common bounds, without splitting any observation. Series of one
 * exponential histogram change layout (a cumulative series widens its range, an SDK lowers the scale
 * when the range outgrows its buckets), and series of one metric differ in range: every such layout
 * is a subset of one grid, so they meet on common bounds exactly. Pure functions.
 *
 * Buckets as in histogram.ts: bounds b0..b(n-1), counts for (-Inf, b0], (b0, b1], ..., (b(n-1), +Inf).
 */
export interface Buckets {
  bounds: number[];
  counts: number[];
}

/**
 * The union of the items' bounds, less every bound strictly inside a bucket of an item that holds
 * observations: how such a bucket's observations fall on either side of it is unknown. Every item then
 * maps onto the result exactly (`rebucket`); where layouts disagree, the result is coarser.
 */
export function commonBounds(items: readonly Buckets[]): number[] {
  const union = [...new Set(items.flatMap((h) => h.bounds))].sort((a, b) => a - b);
  const cut = new Array<boolean>(union.length).fill(false);
  for (const h of items) {
    let u = 0;
    for (let i = 0; i < h.counts.length; i++) {
      const hi = i < h.bounds.length ? h.bounds[i] : Infinity;
      if (h.counts[i] === 0) {
        while (u < union.length && union[u] <= hi) u++;
        continue;
      }
      const lo = i === 0 ? -Infinity : h.bounds[i - 1];
      while (u < union.length && union[u] <= lo) u++;
      while (u < union.length && union[u] < hi) cut[u++] = true;
    }
  }
  return union.filter((_, i) => !cut[i]);
}

/** `h`'s counts on `bounds` (from commonBounds over a set holding `h`): each bucket lands whole in the one holding it. */
export function rebucket(h: Buckets, bounds: readonly number[]): number[] {
  const counts = new Array<number>(bounds.length + 1).fill(0);
  let u = 0;
  for (let i = 0; i < h.counts.length; i++) {
    if (h.counts[i] === 0) continue;
    const hi = i < h.bounds.length ? h.bounds[i] : Infinity;
    while (u < bounds.length && bounds[u] < hi) u++;
    counts[u] += h.counts[i];
  }
  return counts;
}

function occupied(counts: readonly number[]): number {
  let n = 0;
  for (const c of counts) if (c !== 0) n++;
  return n;
}

/**
 * The items on common bounds, or null when those would keep fewer than half the occupied buckets
 * of `keep` (the histogram whose shape matters most), or no bound at all: explicit layouts that
 * disagree collapse into a few wide buckets, which would hide more than leaving the minority out.
 * A change of scale by one halves the buckets at most, so exponential layouts meet.
 */
export function onCommonBounds(keep: Buckets, others: readonly Buckets[]): { bounds: number[]; counts: number[][] } | null {
  const bounds = commonBounds([keep, ...others]);
  const kept = rebucket(keep, bounds);
  if (2 * occupied(kept) < occupied(keep.counts) || (bounds.length === 0 && keep.bounds.length > 0)) return null;
  return { bounds, counts: [kept, ...others.map((h) => rebucket(h, bounds))] };
}
