import { describe, expect, it } from 'vitest';
import { LOG_BOUNDS_MS, MIN_SAMPLES_FOR_PERCENTILE, Z_ERRORS, Z_SIGNIFICANT, addMoment, countAbove, countZ, emptyMoments, fromLogBuckets, latencyChange, logBucketBound, mean, meanZ, proportionZ } from '../../../src/colony/unified/stats.js';

/** The statistics' exact values and edges, where a sign, bound or guard changes the number. */
describe('the thresholds', () => {
  it('are the documented ones', () => {
    expect([Z_SIGNIFICANT, Z_ERRORS, MIN_SAMPLES_FOR_PERCENTILE]).toEqual([4, 3.5, 30]);
  });
});

describe('proportionZ', () => {
  it('is the pooled two-proportion z', () => {
    // 12 of 110 against 0 of 110: p = 12/220.
    const p = 12 / 220;
    expect(proportionZ(12, 110, 0, 110)).toBeCloseTo((12 / 110) / Math.sqrt(p * (1 - p) * (2 / 110)), 12);
    expect(proportionZ(0, 110, 12, 110)).toBeCloseTo(-proportionZ(12, 110, 0, 110), 12);
  });

  it('is 0 with an empty side, or when every request (or none) failed in both', () => {
    expect(proportionZ(1, 10, 0, 0)).toBe(0);
    expect(proportionZ(0, 0, 1, 10)).toBe(0);
    expect(proportionZ(10, 10, 5, 5)).toBe(0);
    expect(proportionZ(0, 10, 0, 5)).toBe(0);
  });
});

describe('countZ', () => {
  it('is the change over the square root of the sum, signed; 0 for no counts', () => {
    expect(countZ(30, 6)).toBe(4);
    expect(countZ(6, 30)).toBe(-4);
    expect(countZ(0, 0)).toBe(0);
  });
});

describe('moments', () => {
  it('add count, sum and sum of squares; the mean of nothing is 0', () => {
    const m = emptyMoments();
    expect(mean(m)).toBe(0);
    addMoment(m, 3);
    addMoment(m, 5);
    expect(m).toEqual({ n: 2, sum: 8, sumSq: 34 });
    expect(mean(m)).toBe(4);
  });

  it('meanZ is Welch\'s z with sample variances', () => {
    // now: 2, 4, 6 (mean 4, variance 4); prev: 1, 3 (mean 2, variance 2).
    const now = { n: 3, sum: 12, sumSq: 56 };
    const prev = { n: 2, sum: 4, sumSq: 10 };
    expect(meanZ(now, prev)).toBeCloseTo(2 / Math.sqrt(4 / 3 + 2 / 2), 12);
    expect(meanZ(prev, now)).toBeCloseTo(-2 / Math.sqrt(4 / 3 + 2 / 2), 12);
  });

  it('meanZ is 0 with fewer than two values on a side', () => {
    expect(meanZ({ n: 1, sum: 100, sumSq: 10_000 }, { n: 5, sum: 5, sumSq: 5 })).toBe(0);
    expect(meanZ({ n: 5, sum: 500, sumSq: 50_000 }, { n: 1, sum: 1, sumSq: 1 })).toBe(0);
    expect(meanZ({ n: 2, sum: 200, sumSq: 20_000 }, { n: 2, sum: 2, sumSq: 2 })).toBe(Infinity);
  });

  it('without spread: equal means give 0, different ones an infinite z of their sign', () => {
    const c = (v: number) => ({ n: 4, sum: 4 * v, sumSq: 4 * v * v });
    expect(meanZ(c(3), c(3))).toBe(0);
    expect(meanZ(c(5), c(3))).toBe(Infinity);
    expect(meanZ(c(3), c(5))).toBe(-Infinity);
  });
});

describe('countAbove', () => {
  it('interpolates in the first bucket from 0, in the others from the bound below', () => {
    const h = { bounds: [10, 20], counts: [10, 10, 1] };
    expect(countAbove(h, 5)).toBe(5 + 10 + 1);
    expect(countAbove(h, 12)).toBe(8 + 1);
    expect(countAbove(h, 10)).toBe(11);
    expect(countAbove(h, 25)).toBe(1);
  });

  it('negative bounds: a bucket wholly above the threshold counts whole, one at or below it not at all', () => {
    expect(countAbove({ bounds: [-10, 10], counts: [4, 4, 0] }, -20)).toBe(8);
    expect(countAbove({ bounds: [-10, 10], counts: [4, 4, 0] }, 0)).toBe(2);
  });
});

