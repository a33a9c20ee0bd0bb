import stringWidth from 'string-width';
import { memo } from './cache.js';

/**
 * widest-line 6 (ink measures every text node with it on every frame), with the width of each
 * line remembered across frames: the same answer, without re-segmenting unchanged rows.
 * The bundle swaps it in for ink (scripts/ink-fast-output.mjs).
 */
export const lineWidth = memo((line: string) => stringWidth(line), 10_000);

export default function widestLine(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, lineWidth(line));
  return widest;
}
