/**
 * Percentiles from explicit-bucket histograms, the way Prometheus `histogram_quantile` computes
 * them, and the cumulative-to-delta step that must come first. Pure functions.
 *
 * OTLP buckets: bounds b0..b(n-1) give n+1 per-bucket (not cumulative) counts; bucket i holds
 * values in (b(i-1), b(i)], the last one (b(n-1), +Inf).
 */
import { commonBounds, onCommonBounds, rebucket } from './rebucket.js';

export interface BucketCounts {
  bounds: number[];
  counts: number[];
}

export interface HistogramSnapshot extends BucketCounts {
  startNs: bigint;
  timeNs: bigint;
}

export interface Quantile {
  value: number;
  /** The rank fell in the +Inf bucket: the true value is at least `value`. */
  atLeast: boolean;
}

function sameBounds(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * What a cumulative series observed inside a window: the last point in the window minus the last
 * point before it. A changed start time or a count that went down is a counter reset: the later point
 * then counts alone (everything it holds happened since the reset). Changed bounds with the same start
 * (an exponential histogram that widened its range or lowered its scale) are subtracted on common
 * bounds (rebucket.ts); a reset when those would lose most of the later point's shape.
 */
export function cumulativeDelta(before: HistogramSnapshot | null, last: HistogramSnapshot | null): BucketCounts | null {
  if (last === null) return null;
  const reset = { bounds: last.bounds, counts: [...last.counts] };
  if (before === null || before.startNs !== last.startNs) return reset;
  let bounds = last.bounds;
  let now = last.counts;
  let then = before.counts;
  if (!sameBounds(before.bounds, last.bounds)) {
    const common = onCommonBounds(last, [before]);
    if (common === null) return reset;
    ({ bounds } = common);
    [now, then] = common.counts;
  }
  const counts = now.map((c, i) => c - (then[i] ?? 0));
  if (counts.some((c) => c < 0)) return reset;
  return { bounds, counts };
}

/**
 * What a cumulative series observed inside the window (fromNs, toNs]. With a point before the window,
 * that point is the baseline. Without one, a series that started inside the window counts whole; one
 * that started before it (its start time is earlier) would bring everything since its process started,
 * so its first point inside the window is the baseline instead.
 */
export function windowDelta(
  before: HistogramSnapshot | null,
  first: HistogramSnapshot | null,
  last: HistogramSnapshot | null,
  windowFromNs: bigint,
): BucketCounts | null {
  if (last === null) return null;
  if (before !== null) return cumulativeDelta(before, last);
  if (last.startNs >= windowFromNs || first === null || first.startNs !== last.startNs) return cumulativeDelta(null, last);
  return cumulativeDelta(first, last);
}

export function total(h: BucketCounts): number {
  let t = 0;
  for (const c of h.counts) t += c;
  return t;
}

/**
 * The sum of one series' points (its delta points in a window), bucket by bucket; points whose
 * layout differs (an exponential series changes its range and scale) are added on common bounds.
 */
export function addHistograms(items: readonly BucketCounts[]): BucketCounts {
  const bounds = items.every((h) => sameBounds(h.bounds, items[0].bounds)) ? items[0].bounds : commonBounds(items);
  const counts = new Array<number>(bounds.length + 1).fill(0);
  for (const h of items) {
    const on = bounds === items[0].bounds ? h.counts : rebucket(h, bounds);
    on.forEach((c, i) => (counts[i] += c));
  }
  return { bounds, counts };
}

export interface MergedHistogram extends BucketCounts {
  /** Observations left out because their series had bounds that do not meet the merged ones. */
  skipped: number;
}

/**
 * Sums series bucket by bucket. Series with equal bounds add directly. When bounds differ, the bounds
 * holding the most observations lead; each other layout, most observations first, joins on common
 * bounds when those keep the leader's shape (rebucket.ts: exponential layouts always do), else it is
 * reported as skipped, never mixed.
 */
export function mergeHistograms(items: BucketCounts[]): MergedHistogram | null {
  const groups: BucketCounts[] = [];
  for (const item of items) {
    const g = groups.find((x) => sameBounds(x.bounds, item.bounds));
    if (g) g.counts = g.counts.map((c, i) => c + (item.counts[i] ?? 0));
    else groups.push({ bounds: item.bounds, counts: [...item.counts] });
  }
  if (groups.length === 0) return null;
  let best = groups[0];
  for (const g of groups) if (total(g) > total(best)) best = g;
  // Stable sort: on equal totals the layout seen first stays ahead, so the answer does not depend on chance.
  const others = groups.filter((g) => g !== best).sort((a, b) => total(b) - total(a));
  // All at once when they all meet (exponential layouts do): one pass instead of one per layout.
  const all = others.length > 0 ? onCommonBounds(best, others) : null;
  if (all) {
    const counts = new Array<number>(all.bounds.length + 1).fill(0);
    for (const c of all.counts) c.forEach((x, i) => (counts[i] += x));
    return { bounds: all.bounds, counts, skipped: 0 };
  }
  let merged: BucketCounts = best;
  let skipped = 0;
  for (const g of others) {
    const common = onCommonBounds(best, [merged, g]);
    if (common === null) {
      skipped += total(g);
      continue;
    }
    const [, m, add] = common.counts;
    merged = { bounds: common.bounds, counts: m.map((c, i) => c + add[i]) };
  }
  return { bounds: merged.bounds, counts: merged.counts, skipped };
}

/**
 * Prometheus-style quantile: rank = q * total; the first bucket whose cumulative count reaches the
 * rank; linear interpolation inside it. The first bucket's lower edge is 0 when its bound is
 * positive; a rank in the +Inf bucket returns the largest finite bound, flagged `atLeast`.
 * Returns null for an empty histogram.
 */
export function histogramQuantile(q: number, h: BucketCounts): Quantile | null {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be within [0, 1], got ${q}`);
  const n = h.bounds.length;
  if (h.counts.length !== n + 1) throw new RangeError(`expected ${n + 1} bucket counts for ${n} bounds, got ${h.counts.length}`);
  const observations = total(h);
  if (observations === 0) return null;
  if (n === 0) return null; // A single +Inf bucket holds no position information.
  const rank = q * observations;
  let cumulative = 0;
  for (let i = 0; i <= n; i++) {
    const before = cumulative;
    cumulative += h.counts[i];
    // `cumulative > 0` skips empty leading buckets when q = 0 (rank 0).
    if (cumulative < rank || cumulative === 0) continue;
    if (i === n) return { value: h.bounds[n - 1], atLeast: true };
    const upper = h.bounds[i];
    if (i === 0 && upper <= 0) return { value: upper, atLeast: false };
    const lower = i === 0 ? 0 : h.bounds[i - 1];
    return { value: lower + (upper - lower) * ((rank - before) / h.counts[i]), atLeast: false };
  }
  return { value: h.bounds[n - 1], atLeast: true };
}
