/**
 * Axis ticks (pure): times at round UTC clock intervals with HH:MM labels (HH:MM:SS below a minute,
 * MM-DD from a day), spaced so labels never touch; values at nice numbers from zero or the lowest
 * point up to a nice top. No scale library: these few rules are all a terminal chart needs.
 */
import { extent } from '../../src/core/extent.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
/** Tick intervals a clock reader expects, finest first. */
const TIME_INTERVALS = [S, 2 * S, 5 * S, 10 * S, 15 * S, 30 * S, M, 2 * M, 5 * M, 10 * M, 15 * M, 30 * M, H, 2 * H, 3 * H, 6 * H, 12 * H, D, 2 * D, 7 * D] as const;

export interface TimeTick {
  ms: number;
  /** The character column the tick is at, 0 .. cols-1. */
  col: number;
  label: string;
  /** The column the label starts at: centred on the tick, inside the axis. */
  labelAt: number;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A time's label for ticks `interval` apart, in UTC. */
export function timeLabel(ms: number, interval: number): string {
  const d = new Date(ms);
  if (interval >= D) return `${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  const hm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  return interval < M ? `${hm}:${two(d.getUTCSeconds())}` : hm;
}

/** The column of `ms` on an axis from `fromMs` (column 0) to `toMs` (column cols-1). */
export function timeCol(ms: number, fromMs: number, toMs: number, cols: number): number {
  if (toMs <= fromMs || cols <= 1) return 0;
  return Math.round(((ms - fromMs) / (toMs - fromMs)) * (cols - 1));
}

/**
 * Ticks for an axis of `cols` characters from `fromMs` to `toMs`: the finest round interval whose
 * labels stand at least `gap` cells apart, each tick at a multiple of it (UTC). A label is centred on
 * its tick, or moved inside the axis at either end (`labelAt`).
 */
export function timeTicks(fromMs: number, toMs: number, cols: number, gap = 3): TimeTick[] {
  if (!(toMs > fromMs) || cols < 1) return [];
  const span = toMs - fromMs;
  const fits = (interval: number) => (interval / span) * (cols - 1) >= timeLabel(fromMs, interval).length + gap;
  const interval = TIME_INTERVALS.find(fits);
  if (interval === undefined) return [];
  const ticks: TimeTick[] = [];
  for (let t = Math.ceil(fromMs / interval) * interval; t <= toMs; t += interval) {
    const label = timeLabel(t, interval);
    const col = timeCol(t, fromMs, toMs, cols);
    const labelAt = Math.min(Math.max(0, col - Math.floor(label.length / 2)), cols - label.length);
    const prev = ticks[ticks.length - 1];
    // A label moved inside at an end must still stand apart from its neighbour.
    if (labelAt < 0 || (prev && labelAt <= prev.labelAt + prev.label.length)) continue;
    ticks.push({ ms: t, col, label, labelAt });
  }
  return ticks;
}

/** `v` without the float noise of a multiplication (0.030000000000000002 is 0.03). */
const tidy = (v: number) => Number(v.toPrecision(12));

/** The nice number at or above `v` (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten): a chart's top from zero. */
export function niceCeil(v: number): number {
  if (!(v > 0)) return v === 0 ? 1 : -niceStep(-v);
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= v * (1 - 1e-12)) return tidy(m * p);
  return 10 * p;
}

/** The tick step at or above `v` (1, 2, 2.5 or 5 times a power of ten). */
export function niceStep(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v * (1 - 1e-12)) return tidy(m * p);
  return 10 * p;
}

/**
 * The value range of a chart: counts, ratios and rates from zero up to a nice number over the
 * highest point; others around their points, on multiples of a nice step of about a quarter of their
 * spread (a gauge between 114M and 126M is drawn from 110M to 130M, not from 100M to 200M). A flat
 * or empty series still gets a range.
 */
export function valueRange(values: readonly (number | null)[], fromZero: boolean): { lo: number; hi: number } {
  const seen = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const range = extent(seen);
  if (!range) return { lo: 0, hi: 1 };
  const { min, max } = range;
  if (fromZero && min >= 0) return { lo: 0, hi: max > 0 ? niceCeil(max) : 1 };
  if (max === min) {
    const step = niceStep(Math.abs(min) / 10 || 1);
    return { lo: tidy(Math.floor(min / step) * step), hi: tidy(Math.floor(min / step) * step + step) };
  }
  const step = niceStep((max - min) / 4);
  const lo = tidy(Math.floor(min / step) * step);
  const hi = tidy(Math.ceil(max / step) * step);
  return { lo: fromZero ? Math.min(0, lo) : lo, hi: hi > lo ? hi : lo + step };
}

/** A value on an axis, compact: 3 significant digits, k and M for thousands and millions. */
export function axisNumber(v: number): string {
  const a = Math.abs(v);
  const sig = (x: number) => String(Number(x.toPrecision(3)));
  if (a >= 1e6) return `${sig(v / 1e6)}M`;
  if (a >= 1e4) return `${sig(v / 1e3)}k`;
  return sig(v);
}
