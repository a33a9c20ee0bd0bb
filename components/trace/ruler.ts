import { ms } from '../panes/format.js';
import { width } from '../text/width.js';

/**
 * The time ruler over the span bars (pure): 0 at the left, the trace's duration at the right, its
 * half in the middle when there is room, dots between; exactly `cells` cells, on the bars' scale.
 */
export function ruler(traceMs: number, cells: number): string {
  if (cells <= 0) return '';
  const out: string[] = Array(cells).fill('·');
  const put = (text: string, at: number) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text[i];
  };
  const end = ms(traceMs);
  if (width(end) + 2 > cells) return ' '.repeat(Math.max(0, cells - width(end))) + end.slice(0, cells);
  put('0', 0);
  put(end, cells - end.length);
  const mid = ms(traceMs / 2);
  const midAt = Math.round(cells / 2 - mid.length / 2);
  // The middle label keeps a dot either side of it, or is left out.
  if (midAt >= 2 && midAt + mid.length <= cells - end.length - 1) put(mid, midAt);
  return out.join('');
}
