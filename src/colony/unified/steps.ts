import type { Nanos, TimeRange } from '../../core/time.js';

/**
 * The time axis of a series (pure): which step, how the window is cut into steps, which step an
 * instant falls in. A grid ends where its window ends and has whole steps only: step k covers
 * (start + k·step, start + (k+1)·step], the same half-open convention as every window in the colony,
 * so no step is a partial one that reads as a drop, and the summary's minute grid (which also counts
 * back from the window's end) lines up with a grid of minutes.
 */
export interface StepGrid {
  /** Exclusive lower bound of the first step: the window's end minus count · step (at or before the window's start). */
  startNs: Nanos;
  stepNs: Nanos;
  count: number;
}

const S = 1_000_000_000n;
const M = 60n * S;
const H = 60n * M;
const D = 24n * H;

/**
 * The steps chosen automatically: the ones people read a chart in, close enough together (3s, 3m)
 * that every window from a minute to 240 days has one giving 60-120 points.
 */
export const NICE_STEPS: readonly Nanos[] = [
  S, 2n * S, 3n * S, 5n * S, 10n * S, 15n * S, 30n * S,
  M, 2n * M, 3n * M, 5n * M, 10n * M, 15n * M, 30n * M,
  H, 2n * H, 3n * H, 6n * H, 12n * H,
  D, 2n * D, 7n * D,
];

/** An automatic step gives at least AUTO_MIN_POINTS points and at most AUTO_MAX_POINTS where a nice step can. */
export const AUTO_MIN_POINTS = 60;
export const AUTO_MAX_POINTS = 120;
/** A step asked for must not give more points than this: a chart of them is unreadable and the answer unbounded. */
export const MAX_POINTS = 2000;
/** The finest step: spans and points are not read finer than a second. */
export const MIN_STEP_NS = S;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** How many steps of `stepNs` cover a window `spanNs` long. */
export function pointsFor(spanNs: Nanos, stepNs: Nanos): number {
  return Number(ceilDiv(spanNs, stepNs));
}

/**
 * The automatic step for a window: the widest nice step that still gives AUTO_MIN_POINTS points,
 * when that is at most AUTO_MAX_POINTS (1h: 1m, 60 points; 24h: 15m, 96; 7d: 2h, 84; 4h: 3m, 80;
 * 90s: 1s, 90); else the finest nice step within AUTO_MAX_POINTS (a window under a minute gets
 * seconds); past the widest nice step, the whole seconds that give AUTO_MAX_POINTS.
 */
export function autoStep(spanNs: Nanos): Nanos {
  const wide = [...NICE_STEPS].reverse().find((step) => pointsFor(spanNs, step) >= AUTO_MIN_POINTS);
  if (wide !== undefined && pointsFor(spanNs, wide) <= AUTO_MAX_POINTS) return wide;
  for (const step of NICE_STEPS) if (pointsFor(spanNs, step) <= AUTO_MAX_POINTS) return step;
  return ceilDiv(ceilDiv(spanNs, BigInt(AUTO_MAX_POINTS)), S) * S;
}

/**
 * The finest nice step no finer than a metric's reporting interval (a tenth of slack for jitter: a
 * 60.4 s interval is a minute), so an automatic step never leaves every other step of a gauge empty.
 */
export function stepForInterval(intervalNs: Nanos): Nanos {
  const need = (intervalNs * 9n) / 10n;
  return NICE_STEPS.find((step) => step >= need) ?? NICE_STEPS[NICE_STEPS.length - 1];
}

/**
 * What is wrong with a step asked for over a window, in words that say what is accepted; null when
 * it is fine.
 */
export function stepProblem(spanNs: Nanos, stepNs: Nanos, stepText: string): string | null {
  if (stepNs < MIN_STEP_NS) return `step ${stepText} is finer than the finest step, 1s; give 1s or more, or leave step out (about 60-120 points)`;
  const points = pointsFor(spanNs, stepNs);
  if (points <= MAX_POINTS) return null;
  const least = ceilDiv(ceilDiv(spanNs, BigInt(MAX_POINTS)), S) * S;
  return `step ${stepText} gives ${points} points over a ${formatStep(spanNs)} window, more than ${MAX_POINTS}; give a step of ${formatStep(least)} or more, or leave step out (about 60-120 points)`;
}

/** The grid of whole steps that ends at the window's end and covers all of it. */
export function gridOf(range: TimeRange, stepNs: Nanos): StepGrid {
  const count = pointsFor(range.toNs - range.fromNs, stepNs);
  return { startNs: range.toNs - BigInt(count) * stepNs, stepNs, count };
}

export function gridEndNs(g: StepGrid): Nanos {
  return g.startNs + BigInt(g.count) * g.stepNs;
}

/** The window the grid covers, (start, end]: what a read for it asks for. */
export function gridRange(g: StepGrid): TimeRange {
  return { fromNs: g.startNs, toNs: gridEndNs(g) };
}

/** The step holding instant `t` (steps are half-open, (a, b]), or null outside the grid. */
export function stepOf(g: StepGrid, t: Nanos): number | null {
  if (t <= g.startNs || t > gridEndNs(g)) return null;
  return g.count - 1 - Number((gridEndNs(g) - t) / g.stepNs);
}

/** Where step k begins (its exclusive lower bound). */
export function stepStartNs(g: StepGrid, k: number): Nanos {
  return g.startNs + BigInt(k) * g.stepNs;
}

/**
 * The step in which a change that began at `onsetNs` shows: the step holding the first instant after
 * it (an onset is the start of the summary's first worse minute); null when it lies outside the grid.
 */
export function onsetStep(g: StepGrid, onsetNs: Nanos): number | null {
  return stepOf(g, onsetNs + 1n);
}

const UNITS: readonly [Nanos, string][] = [[7n * D, 'w'], [D, 'd'], [H, 'h'], [M, 'm'], [S, 's'], [1_000_000n, 'ms']];

/** A step as the time_range syntax writes it, in the largest unit it is a whole number of: 1m, 90s, 2h, 1d, 1500ms. */
export function formatStep(ns: Nanos): string {
  for (const [size, unit] of UNITS) if (ns >= size && ns % size === 0n) return `${ns / size}${unit}`;
  return `${Number(ns) / 1e6}ms`;
}
