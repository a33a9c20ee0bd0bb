import type { HistogramPointRow, NumberPointRow } from '../store/queries/timeseries.js';
import { type BucketCounts, cumulativeDelta, histogramQuantile, mergeHistograms, total } from './histogram.js';
import { type StepGrid, stepOf } from './steps.js';

/**
 * A metric's points as values per step (pure), both backends' points alike. Each series (one
 * process, instance or partition) is read on its own first, then the series of a group are combined
 * per step; a step in which no series of the group says anything is a gap (null), never a zero.
 */

/** How a gauge's series are combined per step. */
export const AGGREGATES = ['avg', 'sum', 'min', 'max'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

/** How a metric is charted: a gauge's (or up-down sum's) values, a counter's rate per second, a histogram's quantile. */
export type MetricShape = 'gauge' | 'rate' | 'quantile';

export function shapeOf(p: Pick<NumberPointRow, 'metricType' | 'monotonic'> | 'histogram'): MetricShape {
  if (p === 'histogram') return 'quantile';
  return p.metricType === 'sum' && p.monotonic ? 'rate' : 'gauge';
}

/**
 * Points per series, oldest first; the series in an order of their own points (first time, then
 * `content`), not of the store's series keys, which differ between backends: sums and merges then
 * add in the same order on both.
 */
function bySeries<T extends { series: string; timeNs: bigint }>(points: readonly T[], content: (p: T) => string): T[][] {
  const out = new Map<string, T[]>();
  for (const p of points) {
    const list = out.get(p.series);
    if (list) list.push(p);
    else out.set(p.series, [p]);
  }
  for (const list of out.values()) list.sort((a, b) => (a.timeNs < b.timeNs ? -1 : a.timeNs > b.timeNs ? 1 : 0));
  const key = (list: T[]) => `${list[0].timeNs.toString().padStart(20, '0')}|${content(list[0])}|${list.length}`;
  return [...out.values()].map((list) => [key(list), list] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, list]) => list);
}

/** How often a metric's series report: the median time between a series' consecutive points; null with no series of two points. */
export function reportingInterval(points: readonly { series: string; timeNs: bigint }[]): bigint | null {
  const gaps: bigint[] = [];
  for (const series of bySeries(points, () => '')) for (let i = 1; i < series.length; i++) gaps.push(series[i].timeNs - series[i - 1].timeNs);
  if (gaps.length === 0) return null;
  gaps.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return gaps[Math.floor(gaps.length / 2)];
}

const numberContent = (p: NumberPointRow) => `${p.value}|${p.group ?? ''}|${p.source}`;

function combine(values: readonly number[], how: Aggregate): number {
  switch (how) {
    case 'sum':
      return values.reduce((a, b) => a + b, 0);
    case 'avg':
      return values.reduce((a, b) => a + b, 0) / values.length;
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
  }
}

/** A gauge per step: each series' last value in the step, combined across the series that have one. */
export function gaugeSteps(points: readonly NumberPointRow[], g: StepGrid, how: Aggregate): (number | null)[] {
  const perStep: number[][] = Array.from({ length: g.count }, () => []);
  for (const series of bySeries(points, numberContent)) {
    const last = new Map<number, number>();
    for (const p of series) {
      const k = stepOf(g, p.timeNs);
      if (k !== null) last.set(k, p.value);
    }
    for (const [k, v] of last) perStep[k].push(v);
  }
  return perStep.map((vs) => (vs.length === 0 ? null : combine(vs, how)));
}

/**
 * What a counter's point adds since the series' point before it: its value for a delta series; for a
 * cumulative one the difference, or the whole value after a reset (a changed start time, a value that
 * went down) or for a series that started inside the grid; null when there is no baseline to count from.
 */
function counterDelta<T extends { startNs: bigint; temporality: string }>(p: T, prev: T | undefined, g: StepGrid, value: (x: T) => number): number | null {
  if (p.temporality === 'delta') return value(p);
  if (prev === undefined) return p.startNs >= g.startNs ? value(p) : null;
  if (p.startNs !== prev.startNs || value(p) < value(prev)) return value(p);
  return value(p) - value(prev);
}

/** A monotonic sum as a rate per second: per step, what the series added in it, summed, over the step's seconds. */
export function rateSteps(points: readonly NumberPointRow[], g: StepGrid): (number | null)[] {
  const added: (number | null)[] = new Array<number | null>(g.count).fill(null);
  for (const series of bySeries(points, numberContent)) {
    series.forEach((p, i) => {
      const k = stepOf(g, p.timeNs);
      if (k === null) return;
      const d = counterDelta(p, series[i - 1], g, (x) => x.value);
      if (d !== null) added[k] = (added[k] ?? 0) + d;
    });
  }
  const seconds = Number(g.stepNs) / 1e9;
  return added.map((v) => (v === null ? null : v / seconds));
}

/** What a histogram point observed since the series' point before it (histogram.ts rules: resets, changed bounds). */
function histogramDelta(p: HistogramPointRow, prev: HistogramPointRow | undefined, g: StepGrid): BucketCounts | null {
  const snap = (x: HistogramPointRow) => ({ bounds: x.bounds, counts: x.counts, startNs: x.startNs, timeNs: x.timeNs });
  if (p.temporality === 'delta') return { bounds: p.bounds, counts: p.counts };
  if (prev === undefined) return p.startNs >= g.startNs ? cumulativeDelta(null, snap(p)) : null;
  return cumulativeDelta(snap(prev), snap(p));
}

/**
 * A histogram's quantile `q` per step: what each series observed in the step, merged (rebucket.ts),
 * then interpolated as Prometheus' histogram_quantile does; a step that observed nothing is a gap.
 */
export function quantileSteps(points: readonly HistogramPointRow[], g: StepGrid, q: number): (number | null)[] {
  const perStep: BucketCounts[][] = Array.from({ length: g.count }, () => []);
  for (const series of bySeries(points, (p) => `${p.counts.join(',')}|${p.bounds.join(',')}`)) {
    series.forEach((p, i) => {
      const k = stepOf(g, p.timeNs);
      if (k === null) return;
      const d = histogramDelta(p, series[i - 1], g);
      if (d !== null && total(d) > 0) perStep[k].push(d);
    });
  }
  return perStep.map((hs) => {
    const merged = hs.length === 0 ? null : mergeHistograms(hs);
    return merged === null ? null : (histogramQuantile(q, merged)?.value ?? null);
  });
}
