import type { ServiceChange } from '../../src/colony/unified/summary.js';
import type { TraceOrder } from '../../src/colony/unified/trace-digest.js';
import { listedTraces } from '../trace/list-view.js';
import { chartKey } from '../../src/console/commands.js';
import type { ChartViewState, TimeseriesJson } from '../chart/chart-lines.js';
import type { SummaryJson, SummaryViewState, ToolCallEntry, TraceJson, TraceViewState } from './types.js';

/**
 * The detail views' data transitions (pure): a new query result replaces a view; a live refresh of
 * the same query updates it in place, keeping what the user was looking at.
 */
export const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/** A fresh trace view: these traces, the first listed one open (or the list), nothing folded; the sort stays. */
export function traceView(traces: TraceJson[] = [], o: { openFirst?: boolean; notice?: TraceViewState['notice']; sort?: TraceOrder } = {}): TraceViewState {
  const sort = o.sort ?? 'errors';
  const open = o.openFirst && traces.length > 0 ? (listedTraces(traces, sort, '')[0] ?? null) : null;
  return { traces, open, listCursor: 0, cursor: 0, folded: {}, detail: false, notice: o.notice ?? null, sort, filter: '', filtering: false, search: '', searching: false };
}

/** A call of one of these tools still running, if any: an empty view then says its answer is on the way. */
export function runningCall(calls: readonly ToolCallEntry[], tools: ReadonlySet<string>): ToolCallEntry | undefined {
  return calls.find((c) => c.status === 'running' && tools.has(c.tool));
}

/** A load fraction as shown: "42%". */
export const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** How far a demo load has come, e.g. "Loading the demo (42%)". */
export const demoLoading = (loading: number) => `Loading the demo (${percent(loading)})`;

/** A sentence to add to a view that waits for the load; empty when nothing loads. */
export const loadingNote = (loading: number | null) => (loading === null ? '' : ` The demo is loading (${percent(loading)}).`);

/** The trace index under the list cursor, or null. */
export function cursorTrace(t: TraceViewState): number | null {
  return listedTraces(t.traces, t.sort, t.filter)[t.listCursor] ?? null;
}

/**
 * The same query again, with what has arrived since: the open trace stays open (its folds too)
 * and the list cursor stays on the trace it was on; a trace that dropped out of the result while
 * open is kept, so the view never changes under the user's eyes.
 */
export function refreshTraces(t: TraceViewState, fresh: TraceJson[]): TraceViewState {
  const openId = t.open === null ? null : t.traces[t.open]?.traceId;
  const atId = t.traces[cursorTrace(t) ?? -1]?.traceId;
  const freshIds = new Set(fresh.map((x) => x.traceId));
  // Pages read past the query's first keep their traces: a live refresh asks for the first page only.
  const paged = t.query?.paged ? t.traces.filter((x) => !freshIds.has(x.traceId)) : [];
  const withPages = [...fresh, ...paged];
  const kept = openId && !withPages.some((x) => x.traceId === openId) ? [...withPages, t.traces[t.open as number]] : withPages;
  const open = openId ? kept.findIndex((x) => x.traceId === openId) : null;
  const listed = listedTraces(kept, t.sort, t.filter);
  const at = atId ? listed.findIndex((i) => kept[i].traceId === atId) : -1;
  const listCursor = at >= 0 ? at : clamp(t.listCursor, 0, Math.max(0, listed.length - 1));
  return { ...t, traces: kept, open, listCursor, notice: kept.length === 0 ? t.notice : null };
}

/** The services the Summary tab lists and Enter opens: the stand-out ones first, then the rest. */
const selectable = new WeakMap<SummaryJson, ServiceChange[]>();
export function summaryServices(d: SummaryJson | null): ServiceChange[] {
  if (!d) return [];
  const known = selectable.get(d);
  if (known) return known;
  const top = new Set(d.standOut.map((c) => c.service));
  const list = [...d.standOut, ...d.services.filter((c) => !top.has(c.service))];
  selectable.set(d, list);
  return list;
}

/** A summary result; on a refresh the cursor stays on the service it was on. */
export function summaryView(prev: SummaryViewState, data: SummaryJson, timeRange: string, refresh: boolean): SummaryViewState {
  const list = summaryServices(data);
  if (!refresh) return { data, timeRange, error: null, cursor: 0 };
  const was = summaryServices(prev.data)[prev.cursor]?.service;
  const at = list.findIndex((c) => c.service === was);
  return { ...prev, data, error: null, cursor: at >= 0 ? at : clamp(prev.cursor, 0, Math.max(0, list.length - 1)) };
}

/** A time series the Chart tab draws as lines: not a latency heatmap (its bands are not a line; the tool call shows it). */
export const chartable = (args: Record<string, unknown>): boolean => args.signal !== 'latency_heatmap';

/**
 * A time series result (or its failure) in the Chart tab: a signal the shown chart asked for fills
 * its place; any other (a call the model made) opens a chart of its own. `refresh`: only the chart
 * that asked takes it (a live refresh never opens a chart).
 */
export function chartResult(chart: ChartViewState | null, args: Record<string, unknown>, r: { structured?: Record<string, unknown>; error?: string }, refresh = false): ChartViewState | null {
  const key = chartKey(args);
  const service = typeof args.service === 'string' ? args.service : 'every service';
  const mine = chart !== null && chart.service === service && chart.signals.includes(key);
  if (!mine && refresh) return chart;
  const base: ChartViewState = mine ? chart : { service, signals: [key], results: {}, errors: {} };
  const results = { ...base.results };
  const errors = { ...base.errors };
  if (r.structured) {
    results[key] = r.structured as unknown as TimeseriesJson;
    delete errors[key];
  } else {
    // A failed refresh keeps what is shown; a failed first answer says why.
    if (refresh && results[key]) return base;
    errors[key] = r.error ?? 'failed';
  }
  return { ...base, results, errors };
}
