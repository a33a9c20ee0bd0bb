import { describe, expect, it } from 'vitest';
import { cumulativeDelta, histogramQuantile, mergeHistograms, windowDelta } from '../../../src/colony/unified/histogram.js';

const BEYLA_BOUNDS = [0, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

function counts(entries: Record<number, number>, n = BEYLA_BOUNDS.length + 1): number[] {
  const out = new Array<number>(n).fill(0);
  for (const [i, c] of Object.entries(entries)) out[Number(i)] = c;
  return out;
}

describe('histogramQuantile (Prometheus histogram_quantile)', () => {
  const h = { bounds: BEYLA_BOUNDS, counts: counts({ 3: 10, 4: 10 }) };

  it('interpolates linearly inside the bucket that reaches the rank', () => {
    // rank 10 reaches the top of (0.01, 0.025]; rank 19 is 9/10 into (0.025, 0.05].
    expect(histogramQuantile(0.5, h)?.value).toBeCloseTo(0.025, 12);
    expect(histogramQuantile(0.95, h)?.value).toBeCloseTo(0.0475, 12);
    expect(histogramQuantile(0.99, h)?.value).toBeCloseTo(0.0495, 12);
    expect(histogramQuantile(0.25, h)?.value).toBeCloseTo(0.0175, 12);
  });

  it('returns the largest finite bound, flagged, for a rank in the +Inf bucket', () => {
    const tail = { bounds: BEYLA_BOUNDS, counts: counts({ 2: 5, 15: 5 }) };
    expect(histogramQuantile(0.99, tail)).toEqual({ value: 10, atLeast: true });
    expect(histogramQuantile(0.4, tail)?.atLeast).toBe(false);
  });

  it('uses 0 as the lower edge of a first bucket with a positive bound', () => {
    expect(histogramQuantile(0.5, { bounds: [1, 2], counts: [4, 0, 0] })?.value).toBe(0.5);
  });

  it('returns the bound itself for a first bucket bounded at or below 0', () => {
    expect(histogramQuantile(0.25, { bounds: [0, 1], counts: [5, 5, 0] })).toEqual({ value: 0, atLeast: false });
  });

  it('skips empty leading buckets for q = 0', () => {
    expect(histogramQuantile(0, { bounds: [1, 2, 3], counts: [0, 4, 0, 0] })?.value).toBe(1);
  });

  it('is null for an empty histogram and rejects bad input', () => {
    expect(histogramQuantile(0.5, { bounds: BEYLA_BOUNDS, counts: counts({}) })).toBeNull();
    expect(() => histogramQuantile(1.5, h)).toThrow(RangeError);
    expect(() => histogramQuantile(0.5, { bounds: [1, 2], counts: [1, 2] })).toThrow(/expected 3 bucket counts/);
  });
});

describe('cumulativeDelta', () => {
  const at = (c: number[], start = 1n, time = 10n) => ({ bounds: [1, 2], counts: c, startNs: start, timeNs: time });

  it('subtracts the last point before the window from the last point in it', () => {
    expect(cumulativeDelta(at([1, 2, 3]), at([2, 4, 3], 1n, 20n))?.counts).toEqual([1, 2, 0]);
  });

  it('treats a changed start time as a counter reset', () => {
    // Counts that went up: only the start time tells this is a reset (the decrease rule cannot).
    expect(cumulativeDelta(at([1, 1, 0]), at([5, 5, 5], 15n, 20n))?.counts).toEqual([5, 5, 5]);
  });

  it('treats a decrease as a counter reset even with the same start time', () => {
    expect(cumulativeDelta(at([5, 5, 5]), at([6, 1, 5], 1n, 20n))?.counts).toEqual([6, 1, 5]);
  });

  it('uses the later point alone when the series began inside the window, and null with no point', () => {
    expect(cumulativeDelta(null, at([3, 0, 1]))?.counts).toEqual([3, 0, 1]);
    expect(cumulativeDelta(at([3, 0, 1]), null)).toBeNull();
  });
});

describe('windowDelta (a window starting at or before the series\' first point)', () => {
  const at = (c: number[], start: bigint, time: bigint) => ({ bounds: [1, 2], counts: c, startNs: start, timeNs: time });
  const FROM = 100n;

  it('takes the first point in the window as the baseline when the series started long before the window', () => {
    // A process up since t=1 exported 37,000 observations before the window; only 15 happen inside it.
    expect(windowDelta(null, at([30_000, 7_000, 0], 1n, 110n), at([30_010, 7_005, 0], 1n, 170n), FROM)?.counts).toEqual([10, 5, 0]);
  });

  it('counts the whole series when it started inside the window', () => {
    expect(windowDelta(null, at([1, 0, 0], 120n, 130n), at([4, 2, 1], 120n, 170n), FROM)?.counts).toEqual([4, 2, 1]);
  });

  it('counts the last point alone after a reset inside the window', () => {
    expect(windowDelta(null, at([50, 0, 0], 1n, 110n), at([2, 1, 0], 140n, 170n), FROM)?.counts).toEqual([2, 1, 0]);
  });

  it('uses the point before the window when there is one, and null without a point in the window', () => {
    expect(windowDelta(at([5, 5, 0], 1n, 90n), at([6, 5, 0], 1n, 110n), at([9, 6, 0], 1n, 170n), FROM)?.counts).toEqual([4, 1, 0]);
    expect(windowDelta(at([5, 5, 0], 1n, 90n), null, null, FROM)).toBeNull();
  });
});

describe('mergeHistograms', () => {
  it('sums series with equal bounds bucket by bucket', () => {
    const m = mergeHistograms([
      { bounds: [1, 2], counts: [1, 2, 3] },
      { bounds: [1, 2], counts: [4, 5, 6] },
    ]);
    expect(m).toEqual({ bounds: [1, 2], counts: [5, 7, 9], skipped: 0 });
  });

  it('never mixes bounds that straddle: the bounds with the most observations win, the rest are reported', () => {
    const m = mergeHistograms([
      { bounds: [1, 7], counts: [0, 1, 0] },
      { bounds: [5], counts: [10, 10] },
    ]);
    expect(m).toEqual({ bounds: [5], counts: [10, 10], skipped: 1 });
    expect(mergeHistograms([])).toBeNull();
  });
});
