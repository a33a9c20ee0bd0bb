/**
 * Line charts in braille (pure): each character of the plot is a 2x4 grid of dots (U+2800 block),
 * so a plot `cols` x `rows` characters is `2*cols` x `4*rows` dots. Points are placed left to right
 * over the whole width, joined by lines; a point that is null (nothing was sent) joins nothing, so a
 * gap stays a gap and is never drawn as a zero. Several series share the grid: each cell remembers the
 * last series that set a dot in it (its colour), and series after the first are drawn with sparser
 * dot patterns, so they stay apart without colour (NO_COLOR).
 */

/** Dot bits by [sub-row from the top][sub-column]: dots 1-2-3-7 on the left, 4-5-6-8 on the right. */
const DOT = [
  [0x01, 0x08],
  [0x02, 0x10],
  [0x04, 0x20],
  [0x40, 0x80],
] as const;

export const brailleChar = (bits: number): string => String.fromCodePoint(0x2800 + bits);

export interface BrailleGrid {
  cols: number;
  rows: number;
  /** Dot bits per cell, [row][col]. */
  bits: number[][];
  /** The series that last set a dot in the cell, -1 for none. */
  owner: number[][];
}

/** The dot column of point `i` of `n` over `cols` characters: the first at the left edge, the last at the right. */
export function dotX(i: number, n: number, cols: number): number {
  const dots = cols * 2;
  if (n <= 1) return 0;
  return Math.round((i / (n - 1)) * (dots - 1));
}

/** The dot row of `v` between `lo` (the bottom row) and `hi` (the top), counted from the top; outside the range clamps. */
export function dotY(v: number, lo: number, hi: number, rows: number): number {
  const dots = rows * 4;
  if (!(hi > lo)) return dots - 1;
  const f = (Math.min(Math.max(v, lo), hi) - lo) / (hi - lo);
  return dots - 1 - Math.round(f * (dots - 1));
}

/** Every `every`th dot column of a series is drawn: 1 is a solid line, 2 dotted, 3 sparser. */
const patternOf = (series: number): number => 1 + (series % 3);

/** A series' mark in a legend, drawn with its own pattern (two cells). */
export function legendMark(series: number): string {
  const every = patternOf(series);
  let left = 0;
  let right = 0;
  for (let x = 0; x < 4; x++) {
    if (x % every !== 0) continue;
    if (x < 2) left |= DOT[1][x];
    else right |= DOT[1][x - 2];
  }
  return brailleChar(left) + brailleChar(right);
}

export function emptyGrid(cols: number, rows: number): BrailleGrid {
  return {
    cols,
    rows,
    bits: Array.from({ length: rows }, () => new Array<number>(cols).fill(0)),
    owner: Array.from({ length: rows }, () => new Array<number>(cols).fill(-1)),
  };
}

function setDot(g: BrailleGrid, x: number, y: number, series: number): void {
  if (x < 0 || y < 0 || x >= g.cols * 2 || y >= g.rows * 4) return;
  const c = x >> 1;
  const r = y >> 2;
  g.bits[r][c] |= DOT[y & 3][x & 1];
  g.owner[r][c] = series;
}

function column(g: BrailleGrid, x: number, y0: number, y1: number, series: number): void {
  for (let y = Math.min(y0, y1); y <= Math.max(y0, y1); y++) setDot(g, x, y, series);
}

/**
 * Draws one series into `g` between `lo` and `hi`, point i at dot column `xs[i]` (default: spread
 * evenly over the width). Consecutive points that are both present are
 * joined (a steep rise is a solid column of dots); a point between two gaps is one dot.
 */
export function plotSeries(g: BrailleGrid, points: readonly (number | null)[], lo: number, hi: number, series = 0, xs?: readonly number[]): BrailleGrid {
  const n = points.length;
  const every = patternOf(series);
  const at = (i: number) => ({ x: xs?.[i] ?? dotX(i, n, g.cols), y: dotY(points[i] as number, lo, hi, g.rows) });
  const present = (i: number) => i >= 0 && i < n && points[i] !== null && Number.isFinite(points[i]);
  for (let i = 0; i < n; i++) {
    if (!present(i)) continue;
    const a = at(i);
    // A point between two gaps is one dot, whatever the pattern: it is all there is of it.
    if (!present(i - 1) && !present(i + 1)) setDot(g, a.x, a.y, series);
    if (!present(i + 1)) continue;
    const b = at(i + 1);
    if (b.x === a.x) {
      if (a.x % every === 0) column(g, a.x, a.y, b.y, series);
      continue;
    }
    const y = (x: number) => a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x);
    for (let x = a.x; x <= b.x; x++) {
      if (x % every !== 0) continue;
      // Each column covers the line from half a column before to half after: joined without holes.
      const from = Math.round(y(Math.max(a.x, x - 0.5)));
      const to = Math.round(y(Math.min(b.x, x + 0.5)));
      column(g, x, from, to, series);
    }
  }
  return g;
}

/** The grid's rows as text; a cell with no dot is a space. */
export const gridRows = (g: BrailleGrid): string[] => g.bits.map((row) => row.map((b) => (b === 0 ? ' ' : brailleChar(b))).join(''));
