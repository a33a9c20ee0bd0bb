import { useRef } from 'react';
import { windowStart } from '../trace/rows.js';

/** Pane sizes whose window is remembered: enough for a resize away and back. */
const SIZES_KEPT = 4;

/**
 * The first row of a sticky window over a list: it moves only as far as it must to keep rows
 * `top`..`cursor` in sight. The start is remembered per pane size, so a resize away and back shows
 * the rows it showed before, as a full redraw at that size does.
 */
export function useStickyStart(total: number, cursor: number, height: number, size: string, top = cursor): number {
  const kept = useRef<{ last: number; bySize: Map<string, number> }>({ last: 0, bySize: new Map() }).current;
  const remembered = kept.bySize.get(size);
  const from = remembered !== undefined && top >= remembered && cursor < remembered + height ? remembered : kept.last;
  const start = Math.max(0, Math.min(windowStart(total, cursor, height, from), top));
  kept.last = start;
  kept.bySize.delete(size);
  kept.bySize.set(size, start);
  if (kept.bySize.size > SIZES_KEPT) kept.bySize.delete(kept.bySize.keys().next().value as string);
  return start;
}
