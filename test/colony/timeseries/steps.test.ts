import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/core/time.js';
import { AUTO_MAX_POINTS, MAX_POINTS, autoStep, formatStep, gridOf, gridRange, onsetStep, pointsFor, stepForInterval, stepOf, stepProblem, stepStartNs } from '../../../src/colony/unified/steps.js';

const d = (t: string) => parseDuration(t);
const END = 1_764_675_000_000_000_000n;

describe('the automatic step', () => {
  it.each([
    ['1h', '1m', 60], ['30m', '30s', 60], ['24h', '15m', 96], ['7d', '2h', 84], ['4h', '3m', 80], ['2h', '2m', 60], ['90s', '1s', 90], ['10m', '10s', 60], ['6h', '5m', 72], ['2d', '30m', 96],
  ])('%s -> %s (%i points)', (window, step, points) => {
    expect(formatStep(autoStep(d(window)))).toBe(step);
    expect(pointsFor(d(window), autoStep(d(window)))).toBe(points);
  });

  it('gives 60-120 points over any window from a minute to 240 days, and no more than 120 below or above', () => {
    for (let s = 60n; s <= 240n * 86_400n; s = (s * 103n) / 100n + 1n) {
      const n = pointsFor(s * 1_000_000_000n, autoStep(s * 1_000_000_000n));
      expect(n, `${s}s`).toBeGreaterThanOrEqual(60);
      expect(n, `${s}s`).toBeLessThanOrEqual(AUTO_MAX_POINTS);
    }
    expect(pointsFor(d('30s'), autoStep(d('30s')))).toBe(30);
    expect(pointsFor(d('3650d'), autoStep(d('3650d')))).toBeLessThanOrEqual(AUTO_MAX_POINTS);
  });

  it('is never finer than a metric reports (jitter forgiven)', () => {
    expect(formatStep(stepForInterval(d('60s')))).toBe('1m');
    expect(formatStep(stepForInterval(60_400_000_000n))).toBe('1m');
    expect(formatStep(stepForInterval(d('15s')))).toBe('15s');
    expect(formatStep(stepForInterval(d('61s') + d('10s')))).toBe('2m');
  });
});

describe('a step asked for', () => {
  it('is refused past the point limit, saying the step that would do', () => {
    expect(stepProblem(d('24h'), d('1s'), '1s')).toBe(`step 1s gives 86400 points over a 1d window, more than ${MAX_POINTS}; give a step of 44s or more, or leave step out (about 60-120 points)`);
    expect(stepProblem(d('24h'), d('44s'), '44s')).toBeNull();
    expect(stepProblem(d('24h'), d('43s'), '43s')).not.toBeNull();
    expect(stepProblem(d('1h'), d('500ms'), '500ms')).toMatch(/finer than the finest step, 1s/);
    expect(stepProblem(d('1h'), d('2h'), '2h')).toBeNull();
  });
});

describe('the grid', () => {
  it('ends at the window end with whole steps, the first step reaching back before the start when the window is not a multiple', () => {
    const g = gridOf({ fromNs: END - d('1h'), toNs: END }, d('1m'));
    expect(g).toEqual({ startNs: END - d('1h'), stepNs: d('1m'), count: 60 });
    const odd = gridOf({ fromNs: END - d('90s'), toNs: END }, d('1m'));
    expect(odd).toEqual({ startNs: END - d('2m'), stepNs: d('1m'), count: 2 });
    expect(gridRange(odd)).toEqual({ fromNs: END - d('2m'), toNs: END });
  });

  it('puts an instant in the half-open step (a, b], as every window is', () => {
    const g = gridOf({ fromNs: END - d('1h'), toNs: END }, d('1m'));
    expect(stepOf(g, END)).toBe(59);
    expect(stepOf(g, END - d('1m'))).toBe(58);
    expect(stepOf(g, END - d('1m') + 1n)).toBe(59);
    expect(stepOf(g, END - d('1h') + 1n)).toBe(0);
    expect(stepOf(g, END - d('1h'))).toBeNull();
    expect(stepOf(g, END + 1n)).toBeNull();
    expect(stepStartNs(g, 35)).toBe(END - d('25m'));
  });

  it('maps an onset (the first worse minute\'s start) to the step of that minute', () => {
    const g = gridOf({ fromNs: END - d('1h'), toNs: END }, d('1m'));
    expect(onsetStep(g, END - d('25m'))).toBe(35);
    const coarse = gridOf({ fromNs: END - d('1h'), toNs: END }, d('5m'));
    expect(onsetStep(coarse, END - d('25m'))).toBe(7);
    expect(onsetStep(coarse, END - d('23m'))).toBe(7);
    // An onset the summary found in the window before (it searches from half-way through it).
    expect(onsetStep(g, END - d('70m'))).toBeNull();
  });

  it('writes steps as time_range does', () => {
    expect(['1s', '90s', '1m', '2h', '1d', '1w', '1500ms'].map((t) => formatStep(d(t)))).toEqual(['1s', '90s', '1m', '2h', '1d', '1w', '1500ms']);
  });
});
