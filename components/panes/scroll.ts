/**
 * A window on lines that do not fit (pure). `offset` counts lines from the top, or from the bottom
 * when `fromBottom` (the chat follows its newest line at 0). The offset is clamped to the content.
 */
export interface ScrollWindow {
  start: number;
  end: number;
  offset: number;
  /** The position line ("lines 3-20 of 80 · PgUp/PgDn"), or null when everything fits. */
  indicator: string | null;
}

export function scrollWindow(total: number, height: number, offset: number, fromBottom = false, keys = 'PgUp/PgDn'): ScrollWindow {
  if (total <= height) return { start: 0, end: total, offset: 0, indicator: null };
  // One row goes to the position line.
  const room = Math.max(1, height - 1);
  const max = total - room;
  const o = Math.max(0, Math.min(offset, max));
  const start = fromBottom ? max - o : o;
  const end = start + room;
  const more = [start > 0 ? `↑${start}` : '', end < total ? `↓${total - end}` : ''].filter(Boolean).join(' ');
  return { start, end, offset: o, indicator: `lines ${start + 1}-${end} of ${total} · ${more} · ${keys}` };
}
