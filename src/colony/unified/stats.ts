import { type BucketCounts, histogramQuantile, total } from './histogram.js';

/**
 * Significance for the summary (pure): a change stands out only when it is larger than the noise its
 * sample size allows. Normal approximations; thresholds are in standard errors.
 */

/** Standard errors a change must clear before it ranks (a few dozen comparisons per summary). */
export const Z_SIGNIFICANT = 4;
/**
 * Error rates: the pooled two-proportion z is conservative when the previous window had no failures
 * at all (12 of 110 against 0 of 110 gives 3.6), so a rise in failures needs a little less.
 */
export const Z_ERRORS = 3.5;
/** Fewer requests than this give no percentile worth ranking on ("too few samples"). */
export const MIN_SAMPLES_FOR_PERCENTILE = 30;

/** Two-proportion z statistic for k1/n1 against k0/n0 (pooled); 0 when either side is empty. */
export function proportionZ(k1: number, n1: number, k0: number, n0: number): number {
  if (n1 <= 0 || n0 <= 0) return 0;
  const p = (k1 + k0) / (n1 + n0);
  const se = Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n0));
  if (se === 0) return 0;
  return (k1 / n1 - k0 / n0) / se;
}

/** Counts over two windows of equal length (Poisson): z of the change from c0 to c1. */
export function countZ(c1: number, c0: number): number {
  return c1 + c0 === 0 ? 0 : (c1 - c0) / Math.sqrt(c1 + c0);
}

export interface Moments {
  n: number;
  sum: number;
  sumSq: number;
}

export const emptyMoments = (): Moments => ({ n: 0, sum: 0, sumSq: 0 });

export function addMoment(m: Moments, v: number): void {
  m.n++;
  m.sum += v;
  m.sumSq += v * v;
}

export const mean = (m: Moments) => (m.n === 0 ? 0 : m.sum / m.n);

function variance(m: Moments): number {
  if (m.n < 2) return 0;
  return Math.max(0, (m.sumSq - (m.sum * m.sum) / m.n) / (m.n - 1));
}

/** Welch's z for the difference of two means; 0 when either side has fewer than two values. */
export function meanZ(now: Moments, prev: Moments): number {
  if (now.n < 2 || prev.n < 2) return 0;
  const se = Math.sqrt(variance(now) / now.n + variance(prev) / prev.n);
  if (se === 0) return mean(now) === mean(prev) ? 0 : Infinity * Math.sign(mean(now) - mean(prev));
  return (mean(now) - mean(prev)) / se;
}

/** Observations above `threshold`, interpolating linearly inside the bucket that holds it. */
export function countAbove(h: BucketCounts, threshold: number): number {
  let above = 0;
  for (let i = 0; i < h.counts.length; i++) {
    const upper = i < h.bounds.length ? h.bounds[i] : Infinity;
    const lower = i === 0 ? Math.min(0, upper) : h.bounds[i - 1];
    if (upper <= threshold) continue;
    if (lower >= threshold || upper === Infinity) above += h.counts[i];
    else above += h.counts[i] * ((upper - threshold) / (upper - lower));
  }
  return above;
}

export interface LatencyVerdict {
  /** P95 in both windows (ms); null without enough data. */
  p95Ms: number | null;
  prevP95Ms: number | null;
  /** Either window held fewer requests than MIN_SAMPLES_FOR_PERCENTILE. */
  tooFew: boolean;
  /** Share of this window's requests slower than the previous P95, as a z against the expected 5%. */
  z: number;
  /** Slower by a margin that matters and beyond noise. */
  slower: boolean;
  /** log2 of the P95 ratio when slower, else 0. */
  magnitude: number;
}

/**
 * Did latency rise? The previous window's P95 is the yardstick: 5% of its requests exceeded it; when
 * significantly more of this window's do, and the P95 itself rose by at least half (and 5 ms), it is slower.
 */
export function latencyChange(now: BucketCounts, prev: BucketCounts): LatencyVerdict {
  const n1 = total(now);
  const n0 = total(prev);
  const p95Ms = histogramQuantile(0.95, now)?.value ?? null;
  const prevP95Ms = histogramQuantile(0.95, prev)?.value ?? null;
  const base = { p95Ms, prevP95Ms, z: 0, slower: false, magnitude: 0 };
  if (n1 < MIN_SAMPLES_FOR_PERCENTILE || n0 < MIN_SAMPLES_FOR_PERCENTILE || p95Ms === null || prevP95Ms === null) return { ...base, tooFew: true };
  const z = proportionZ(countAbove(now, prevP95Ms), n1, 0.05 * n0, n0);
  const slower = z >= Z_SIGNIFICANT && p95Ms >= 1.5 * prevP95Ms && p95Ms - prevP95Ms >= 5;
  return { ...base, tooFew: false, z, slower, magnitude: slower ? Math.log2(p95Ms / Math.max(prevP95Ms, 0.001)) : 0 };
}

/** Log-spaced latency buckets (four per doubling) for span durations: index i holds (2^((i-1)/4), 2^(i/4)] ms. */
export const LOG_BUCKETS_PER_DOUBLING = 4;

export function logBucketBound(i: number): number {
  return 2 ** (i / LOG_BUCKETS_PER_DOUBLING);
}

/** Fixed bucket range, 1/16 ms .. ~2 min, so histograms of any operation add up bucket by bucket. */
const LOG_MIN = -16;
const LOG_MAX = 68;
export const LOG_BOUNDS_MS: readonly number[] = Array.from({ length: LOG_MAX - LOG_MIN + 1 }, (_, i) => logBucketBound(LOG_MIN + i));

/** A histogram in milliseconds from (log bucket index, count) pairs; indices outside the range are clamped. */
export function fromLogBuckets(entries: readonly { bucket: number; count: number }[]): BucketCounts {
  const counts = new Array<number>(LOG_BOUNDS_MS.length + 1).fill(0);
  for (const e of entries) counts[Math.min(LOG_BOUNDS_MS.length, Math.max(0, e.bucket - LOG_MIN))] += e.count;
  return { bounds: [...LOG_BOUNDS_MS], counts };
}
