import type { TraceJson, TraceViewState } from '../state/types.js';
import { clamp, traceView } from '../state/views.js';

/**
 * The trace list read from the colony page by page (pure): moving onto its last row asks for the
 * next page of the same query; s asks for the list again in the new order. A page answers only
 * the list it was asked for: one that arrives after the list changed is dropped.
 */
export const PAGE = 50;

export type TraceQuery = NonNullable<TraceViewState['query']>;

const orderOf = (args: Record<string, unknown>) => (typeof args.order === 'string' ? args.order : 'errors');

/** The same list: the same tool arguments but for where it starts, how many and (for a re-sort) the order. */
function sameList(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const key = (x: Record<string, unknown>) => JSON.stringify(Object.entries(x).filter(([k]) => !['offset', 'max_traces', 'order'].includes(k)).sort(([p], [q]) => p.localeCompare(q)));
  return key(a) === key(b);
}

/** The query a list result came from, for further pages; null for one trace by id. */
export function listQuery(tool: string, args: Record<string, unknown>, traces: TraceJson[], matched: unknown): TraceQuery | null {
  if (args.trace_id !== undefined) return null;
  return { tool, args, fetched: traces.length, matched: typeof matched === 'number' ? matched : traces.length, loading: false, paged: false };
}

/** The next page's call, or null: every trace is in, a page is on its way, or the list is not a colony query. */
export function nextPage(t: TraceViewState): { tool: string; args: Record<string, unknown> } | null {
  const q = t.query;
  if (!q || q.loading || q.fetched >= q.matched) return null;
  return { tool: q.tool, args: { ...q.args, max_traces: PAGE, offset: q.fetched, order: orderOf(q.args) } };
}

/** The list again from its start in `order` (s), or null when the list is not a colony query. */
export function reorderedList(t: TraceViewState, order: string): { tool: string; args: Record<string, unknown> } | null {
  const q = t.query;
  return q ? { tool: q.tool, args: { ...q.args, max_traces: PAGE, offset: 0, order } } : null;
}

/** Whether the list cursor is on the last row, where the next page is asked for. */
export const atListEnd = (t: TraceViewState, listed: number) => t.open === null && t.listCursor >= listed - 1;

/** A page answered: appended after the traces already read (offset > 0) or the list in a new order (offset 0). */
export function withPage(t: TraceViewState, tool: string, args: Record<string, unknown>, traces: TraceJson[], matched: unknown): TraceViewState {
  const q = t.query;
  if (!q || q.tool !== tool || !sameList(q.args, args)) return t;
  const offset = typeof args.offset === 'number' ? args.offset : 0;
  if (offset === 0) {
    if (orderOf(args) !== t.sort) return t;
    const fresh = traceView(traces, { sort: t.sort });
    const query = listQuery(tool, args, traces, matched);
    return { ...fresh, filter: t.filter, query: query && { ...query, paged: true }, listCursor: clamp(t.listCursor, 0, Math.max(0, traces.length - 1)) };
  }
  if (offset !== q.fetched || orderOf(args) !== orderOf(q.args)) return q.loading ? { ...t, query: { ...q, loading: false } } : t;
  const have = new Set(t.traces.map((x) => x.traceId));
  const added = traces.filter((x) => !have.has(x.traceId));
  // An empty page means the list ended sooner than counted (traces aged out of the window): no more pages.
  const total = traces.length === 0 ? q.fetched : typeof matched === 'number' ? matched : q.matched;
  return { ...t, traces: added.length ? [...t.traces, ...added] : t.traces, notice: null, query: { ...q, fetched: q.fetched + traces.length, matched: total, loading: false, paged: true } };
}
