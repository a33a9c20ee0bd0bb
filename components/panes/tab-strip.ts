import { width } from '../text/width.js';

/**
 * The tab strip's labels in `cells` (pure): full names while they fit, then the tabs not shown
 * by their first letters, then by their numbers alone; the shown tab keeps its name longest. Each
 * label is padded by a space either side, and the strip never wraps to a second row.
 */
export function tabLabels<T extends string>(tabs: readonly T[], titles: Record<T, string>, active: T, cells: number): string[] {
  const short = (t: T, letters: number) => {
    const [n, name] = titles[t].split(' ');
    return letters === 0 || !name ? n : `${n} ${name.slice(0, letters)}`;
  };
  for (const [mine, others] of [[99, 99], [99, 3], [99, 1], [99, 0], [3, 0], [0, 0]] as const) {
    const labels = tabs.map((t) => ` ${short(t, t === active ? mine : others)} `);
    if (width(labels.join('')) <= cells) return labels;
  }
  return tabs.map((t) => short(t, 0));
}
