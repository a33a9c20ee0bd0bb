import { describe, expect, it } from 'vitest';
import type { ExponentialPoint } from '../../../src/colony/otlp/model.js';
import { exponentialProblem, exponentialToExplicit } from '../../../src/colony/otlp/exponential.js';
import { histogramQuantile, mergeHistograms } from '../../../src/colony/unified/histogram.js';

const point = (over: Partial<ExponentialPoint>): ExponentialPoint => ({
  attributes: {}, startNs: 1n, timeNs: 2n, count: 0, sum: null, min: null, max: null,
  scale: 0, zeroCount: 0, zeroThreshold: 0, positive: { offset: 0, counts: [] }, negative: { offset: 0, counts: [] }, ...over,
});
const q = (p: number, e: ExponentialPoint) => histogramQuantile(p, exponentialToExplicit(e))?.value;

// Edges written out by hand: scale 0 has base 2, scale 1 base sqrt(2), scale -1 base 4.
describe('exponentialToExplicit: every edge of the exponential layout becomes a bound', () => {
  it('scale 0: buckets (1, 2], (2, 4], (4, 8] after the zero bucket and the empty gap up to 1', () => {
    expect(exponentialToExplicit(point({ positive: { offset: 0, counts: [1, 2, 1] } }))).toEqual({ bounds: [0, 1, 2, 4, 8], counts: [0, 0, 1, 2, 1, 0] });
  });

  it('positive scale and negative offset: scale 1, bucket -2 is (2^-1, 2^-0.5]', () => {
    const h = exponentialToExplicit(point({ scale: 1, positive: { offset: -2, counts: [4] } }));
    expect(h.counts).toEqual([0, 0, 4, 0]);
    expect(h.bounds.slice(0, 2)).toEqual([0, 0.5]);
    expect(Math.abs(h.bounds[2] - Math.SQRT1_2)).toBeLessThanOrEqual(Number.EPSILON); // within an ulp of 1/sqrt(2)
  });

  it('negative scale: scale -1, buckets 1 and 2 are (4, 16] and (16, 64]', () => {
    expect(exponentialToExplicit(point({ scale: -1, positive: { offset: 1, counts: [1, 1] } })).bounds).toEqual([0, 4, 16, 64]);
  });

  it('negative range, zero bucket of width 0, positive range', () => {
    // Negative buckets 1 and 2 hold [-4, -2) and [-8, -4); the zero bucket is exactly 0: (0, 0].
    const e = point({ negative: { offset: 1, counts: [3, 1] }, zeroCount: 2, positive: { offset: 0, counts: [4] } });
    expect(exponentialToExplicit(e)).toEqual({ bounds: [-8, -4, -2, 0, 0, 1, 2], counts: [0, 1, 3, 0, 2, 0, 4, 0] });
    // 10 observations. Rank 1: all of (-8, -4]: -4. Rank 3: 2 of 3 into (-4, -2]: -4 + 2 * 2/3.
    expect(q(0.1, e)).toBe(-4);
    expect(q(0.3, e)).toBeCloseTo(-4 + 4 / 3, 12);
    expect(q(0.5, e)).toBe(0); // ranks 5-6 are the zeros, exactly 0
    expect(q(0.8, e)).toBe(1.5); // rank 8: 2 of 4 into (1, 2]
  });

  it('a zero threshold: the zero bucket is [0, threshold] without negatives, (-t, t] with them', () => {
    const e = point({ zeroThreshold: 0.5, zeroCount: 2, positive: { offset: 0, counts: [2] } });
    expect(exponentialToExplicit(e)).toEqual({ bounds: [0.5, 1, 2], counts: [2, 0, 2, 0] });
    expect(q(0.25, e)).toBe(0.25); // rank 1 of the 2 in [0, 0.5]
    expect(exponentialToExplicit(point({ zeroThreshold: 0.5, zeroCount: 1, negative: { offset: 0, counts: [1] } }))).toEqual({ bounds: [-2, -1, -0.5, 0.5], counts: [0, 1, 0, 1, 0] });
  });

  it('a zero bucket only (all observations 0) gives 0 at every percentile', () => {
    expect([q(0, point({ zeroCount: 3 })), q(0.99, point({ zeroCount: 3 }))]).toEqual([0, 0]);
  });

  it('merges scales 0 and -1 on the coarser grid, exactly, with explicit (1, 4] observations', () => {
    const fine = exponentialToExplicit(point({ positive: { offset: 0, counts: [1, 1, 2, 2] } })); // (1,2] (2,4] (4,8] (8,16]
    const coarse = exponentialToExplicit(point({ scale: -1, positive: { offset: 0, counts: [3, 1] } })); // (1,4] (4,16]
    const m = mergeHistograms([fine, coarse, { bounds: [1, 4], counts: [0, 2, 0] }]);
    expect(m).toEqual({ bounds: [0, 1, 4, 16], counts: [0, 0, 7, 5, 0], skipped: 0 });
    // 12 observations; the median (rank 6) is 6 of the 7 in (1, 4].
    expect(histogramQuantile(0.5, m!)?.value).toBeCloseTo(1 + 3 * (6 / 7), 12);
  });
});

describe('exponentialProblem refuses what cannot be laid out as finite, increasing bounds', () => {
  it('names the problem', () => {
    expect(exponentialProblem(point({ scale: 21 }))).toBe('a scale outside -10..20');
    expect(exponentialProblem(point({ scale: 0.5 }))).toBe('a scale outside -10..20');
    expect(exponentialProblem(point({ zeroThreshold: -1 }))).toBe('a negative or non-finite zero_threshold');
    expect(exponentialProblem(point({ scale: -10, positive: { offset: 2, counts: [1] } }))).toBe('bucket edges beyond the range of a double');
    expect(exponentialProblem(point({ scale: -10, negative: { offset: -3, counts: [1] } }))).toBe('bucket edges beyond the range of a double');
    expect(exponentialProblem(point({ positive: { offset: 0, counts: new Array(5000).fill(1) } }))).toBe('more than 4096 positive buckets');
    expect(exponentialProblem(point({ negative: { offset: 0, counts: [Number.NaN] } }))).toBe('a non-finite or negative negative bucket count');
    expect(exponentialProblem(point({ scale: 20, positive: { offset: -5, counts: [1, 2] } }))).toBeNull();
  });
});
