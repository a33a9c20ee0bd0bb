import { describe, expect, it } from 'vitest';
import type { HistogramPointRow, NumberPointRow } from '../../../src/colony/store/queries/timeseries.js';
import { gaugeSteps, quantileSteps, rateSteps, reportingInterval, shapeOf } from '../../../src/colony/unified/metric-steps.js';
import { gridOf } from '../../../src/colony/unified/steps.js';

const S = 1_000_000_000n;
const M = 60n * S;
const END = 1_764_675_000_000_000_000n;
/** Five steps of a minute ending at END. */
const grid = gridOf({ fromNs: END - 5n * M, toNs: END }, M);
const at = (step: number, sec = 30) => grid.startNs + BigInt(step) * M + BigInt(sec) * S;

function num(series: string, timeNs: bigint, value: number, o: Partial<NumberPointRow> = {}): NumberPointRow {
  return { series, source: 'otlp', group: null, metricType: 'gauge', temporality: 'unspecified', monotonic: false, unit: 'By', startNs: grid.startNs - 3600n * S, timeNs, value, ...o };
}
const counter = (series: string, timeNs: bigint, value: number, o: Partial<NumberPointRow> = {}) => num(series, timeNs, value, { metricType: 'sum', temporality: 'cumulative', monotonic: true, unit: '{request}', ...o });

describe('a gauge per step', () => {
  it('takes each series\' last value in the step, combines the series that have one, and leaves the steps none has as gaps', () => {
    const points = [num('a', at(0, 10), 1), num('a', at(0, 50), 3), num('b', at(0, 20), 5), num('a', at(2), 4), num('b', at(4), 8)];
    expect(gaugeSteps(points, grid, 'avg')).toEqual([4, null, 4, null, 8]);
    expect(gaugeSteps(points, grid, 'sum')).toEqual([8, null, 4, null, 8]);
    expect(gaugeSteps(points, grid, 'max')).toEqual([5, null, 4, null, 8]);
    expect(gaugeSteps(points, grid, 'min')).toEqual([3, null, 4, null, 8]);
  });

  it('reads the same whatever order the store returns the points in', () => {
    const points = [num('a', at(0, 10), 1), num('a', at(0, 50), 3), num('b', at(1), 0.1), num('c', at(1), 0.2), num('d', at(1), 0.3)];
    expect(gaugeSteps([...points].reverse(), grid, 'sum')).toEqual(gaugeSteps(points, grid, 'sum'));
  });

  it('ignores points outside the grid (the lookback before it)', () => {
    expect(gaugeSteps([num('a', grid.startNs, 9), num('a', at(1), 2)], grid, 'avg')).toEqual([null, 2, null, null, null]);
  });
});

describe('a counter as a rate per second', () => {
  it('counts what each series added since its point before, the point before the grid included, over the step\'s seconds', () => {
    const points = [counter('a', grid.startNs - 10n * S, 100), counter('a', at(0), 160), counter('a', at(1), 280), counter('a', at(3), 280), counter('b', at(1), 50), counter('b', at(2), 110)];
    // Step 1: a added 120, b has no point before its first (started before the grid): nothing known of it.
    expect(rateSteps(points, grid)).toEqual([1, 2, 1, 0, null]);
  });

  it('after a reset (a new start, or a value that went down) counts the new value whole', () => {
    const start2 = at(1, 0);
    const points = [counter('a', at(0), 500), counter('a', at(1), 30, { startNs: start2 }), counter('a', at(2), 20), counter('a', at(3), 80)];
    expect(rateSteps(points, grid)).toEqual([null, 0.5, 20 / 60, 1, null]);
  });

  it('counts a series that started inside the grid from its start, and takes delta points as they are', () => {
    const points = [counter('a', at(2), 90, { startNs: at(2, 0) }), counter('d', at(4), 30, { temporality: 'delta' }), counter('d', at(4, 40), 30, { temporality: 'delta' })];
    expect(rateSteps(points, grid)).toEqual([null, null, 1.5, null, 1]);
  });
});

function hist(series: string, timeNs: bigint, counts: number[], o: Partial<HistogramPointRow> = {}): HistogramPointRow {
  return { series, source: 'ebpf', group: null, temporality: 'cumulative', unit: 's', startNs: grid.startNs - 3600n * S, timeNs, bounds: [0.1, 0.2, 0.4], counts, ...o };
}

describe('a histogram\'s quantile per step', () => {
  it('interpolates each step\'s observations, merged across series, as histogram_quantile does', () => {
    const points = [hist('a', grid.startNs - 5n * S, [0, 0, 0, 0]), hist('a', at(0), [10, 0, 0, 0]), hist('a', at(1), [10, 10, 0, 0]), hist('b', at(1), [0, 0, 0, 0], { startNs: at(1, 0) })];
    const p50 = quantileSteps(points, grid, 0.5);
    expect(p50[0]).toBeCloseTo(0.05, 9);
    expect(p50[1]).toBeCloseTo(0.15, 9);
    expect(p50.slice(2)).toEqual([null, null, null]);
  });

  it('is a gap where the histograms observed nothing (a quantile of nothing does not exist)', () => {
    const points = [hist('a', at(0), [5, 0, 0, 0], { startNs: at(0, 0) }), hist('a', at(1), [5, 0, 0, 0], { startNs: at(0, 0) })];
    expect(quantileSteps(points, grid, 0.95)[1]).toBeNull();
    expect(quantileSteps(points, grid, 0.95)[0]).toBeCloseTo(0.095, 9);
  });
});

describe('how a metric is charted', () => {
  it('a monotonic sum as a rate, a gauge or up-down sum as values, a histogram as a quantile', () => {
    expect(shapeOf({ metricType: 'sum', monotonic: true })).toBe('rate');
    expect(shapeOf({ metricType: 'sum', monotonic: false })).toBe('gauge');
    expect(shapeOf({ metricType: 'gauge', monotonic: false })).toBe('gauge');
    expect(shapeOf('histogram')).toBe('quantile');
  });

  it('reads the reporting interval as the median time between a series\' points', () => {
    expect(reportingInterval([num('a', at(0), 1), num('a', at(1), 1), num('a', at(2), 1), num('b', at(0, 0), 1), num('b', at(0, 15), 1)])).toBe(M);
    expect(reportingInterval([num('a', at(0), 1)])).toBeNull();
  });
});
