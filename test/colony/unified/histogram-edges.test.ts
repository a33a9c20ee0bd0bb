import { describe, expect, it } from 'vitest';
import { addHistograms, cumulativeDelta, histogramQuantile, mergeHistograms } from '../../../src/colony/unified/histogram.js';

/** Inputs on which each rule decides the answer: no other rule of the function could hide a mistake in it. */
describe('cumulativeDelta resets', () => {
  const at = (counts: number[], startNs: bigint, bounds = [1, 2]) => ({ bounds, counts, startNs, timeNs: startNs + 10n });

  it('treats a changed start time as a reset even when every count went up', () => {
    // Subtracting would give [1, 2, 3]; the series restarted at 15, so all it holds is new.
    expect(cumulativeDelta(at([1, 1, 1], 1n), at([2, 3, 4], 15n))?.counts).toEqual([2, 3, 4]);
  });

  it('subtracts on common bounds when the bounds changed but the start did not (an exponential layout widening or downscaling)', () => {
    // Wider range: (2, 4] held 3 before; now (1, 2] holds 1, (2, 4] 5 and (4, 8] 2.
    expect(cumulativeDelta(at([0, 3, 0], 1n, [2, 4]), at([0, 1, 5, 2, 0], 1n, [1, 2, 4, 8]))).toEqual({ bounds: [1, 2, 4, 8], counts: [0, 1, 2, 2, 0] });
    // Scale 0 -> -1: (1, 2] and (2, 4] become (1, 4]; 2 of its 3 were there before.
    expect(cumulativeDelta(at([0, 1, 1, 0], 1n, [1, 2, 4]), at([0, 3, 1, 0], 1n, [1, 4, 16]))).toEqual({ bounds: [1, 4, 16], counts: [0, 1, 1, 0] });
  });

  it('treats changed bounds as a reset when common bounds would lose most of the later point\'s shape', () => {
    expect(cumulativeDelta(at([1, 1], 1n, [1]), at([0, 1, 1, 1, 1], 1n, [1, 2, 3, 4]))).toEqual({ bounds: [1, 2, 3, 4], counts: [0, 1, 1, 1, 1] });
  });

  it('subtracts bucket by bucket when start and bounds are the same, an unchanged bucket giving 0', () => {
    expect(cumulativeDelta(at([1, 1, 1], 1n), at([2, 1, 4], 1n))?.counts).toEqual([1, 0, 3]);
  });
});

describe('histogramQuantile on bucket edges', () => {
  it('stops at the bucket whose cumulative count equals the rank, even when an empty bucket follows', () => {
    // rank 2 = cumulative count of (0, 1]: the answer is 1, not a point inside (2, 3].
    expect(histogramQuantile(0.5, { bounds: [1, 2, 3], counts: [2, 0, 2, 0] })).toEqual({ value: 1, atLeast: false });
    expect(histogramQuantile(0.5, { bounds: [1, 2, 3, 4], counts: [1, 1, 0, 0, 2] })).toEqual({ value: 2, atLeast: false });
  });

  it('q = 1 with an empty +Inf bucket is the last finite bound, exactly, not flagged', () => {
    expect(histogramQuantile(1, { bounds: [1, 2], counts: [2, 2, 0] })).toEqual({ value: 2, atLeast: false });
  });

  it('interpolates from the previous bound inside a middle bucket', () => {
    // rank 3 is 1 of 4 observations into (2, 4]: 2 + 2 * 1/4.
    expect(histogramQuantile(0.5, { bounds: [1, 2, 4], counts: [1, 1, 4, 0] })).toEqual({ value: 2.5, atLeast: false });
  });
});

describe('histogramQuantile at and below zero', () => {
  it('returns a first bound below 0 itself, rather than interpolating from 0', () => {
    expect(histogramQuantile(0.5, { bounds: [-1, 1], counts: [4, 0, 0] })).toEqual({ value: -1, atLeast: false });
  });

  it('interpolates between negative bounds past the first bucket', () => {
    // rank 2.7 is 1.7 of 2 observations into (-2, -1].
    expect(histogramQuantile(0.9, { bounds: [-2, -1, 1], counts: [1, 2, 0, 0] })?.value).toBeCloseTo(-1.15, 12);
  });
});

describe('histogramQuantile input checks', () => {
  it('rejects a quantile below 0 as well as above 1, saying which', () => {
    expect(() => histogramQuantile(-0.1, { bounds: [1], counts: [1, 0] })).toThrow('quantile must be within [0, 1], got -0.1');
    expect(() => histogramQuantile(1.5, { bounds: [1], counts: [1, 0] })).toThrow('quantile must be within [0, 1], got 1.5');
    expect(() => histogramQuantile(Number.NaN, { bounds: [1], counts: [1, 0] })).toThrow(RangeError);
  });

  it('is null for a histogram with only the +Inf bucket: no bound to place the rank', () => {
    expect(histogramQuantile(0.5, { bounds: [], counts: [5] })).toBeNull();
  });
});

describe('mergeHistograms picks the bounds with the most observations', () => {
  it('keeps the first series when it holds more than a later one whose buckets straddle its bounds', () => {
    expect(mergeHistograms([{ bounds: [5], counts: [10, 10] }, { bounds: [1, 7], counts: [0, 1, 0] }])).toEqual({ bounds: [5], counts: [10, 10], skipped: 1 });
  });

  it('when not every layout meets, adds those that do and reports the others as skipped', () => {
    const m = mergeHistograms([{ bounds: [5], counts: [10, 10] }, { bounds: [1, 7], counts: [0, 1, 0] }, { bounds: [1, 2], counts: [2, 0, 0] }]);
    expect(m).toEqual({ bounds: [5], counts: [12, 10], skipped: 1 });
  });

  it('adds a series with other bounds whose occupied buckets each fall inside one of the merged buckets', () => {
    expect(mergeHistograms([{ bounds: [5], counts: [10, 10] }, { bounds: [1, 2], counts: [1, 0, 0] }])).toEqual({ bounds: [5], counts: [11, 10], skipped: 0 });
  });

  it('on equal totals keeps the bounds seen first, so the answer does not depend on chance', () => {
    expect(mergeHistograms([{ bounds: [1], counts: [2, 1] }, { bounds: [2], counts: [1, 2] }])).toEqual({ bounds: [1], counts: [2, 1], skipped: 3 });
  });

  it('adds a shorter series as zeros in its missing buckets', () => {
    expect(mergeHistograms([{ bounds: [1, 2], counts: [1, 1, 1] }, { bounds: [1, 2], counts: [1, 1] }])?.counts).toEqual([2, 2, 1]);
  });
});

describe('addHistograms sums one series\' delta points', () => {
  it('adds points of one layout bucket by bucket', () => {
    expect(addHistograms([{ bounds: [1, 2], counts: [1, 2, 3] }, { bounds: [1, 2], counts: [1, 1, 1] }])).toEqual({ bounds: [1, 2], counts: [2, 3, 4] });
  });

  it('adds points whose exponential layout changed (range widened, scale lowered) on the coarser common bounds', () => {
    // Scale 0: (1, 2] 1, (2, 4] 2; then scale -1: (1, 4] 3, (4, 16] 1.
    expect(addHistograms([{ bounds: [0, 1, 2, 4], counts: [0, 0, 1, 2, 0] }, { bounds: [0, 1, 4, 16], counts: [0, 0, 3, 1, 0] }]))
      .toEqual({ bounds: [0, 1, 4, 16], counts: [0, 0, 6, 1, 0] });
  });
});