describe('latencyChange', () => {
  const at = (ms: number, n: number) => ({ bounds: [ms], counts: [n, 0] });
  const h = (counts: number[]) => ({ bounds: [10, 20, 40, 80], counts });

  it('needs 30 requests in each window', () => {
    expect(latencyChange(h([0, 0, 0, 30, 0]), h([29, 0, 0, 0, 0])).tooFew).toBe(true);
    expect(latencyChange(h([0, 0, 0, 29, 0]), h([30, 0, 0, 0, 0])).tooFew).toBe(true);
    expect(latencyChange(h([0, 0, 0, 30, 0]), h([30, 0, 0, 0, 0]))).toMatchObject({ tooFew: false, slower: true });
  });

  it('reports both P95s even with too few requests, and null for an empty window', () => {
    const v = latencyChange(at(10, 5), { bounds: [10], counts: [0, 0] });
    expect([v.p95Ms, v.prevP95Ms, v.tooFew]).toEqual([9.5, null, true]);
  });

  it('slower needs the P95 up by half and by 5 ms, with a significant share above the old P95', () => {
    // Every request of the previous window at 0..10 ms (P95 9.5), every one now at 10..20 (P95 19.5).
    const v = latencyChange(h([0, 100, 0, 0, 0]), h([100, 0, 0, 0, 0]));
    expect(v).toMatchObject({ tooFew: false, slower: true, p95Ms: 19.5, prevP95Ms: 9.5 });
    expect(v.magnitude).toBeCloseTo(Math.log2(19.5 / 9.5), 12);
  });

  it('a rise of exactly half, or of exactly 5 ms, is enough; a rise under 5 ms is not', () => {
    // P95s 19 and 28.5: up by exactly half; 28.4 is just under.
    const half = latencyChange({ bounds: [30], counts: [100, 0] }, { bounds: [20], counts: [100, 0] });
    expect([half.prevP95Ms, half.p95Ms, half.slower]).toEqual([19, 28.5, true]);
    expect(latencyChange({ bounds: [29.9], counts: [100, 0] }, { bounds: [20], counts: [100, 0] }).slower).toBe(false);
    // P95s 9.5 and 14.5: exactly 5 ms more (and more than half) is enough.
    expect(latencyChange({ bounds: [5, 15], counts: [0, 100, 0] }, { bounds: [10], counts: [100, 0] })).toMatchObject({ prevP95Ms: 9.5, p95Ms: 14.5, slower: true });
    // P95s 3.8 and 7.8: more than double but only 4 ms more.
    const small = latencyChange({ bounds: [4, 8], counts: [0, 100, 0] }, { bounds: [4, 8], counts: [100, 0, 0] });
    expect([small.slower, small.magnitude]).toEqual([false, 0]);
  });

  it('faster or the same is not slower, with a z of its own sign', () => {
    const faster = latencyChange(h([100, 0, 0, 0, 0]), h([0, 100, 0, 0, 0]));
    expect([faster.slower, faster.magnitude]).toEqual([false, 0]);
    expect(faster.z).toBeLessThan(0);
  });
});

describe('log buckets', () => {
  it('four per doubling, from 1/16 ms to 2^17 ms', () => {
    expect([logBucketBound(0), logBucketBound(4), logBucketBound(-4)]).toEqual([1, 2, 0.5]);
    expect(LOG_BOUNDS_MS).toHaveLength(85);
    expect([LOG_BOUNDS_MS[0], LOG_BOUNDS_MS.at(-1)]).toEqual([1 / 16, 2 ** 17]);
  });

  it('fromLogBuckets adds counts per bucket and clamps indices outside the range', () => {
    const h = fromLogBuckets([{ bucket: -16, count: 1 }, { bucket: -100, count: 2 }, { bucket: 68, count: 3 }, { bucket: 69, count: 4 }, { bucket: 500, count: 5 }, { bucket: 0, count: 6 }, { bucket: 0, count: 1 }]);
    expect(h.counts).toHaveLength(86);
    expect(h.counts.flatMap((c, i) => (c ? [[i, c]] : []))).toEqual([[0, 3], [16, 7], [84, 3], [85, 9]]);
  });

  it('gives each histogram its own copy of the bounds', () => {
    const a = fromLogBuckets([]);
    a.bounds[0] = -1;
    expect(fromLogBuckets([]).bounds[0]).toBe(1 / 16);
  });
});

describe('latencyChange: z against 5% of the previous window, and its edges', () => {
  // The previous P95 is exactly 10 ms (57 of 60 at or below it), so what lies above it counts whole buckets.
  const prev = { bounds: [10, 100, 1000], counts: [57, 3, 0, 0] };

  it('z compares the share above the previous P95 with 5% of the previous requests; exactly 4 is slower, just under is not', () => {
    // 72 of 240 above 10 ms against 3 (5%) of 60: z is exactly 4.
    expect(latencyChange({ bounds: [10, 100, 1000], counts: [168, 0, 72, 0] }, prev)).toMatchObject({ p95Ms: 850, prevP95Ms: 10, z: 4, slower: true, tooFew: false });
    const under = latencyChange({ bounds: [10, 100, 1000], counts: [169, 0, 71, 0] }, prev);
    expect(under.z).toBeCloseTo(proportionZ(71, 240, 3, 60), 12);
    expect(under.z).toBeLessThan(Z_SIGNIFICANT);
    // The P95 rose 85-fold, but within noise: not slower.
    expect([under.slower, under.magnitude]).toEqual([false, 0]);
  });

  it('a histogram with no bounds (one +Inf bucket) has no P95: too few to compare, in either window', () => {
    const boundless = { bounds: [], counts: [60] };
    expect(latencyChange(boundless, prev)).toMatchObject({ p95Ms: null, tooFew: true, z: 0, slower: false });
    expect(latencyChange(prev, boundless)).toMatchObject({ prevP95Ms: null, tooFew: true, z: 0, slower: false });
  });
});
