import type { ExponentialBuckets, ExponentialPoint } from './model.js';

/**
 * Exponential histograms as explicit buckets, so that every reader (percentiles, RED, operations,
 * both backends) merges them with explicit histograms through one representation. Pure.
 *
 * At scale s, base = 2^(2^-s); positive bucket i holds (base^i, base^(i+1)], negative bucket i holds
 * [-base^(i+1), -base^i), the zero bucket [-zero_threshold, zero_threshold]. Every edge of the
 * exponential layout becomes an explicit bound, so the conversion loses nothing but the (measure-zero)
 * side of the edge the negative buckets include.
 */

/** OTLP allows scales -10..20; outside them the edges are no longer finite or distinct. */
export const MIN_SCALE = -10;
export const MAX_SCALE = 20;
/** Buckets per side: the SDKs default to 160; far more is a hostile point, not a histogram. */
export const MAX_BUCKETS_PER_SIDE = 4096;

export interface ExplicitBuckets {
  bounds: number[];
  counts: number[];
}

/**
 * The lower edge of bucket `index` at `scale`: base^index = 2^(index * 2^-scale). Exact at scale <= 0,
 * within an ulp above; computed once, at ingest, so both backends store the same bounds.
 */
export function bucketEdge(scale: number, index: number): number {
  return 2 ** (index * 2 ** -scale);
}

function sideProblem(name: string, side: ExponentialBuckets): string | null {
  if (!Number.isInteger(side.offset)) return `a non-integer ${name} offset`;
  if (side.counts.length > MAX_BUCKETS_PER_SIDE) return `more than ${MAX_BUCKETS_PER_SIDE} ${name} buckets`;
  if (side.counts.some((c) => !(Number.isFinite(c) && c >= 0))) return `a non-finite or negative ${name} bucket count`;
  return null;
}

/** Why a point cannot be converted, or null. Phrased to follow "exponential histogram points with ...". */
export function exponentialProblem(p: ExponentialPoint): string | null {
  if (!Number.isInteger(p.scale) || p.scale < MIN_SCALE || p.scale > MAX_SCALE) return `a scale outside ${MIN_SCALE}..${MAX_SCALE}`;
  if (!(Number.isFinite(p.zeroThreshold) && p.zeroThreshold >= 0)) return 'a negative or non-finite zero_threshold';
  if (!(Number.isFinite(p.zeroCount) && p.zeroCount >= 0)) return 'a negative or non-finite zero_count';
  const side = sideProblem('positive', p.positive) ?? sideProblem('negative', p.negative);
  if (side) return side;
  const hi = (s: ExponentialBuckets) => (s.counts.length === 0 ? 1 : bucketEdge(p.scale, s.offset + s.counts.length));
  const lo = (s: ExponentialBuckets) => (s.counts.length === 0 ? 1 : bucketEdge(p.scale, s.offset));
  for (const s of [p.positive, p.negative]) {
    if (!Number.isFinite(hi(s)) || lo(s) === 0) return 'bucket edges beyond the range of a double';
  }
  return null;
}

/**
 * Explicit bounds and per-bucket counts (bounds.length + 1 of them) for a point that passed
 * `exponentialProblem`. Layout, ascending: the negative edges, the zero bucket, the positive edges.
 * The zero bucket is the bucket ending at zero_threshold: (-zero_threshold, zero_threshold] when there
 * are negative buckets, else the first bucket, whose lower edge percentiles take as 0 (histogram.ts);
 * with a zero threshold of 0 and negative buckets it is the empty-width bucket (0, 0], exactly 0.
 * A positive bucket starting below the zero threshold (a layout OTLP does not produce) starts at it.
 */
export function exponentialToExplicit(p: ExponentialPoint): ExplicitBuckets {
  const bounds: number[] = [];
  const counts: number[] = [];
  const edge = (index: number) => bucketEdge(p.scale, index);
  const bucket = (upper: number, count: number) => {
    bounds.push(upper);
    counts.push(count);
  };
  const { negative: neg, positive: pos, zeroThreshold: zt } = p;
  if (neg.counts.length > 0) {
    bucket(-edge(neg.offset + neg.counts.length), 0); // (-Inf, most negative edge]
    for (let i = neg.counts.length - 1; i >= 0; i--) bucket(-edge(neg.offset + i), neg.counts[i]);
    if (zt < edge(neg.offset)) bucket(0 - zt, 0); // the empty gap up to the zero bucket; `0 - t` is never -0
  }
  bucket(zt, p.zeroCount);
  if (pos.counts.length > 0 && edge(pos.offset) > zt) bucket(edge(pos.offset), 0); // the empty gap above it
  for (let i = 0; i < pos.counts.length; i++) {
    const upper = edge(pos.offset + i + 1);
    if (upper > bounds[bounds.length - 1]) bucket(upper, pos.counts[i]);
    else counts[counts.length - 1] += pos.counts[i];
  }
  counts.push(0); // (largest edge, +Inf)
  return { bounds, counts };
}
