import { width as cells } from '../text/width.js';

export interface Hint {
  keys: string;
  description: string;
}

const SEP = ' · ';
/** In the status bar a hint is its key and the description's head: "Enter send the question", not its parenthesis. */
const hintText = (h: Hint) => `${h.keys} ${h.description.replace(/\s*\(.*$/, '')}`;

/**
 * The hints that fit in `room` cells, whole, in their order (pure). They come most useful first
 * (the focused pane's, then the global ones): a hint that does not fit is dropped (a shorter one
 * after it may still fit), never cut in the middle.
 */
export function fitHints(hints: readonly Hint[], room: number): string {
  const texts = hints.map(hintText);
  const kept = new Set<number>();
  let used = 0;
  for (let i = 0; i < texts.length; i++) {
    const add = cells(texts[i]) + (kept.size ? SEP.length : 0);
    if (used + add > room) continue;
    kept.add(i);
    used += add;
  }
  return texts.filter((_, i) => kept.has(i)).join(SEP);
}
