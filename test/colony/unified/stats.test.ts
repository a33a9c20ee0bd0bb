import { describe, expect, it } from 'vitest';
import { countAbove, countZ, fromLogBuckets, latencyChange, LOG_BOUNDS_MS, meanZ, proportionZ } from '../../../src/colony/unified/stats.js';
import { histogramQuantile } from '../../../src/colony/unified/histogram.js';

/** A histogram of `n` requests all near `ms` (log buckets, as span views build them). */
const near = (ms: number, n: number) => fromLogBuckets([{ bucket: Math.ceil(Math.log2(ms) * 4), count: n }]);
const mix = (...parts: [number, number][]) => fromLogBuckets(parts.map(([ms, n]) => ({ bucket: Math.ceil(Math.log2(ms) * 4), count: n })));

describe('significance', () => {
  it('an error rate drifting within noise is not significant; a real jump is', () => {
    expect(proportionZ(29, 1000, 24, 1000)).toBeLessThan(1);
    expect(proportionZ(200, 1000, 0, 1000)).toBeGreaterThan(10);
    expect(proportionZ(1, 0, 0, 10)).toBe(0);
  });

  it('counts and means', () => {
    expect(countZ(100, 100)).toBe(0);
    expect(countZ(400, 100)).toBeGreaterThan(10);
    const a = { n: 50, sum: 50 * 10, sumSq: 50 * 101 };
    const b = { n: 50, sum: 50 * 40, sumSq: 50 * 1604 };
    expect(meanZ(b, a)).toBeGreaterThan(10);
    expect(meanZ(a, a)).toBe(0);
  });

  it('counts observations above a threshold, interpolating inside its bucket', () => {
    const h = { bounds: [10, 20], counts: [5, 10, 3] };
    expect(countAbove(h, 15)).toBeCloseTo(8, 9);
    expect(countAbove(h, 20)).toBe(3);
    expect(countAbove(h, 0)).toBe(18);
  });

  it('log buckets share fixed bounds (so any two add up) and keep percentiles within a bucket', () => {
    const h = mix([3, 90], [40, 10]);
    expect(h.bounds).toEqual([...LOG_BOUNDS_MS]);
    const p95 = histogramQuantile(0.95, h)?.value ?? 0;
    expect(p95).toBeGreaterThan(30);
    expect(p95).toBeLessThan(45);
  });
});

describe('latencyChange', () => {
  it('a P95 from a handful of requests never ranks: too few samples', () => {
    const v = latencyChange(near(2000, 5), near(5, 6));
    expect(v.tooFew).toBe(true);
    expect(v.slower).toBe(false);
  });

  it('a clear slowdown on enough requests is slower, with its magnitude', () => {
    const v = latencyChange(mix([10, 50], [80, 150]), near(10, 200));
    expect(v.slower).toBe(true);
    expect(v.magnitude).toBeGreaterThan(2);
  });

  it('the same distribution twice, or a small shift, is not', () => {
    expect(latencyChange(mix([10, 190], [30, 10]), mix([10, 190], [30, 10])).slower).toBe(false);
    expect(latencyChange(mix([11, 190], [33, 10]), mix([10, 190], [30, 10])).slower).toBe(false);
  });
});
