import { fit, padStart } from '../text/width.js';

/**
 * Table columns laid out in terminal cells (pure). When the table is wider than the pane the
 * least important columns go first (highest `priority` number) and the caller says which; the
 * flexible column takes the cells that are left.
 */
export interface Column<R> {
  title: string;
  cells: number;
  /** 0 never drops; higher numbers drop first. */
  priority: number;
  align?: 'left' | 'right';
  /** Takes the spare cells (at least `cells`). */
  flex?: boolean;
  value(row: R): string;
  color?(row: R): string | undefined;
}

export interface TableLayout<R> {
  columns: (Column<R> & { width: number })[];
  dropped: string[];
}

export function layoutTable<R>(columns: Column<R>[], width: number): TableLayout<R> {
  const kept = [...columns];
  const dropped: string[] = [];
  const need = (cs: Column<R>[]) => cs.reduce((n, c) => n + c.cells, 0) + Math.max(0, cs.length - 1);
  while (need(kept) > width) {
    const worst = kept.filter((c) => c.priority > 0).sort((a, b) => b.priority - a.priority)[0];
    if (!worst) break;
    kept.splice(kept.indexOf(worst), 1);
    dropped.push(worst.title.trim());
  }
  // The flex column gives up cells too when the columns that never drop are wider than the pane: a row never wraps.
  const spare = width - need(kept);
  const flex = kept.findIndex((c) => c.flex);
  return { columns: kept.map((c, i) => ({ ...c, width: i === flex ? Math.max(1, c.cells + spare) : c.cells })), dropped: columns.filter((c) => dropped.includes(c.title.trim())).map((c) => c.title.trim()) };
}

export const cell = (text: string, width: number, align: 'left' | 'right' = 'left') => (align === 'right' ? padStart(fit(text, width).trimEnd(), width) : fit(text, width));

/** Says which columns a narrow pane hid and, unless the view already has the whole width, how to get them back. */
export function droppedNote(dropped: readonly string[], zoomed: boolean): string | null {
  return dropped.length ? `(narrow pane: ${dropped.join(', ')} hidden${zoomed ? '' : ' · z: zoom'})` : null;
}
