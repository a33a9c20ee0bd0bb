import { describe, expect, it } from 'vitest';
import { cumulativeDelta, histogramQuantile } from '../../../src/colony/unified/histogram.js';

/** Inputs on which each rule decides the answer: no other rule of the function could hide a mistake in it. */
describe('cumulativeDelta resets', () => {
  const at = (counts: number[], startNs: bigint, bounds = [1, 2]) => ({ bounds, counts, startNs, timeNs: startNs + 10n });

  it('treats a changed start time as a reset even when every count went up', () => {
    // Subtracting would give [1, 2, 3]; the series restarted at 15, so all it holds is new.
    expect(cumulativeDelta(at([1, 1, 1], 1n), at([2, 3, 4], 15n))?.counts).toEqual([2, 3, 4]);
  });

  it('treats changed bounds as a reset even when every count went up', () => {
    expect(cumulativeDelta(at([1, 1, 1], 1n), at([2, 3, 4], 1n, [1, 5]))).toEqual({ bounds: [1, 5], counts: [2, 3, 4] });
    expect(cumulativeDelta(at([1, 1], 1n, [1]), at([2, 3, 4], 1n, [1, 2]))?.counts).toEqual([2, 3, 4]);
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
