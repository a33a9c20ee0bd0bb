/**
 * A series as one line of block characters, lowest ▁ to highest █, one cell per point; a point
 * with no value (nothing was sent) is a space, never drawn as a zero. Pure, in core so that the CLI's
 * tables and the console's views draw series alike.
 */
/** Counts, ratios and rates are drawn from zero; a gauge, a latency or a quantile between its own lowest and highest point. */
export function fromZero(shape: string): boolean {
  return shape === 'count' || shape === 'ratio' || shape === 'rate' || shape === 'heatmap';
}

export const SPARK_BLOCKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;

export interface SparkScale {
  /** The value drawn as ▁ (default: the smallest point; counts and rates pass 0). */
  min?: number;
  /** The value drawn as █ (default: the largest point). */
  max?: number;
}

/**
 * `values` as a sparkline of exactly `values.length` cells, from `min` to `max` (default: the
 * smallest and the largest point). Counts and rates pass `min: 0`, so 9 and 10 do not read as nothing
 * and all. A flat series (nothing to scale by) is drawn at ▁ when it is 0 and at ▄ otherwise.
 */
export function sparkline(values: readonly (number | null)[], scale: SparkScale = {}): string {
  const seen = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (seen.length === 0) return ' '.repeat(values.length);
  const lo = scale.min ?? Math.min(...seen);
  const hi = scale.max ?? Math.max(...seen);
  const top = SPARK_BLOCKS.length - 1;
  return values.map((v) => {
    if (v === null || !Number.isFinite(v)) return ' ';
    if (hi <= lo) return v === 0 ? SPARK_BLOCKS[0] : SPARK_BLOCKS[3];
    const at = Math.round(((Math.min(Math.max(v, lo), hi) - lo) / (hi - lo)) * top);
    return SPARK_BLOCKS[at];
  }).join('');
}
