import { formatMs } from '../../src/core/format.js';
import { cut } from '../text/width.js';

/** Small display helpers shared by the panes; text is measured in cells (text/width.ts). */
export { cut, fit, padEnd, padStart, width, wrap } from '../text/width.js';
export { plural } from '../../src/core/format.js';

/** formatMs, but long durations in seconds so they fit a narrow column. */
export function ms(v: number): string {
  return v < 10_000 ? formatMs(v) : `${(v / 1000).toFixed(1)}s`;
}

export function shortArgs(args: Record<string, unknown>, cells: number): string {
  const s = Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ');
  return cut(s, cells);
}
