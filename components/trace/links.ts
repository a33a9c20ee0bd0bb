import type { SpanLink } from '../../src/colony/store/span-links.js';
import type { TraceViewState } from '../state/types.js';
import { visibleRows } from './rows.js';

/**
 * What `l` follows (pure): the first link of the span under the cursor in an open trace that leads
 * to another trace (a link into the same trace is already on screen). A colony of an older coral
 * sends no links: none then.
 */
export function cursorLink(t: TraceViewState): SpanLink | null {
  if (t.open === null) return null;
  const trace = t.traces[t.open];
  const row = trace ? visibleRows(trace.roots, t.folded)[t.cursor] : undefined;
  return (row?.node.links ?? []).find((l) => l.traceId !== trace.traceId) ?? null;
}
