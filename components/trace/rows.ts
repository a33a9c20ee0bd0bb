import { flatten } from '../../src/colony/unified/span-tree.js';
import type { TraceNodeJson } from '../state/types.js';

/**
 * The visible rows of a span tree (pure): depth-first, skipping the children of folded spans,
 * with the ├─ │ └─ prefix of each row. Windowing then draws only the rows that fit.
 */
export interface TreeRow {
  node: TraceNodeJson;
  depth: number;
  prefix: string;
  hasChildren: boolean;
  folded: boolean;
}

/**
 * The last rows computed per tree: the reducer, the key handler and the view all ask for the same
 * (roots, folded) pair, and a 10,000-span tree should be flattened once per change, not per asker.
 */
const lastRows = new WeakMap<TraceNodeJson[], { folded: Record<string, true>; rows: TreeRow[] }>();

/**
 * `cursor` is where a fold is looked for first: a fold happens at the cursor, and reading the span
 * of every row of a 100,000-span tree to find it costs tens of ms (each row is a cache miss).
 */
export function visibleRows(roots: TraceNodeJson[], folded: Record<string, true>, cursor = -1): TreeRow[] {
  const hit = lastRows.get(roots);
  if (hit?.folded === folded) return hit.rows;
  // Whether ids are unique is settled with the first flatten, so that no fold pays for it.
  const hint = uniqueIds(roots) ? cursor : -1;
  const rows = (hit && refold(hit.rows, hit.folded, folded, hint)) ?? flattenRows(roots, folded);
  lastRows.set(roots, { folded, rows });
  return rows;
}

function flattenRows(roots: TraceNodeJson[], folded: Record<string, true>, from?: { depth: number; lead: string }): TreeRow[] {
  const isFolded = (n: TraceNodeJson) => folded[n.spanId] === true;
  return flatten(roots, isFolded, from).map((r) => ({ ...r, hasChildren: r.node.children.length > 0, folded: isFolded(r.node) }));
}

const unique = new WeakMap<TraceNodeJson[], boolean>();

/** Whether no span id appears twice in the tree (then the span at the cursor is the only row to fold). */
function uniqueIds(roots: TraceNodeJson[]): boolean {
  let known = unique.get(roots);
  if (known === undefined) {
    const seen = new Set<string>();
    let count = 0;
    const stack = [...roots];
    while (stack.length) {
      const n = stack.pop() as TraceNodeJson;
      seen.add(n.spanId);
      count++;
      for (const c of n.children) stack.push(c);
    }
    known = seen.size === count;
    unique.set(roots, known);
  }
  return known;
}

/**
 * How two fold sets differ: not at all (two copies of one state: the key router and React each run
 * the reducer), by one span id, or by more (null).
 */
function foldChange(before: Record<string, true>, after: Record<string, true>): { id: string | null } | null {
  const nb = Object.keys(before).length;
  const na = Object.keys(after).length;
  const [small, large] = nb <= na ? [before, after] : [after, before];
  const extra = Math.abs(na - nb);
  if (extra > 1) return null;
  for (const k of Object.keys(small)) if (!large[k]) return null;
  return { id: extra === 0 ? null : (Object.keys(large).find((k) => !small[k]) as string) };
}

/**
 * The rows after one fold or unfold, from the rows before it (pure): the folded span's subtree is
 * cut out, or the unfolded span's visible subtree put in, instead of flattening a 100,000-span tree
 * again. Null when the change is not one span's fold (the caller flattens the whole tree).
 */
function refold(rows: TreeRow[], before: Record<string, true>, after: Record<string, true>, cursor: number): TreeRow[] | null {
  const change = foldChange(before, after);
  if (change === null) return null;
  const id = change.id;
  if (id === null) return rows;
  const at: number[] = [];
  if (rows[cursor]?.node.spanId === id) at.push(cursor);
  else for (let i = 0; i < rows.length; i++) if (rows[i].node.spanId === id) at.push(i);
  // A span hidden under a folded parent changes nothing visible; a repeated id folds every copy.
  if (at.length === 0) return rows;
  if (at.length > 1) return null;
  const i = at[0];
  const row = rows[i];
  if (after[id]) {
    let end = i + 1;
    while (end < rows.length && rows[end].depth > row.depth) end++;
    // concat copies the rows around the fold in bulk (spreading 100,000 rows cost tens of ms).
    return rows.slice(0, i).concat([{ ...row, folded: true }], rows.slice(end));
  }
  const lead = `${row.prefix.slice(0, -2)}${row.prefix.endsWith('└─') ? '   ' : '│  '}`;
  const subtree = flattenRows(row.node.children, after, { depth: row.depth + 1, lead });
  return rows.slice(0, i).concat([{ ...row, folded: false }], subtree, rows.slice(i + 1));
}

/** Every span id with children: what `[` folds. */
export function parents(roots: TraceNodeJson[]): string[] {
  const out: string[] = [];
  const walk = (n: TraceNodeJson) => {
    if (n.children.length > 0) out.push(n.spanId);
    n.children.forEach(walk);
  };
  roots.forEach(walk);
  return out;
}

/** The first row of a window of `height` rows that keeps `cursor` visible, scrolling as little as possible. */
export function windowStart(total: number, cursor: number, height: number, previous = 0): number {
  if (total <= height) return 0;
  let start = Math.min(previous, total - height);
  if (cursor < start) start = cursor;
  if (cursor >= start + height) start = cursor - height + 1;
  return Math.max(0, start);
}

/** Where a span's bar sits on the trace's shared ruler of `width` cells: [before, bar, after]. */
export function barCells(offsetMs: number, durationMs: number, traceMs: number, width: number): [number, number, number] {
  if (traceMs <= 0 || width <= 0) return [Math.max(0, width), 0, 0];
  const start = Math.min(width - 1, Math.floor((offsetMs / traceMs) * width));
  const len = Math.max(1, Math.min(width - start, Math.round((durationMs / traceMs) * width)));
  return [start, len, width - start - len];
}

/** The bar as text (exports and tests); the console draws it as coloured background cells. */
export function timingBar(offsetMs: number, durationMs: number, traceMs: number, width: number): string {
  const [before, bar, after] = barCells(offsetMs, durationMs, traceMs, width);
  return `${' '.repeat(before)}${'█'.repeat(bar)}${' '.repeat(after)}`;
}
