import { TRACE_ORDERS, type TraceOrder, digestTrace, sourceMix } from '../../src/colony/unified/trace-digest.js';
import { ms } from '../panes/format.js';
import { type Column, type TableLayout, layoutTable } from '../panes/table.js';
import type { TraceJson } from '../state/types.js';
import { fit, take, width } from '../text/width.js';
import { TAG_COLORS } from '../theme/palette.js';
import { filterMatches, parseFilter } from './filter.js';

/**
 * The trace list as an investigator reads it (pure): sorted (s cycles errors / duration / start
 * time), filtered (/: filter.ts), one row of cells per trace.
 */
/** s cycles the tool's own orders (`coral_query_traces` order), so the list and the tool say the same. */
export const nextSort = (s: TraceOrder): TraceOrder => TRACE_ORDERS[(TRACE_ORDERS.indexOf(s) + 1) % TRACE_ORDERS.length];

export interface ListedDigest {
  rootService: string;
  rootName: string;
  errorCount: number;
  errorServices: string[];
  servicesByErrors: string[];
  sourceMix: string;
}

const digests = new WeakMap<TraceJson, ListedDigest>();

/** What a row shows about a trace: from the tool's result, or worked out from the tree when it lacks it. */
export function digestOf(t: TraceJson): ListedDigest {
  const known = digests.get(t);
  if (known) return known;
  let d: ListedDigest;
  if (t.rootService !== undefined && t.rootName !== undefined && t.errorCount !== undefined && t.errorServices && t.servicesByErrors && t.sourceMix) {
    d = { rootService: t.rootService, rootName: t.rootName, errorCount: t.errorCount, errorServices: t.errorServices, servicesByErrors: t.servicesByErrors, sourceMix: t.sourceMix };
  } else {
    const g = digestTrace(t);
    d = { rootService: g.rootService, rootName: g.rootName, errorCount: g.errorCount, errorServices: g.errorServices, servicesByErrors: g.services, sourceMix: sourceMix(g) };
  }
  digests.set(t, d);
  return d;
}

const recent = (a: TraceJson, b: TraceJson) => {
  const x = BigInt(a.startNs);
  const y = BigInt(b.startNs);
  return x === y ? a.traceId.localeCompare(b.traceId) : x > y ? -1 : 1;
};
const slower = (a: TraceJson, b: TraceJson) => b.durationMs - a.durationMs;
const failing = (a: TraceJson, b: TraceJson) => Number(digestOf(b).errorCount > 0) - Number(digestOf(a).errorCount > 0);
const ORDER: Record<TraceOrder, (a: TraceJson, b: TraceJson) => number> = {
  errors: (a, b) => failing(a, b) || slower(a, b) || recent(a, b),
  duration: (a, b) => slower(a, b) || recent(a, b),
  recent,
};

/** Whether a trace passes the `/` filter (filter.ts: `service:cart status:error dur>500ms key:value`, words). */
export function traceMatches(t: TraceJson, filter: string): boolean {
  const terms = parseFilter(filter);
  return terms.length === 0 || filterMatches(t, terms, digestOf(t).errorCount);
}

const lastListed = new WeakMap<TraceJson[], { sort: TraceOrder; filter: string; rows: number[] }>();

/** The list as shown: indices into `traces`, filtered then sorted (remembered for the last sort and filter). */
export function listedTraces(traces: TraceJson[], sort: TraceOrder, filter: string): number[] {
  const hit = lastListed.get(traces);
  if (hit && hit.sort === sort && hit.filter === filter) return hit.rows;
  const rows = traces.map((_, i) => i).filter((i) => traceMatches(traces[i], filter)).sort((a, b) => ORDER[sort](traces[a], traces[b]));
  lastListed.set(traces, { sort, filter, rows });
  return rows;
}

/** "10:30:05" from the trace's ISO start (UTC, as the tools report it). */
export const startTime = (t: TraceJson) => t.start.slice(11, 19);

/** A row's columns; the root operation takes the spare cells; the least useful drop first on a narrow pane. */
export const TRACE_COLUMNS: Column<TraceJson>[] = [
  { title: 'start', cells: 8, priority: 3, value: startTime },
  { title: 'root', cells: 16, priority: 0, flex: true, value: (t) => `${digestOf(t).rootService}: ${digestOf(t).rootName}` },
  { title: 'duration', cells: 8, priority: 0, align: 'right', value: (t) => ms(t.durationMs) },
  { title: 'spans', cells: 5, priority: 5, align: 'right', value: (t) => String(t.spanCount) },
  { title: 'err', cells: 4, priority: 0, align: 'right', value: (t) => (digestOf(t).errorCount ? `✗${digestOf(t).errorCount}` : ''), color: (t) => (digestOf(t).errorCount ? TAG_COLORS.error : undefined) },
  { title: 'services', cells: 18, priority: 4, value: (t) => digestOf(t).servicesByErrors.join(', ') },
  { title: 'sources', cells: 9, priority: 6, value: (t) => digestOf(t).sourceMix },
];

/**
 * The list's columns in `paneWidth` cells: the root operation takes the spare cells up to its longest
 * text; past that they go to the services touched, so a wide pane shows every service.
 */
export function traceTable(traces: TraceJson[], paneWidth: number): TableLayout<TraceJson> {
  const t = layoutTable(TRACE_COLUMNS, paneWidth);
  const root = t.columns.find((c) => c.title === 'root');
  const services = t.columns.find((c) => c.title === 'services');
  if (!root || !services) return t;
  const rootCol = TRACE_COLUMNS.find((c) => c.title === 'root') as Column<TraceJson>;
  const needed = Math.max(rootCol.cells, ...traces.map((x) => width(rootCol.value(x))));
  const spare = Math.max(0, root.width - needed);
  return { ...t, columns: t.columns.map((c) => (c === root ? { ...c, width: c.width - spare } : c === services ? { ...c, width: c.width + spare } : c)) };
}

export interface Segment {
  text: string;
  color?: string;
}

/** The services touched, those with errors first and in the error colour, as exactly `cells` cells. */
export function serviceSegments(t: TraceJson, cells: number): Segment[] {
  const d = digestOf(t);
  const joined = d.servicesByErrors.join(', ');
  const shown = fit(joined, cells);
  // What is left of `joined` before the ellipsis or the padding.
  const kept = width(joined) <= cells ? joined.length : take(joined, cells - 1).length;
  const failed = new Set(d.errorServices);
  const out: Segment[] = [];
  let at = 0;
  d.servicesByErrors.forEach((s, i) => {
    if (i > 0) {
      out.push({ text: joined.slice(at, Math.min(at + 2, kept)) });
      at += 2;
    }
    out.push({ text: joined.slice(Math.min(at, kept), Math.min(at + s.length, kept)), color: failed.has(s) ? TAG_COLORS.error : undefined });
    at += s.length;
  });
  out.push({ text: shown.slice(kept) });
  return out.filter((x) => x.text);
}
