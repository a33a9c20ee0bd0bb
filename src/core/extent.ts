/**
 * The lowest and highest of `values` (null for none), by a loop: spread into Math.min/Math.max, a
 * heatmap's cells (2,000 steps by its bands) pass the engine's argument limit and throw RangeError.
 */
export function extent(values: Iterable<number>): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? { min, max } : null;
}
