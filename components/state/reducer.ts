import type { AgentEvent } from '../../src/agent/events.js';
import { historyEntry } from '../panes/history.js';
import { listedTraces, nextSort } from '../trace/list-view.js';
import { parents, visibleRows } from '../trace/rows.js';
import { listQuery, withPage } from '../trace/paging.js';
import { metricRows, nextMetricSort } from '../panes/metric-rows.js';
import { deepestErrorStart, findSpan, flagged, reveal, spanMatches } from '../trace/search.js';
import { type ConsoleAction, type ConsoleState, PANES, type Pane, type SummaryJson, type ToolCallEntry, type TraceJson, type TraceNodeJson } from './types.js';
import { chartResult, chartable, clamp, cursorTrace, refreshTraces, summaryServices, summaryView, traceView } from './views.js';

/** The console's state transitions (pure): agent events in, key actions in, new state out. */
export function initialState(o: { cols: number; rows: number; colony: string; source: string; model: string }): ConsoleState {
  return {
    cols: o.cols,
    rows: o.rows,
    focus: 'chat',
    zoomed: false,
    lastPane: 'detail',
    draft: '',
    draftCursor: 0,
    historyAt: null,
    quitArmed: false,
    scroll: { chat: 0, tool: 0, detail: 0, help: 0 },
    tab: 'traces',
    overlay: 'none',
    command: { text: '', cursor: 0, suggestions: [] },
    chat: [],
    live: '',
    busy: false,
    queued: [],
    history: [],
    toolCalls: [],
    toolCursor: 0,
    expandedTool: null,
    turnCalls: [],
    trace: traceView(),
    columns: { search: null, env: null, view: 'search', cursor: 0, filter: '', filtering: false },
    metrics: null,
    metricsView: { cursor: 0, sort: 'p95' },
    summary: { data: null, timeRange: '30m', error: null, cursor: 0 },
    chart: null,
    commandHistory: [],
    commandHistoryAt: null,
    status: { colony: o.colony, source: o.source, model: o.model, tokensIn: 0, tokensOut: 0, loading: null, message: null, live: null },
  };
}

export const TRACE_TOOLS = new Set(['coral_query_traces', 'coral_get_trace_by_id', 'coral_query_ebpf_traces', 'coral_query_telemetry_spans']);
export const METRIC_TOOLS = new Set(['coral_query_metrics', 'coral_query_ebpf_http_metrics', 'coral_query_ebpf_grpc_metrics', 'coral_query_ebpf_sql_metrics']);
export const SUMMARY_TOOL = 'coral_query_summary';
export const TIMESERIES_TOOL = 'coral_query_timeseries';

const short = (tool: string) => tool.replace(/^coral_|^honeycomb_/, '');
const firstLine = (text: string) => text.split('\n').find((l) => l.trim())?.trim() ?? '';

/** What an empty trace result says, in the view that asked for it. */
export function noTracesText(args: Record<string, unknown>): string {
  const who = typeof args.service === 'string' ? args.service : typeof args.trace_id === 'string' ? `trace ${args.trace_id}` : 'any service';
  const since = typeof args.time_range === 'string' ? args.time_range : '1h';
  // A zero minimum is no limit: it must not send the user looking for a lower --min.
  const slower = typeof args.min_duration_ms === 'number' && args.min_duration_ms > 0 ? ` slower than ${args.min_duration_ms}ms` : '';
  const start = typeof args.start === 'string' ? args.start : null;
  const end = typeof args.end === 'string' ? args.end : null;
  const when = start || end ? `${start ?? `${since} before`} .. ${end ?? 'now'}` : `the last ${since}`;
  return `No traces for ${who}${slower} in ${when} (try a wider --since${slower ? ' or a lower --min' : ''})`;
}

/**
 * Every result lands somewhere visible: structured results feed the detail tabs (traces, metrics,
 * summary, Honeycomb columns); an empty or failed result replaces what the tab showed with what
 * happened. A quiet call (one the console made on the side) fills its tab without showing it.
 */
function absorbResult(s: ConsoleState, tool: string, call: ToolCallEntry | undefined, ok: boolean, text: string, structured: Record<string, unknown> | undefined, quiet = false, newest: number | null = null): ConsoleState {
  const args = call?.args ?? {};
  const show = (tab: ConsoleState['tab']) => (quiet ? s.tab : tab);
  if (!ok) {
    const withStatus = { ...s, status: { ...s.status, message: `✗ ${short(tool)}: ${firstLine(text)}`, messageError: true } };
    if (call?.status === 'cancelled') return { ...s, status: { ...s.status, message: `${short(tool)} cancelled`, messageError: false } };
    if (TRACE_TOOLS.has(tool)) return { ...withStatus, tab: show('traces'), trace: traceView([], { notice: { text: `${short(tool)} failed: ${firstLine(text)}`, error: true }, sort: s.trace.sort }) };
    if (METRIC_TOOLS.has(tool)) return { ...withStatus, tab: show('metrics'), metrics: { error: `${short(tool)} failed: ${firstLine(text)}` } };
    if (tool === SUMMARY_TOOL) return { ...withStatus, tab: show('summary'), summary: { ...s.summary, error: `${short(tool)} failed: ${firstLine(text)}` } };
    if (tool === TIMESERIES_TOOL && chartable(args)) return { ...withStatus, tab: show('chart'), chart: chartResult(s.chart, args, { error: firstLine(text) }) };
    return withStatus;
  }
  if (!structured) return s;
  if (TRACE_TOOLS.has(tool) && Array.isArray(structured.traces)) {
    const traces = structured.traces as TraceJson[];
    const following = s.trace.following;
    if (following && args.trace_id === following) {
      // A followed link opens over the view it came from (Esc goes back); a trace not stored leaves the view as it was.
      const from = { ...s.trace, following: null };
      if (traces.length === 0) return { ...s, trace: from, status: { ...s.status, message: `Linked trace ${following} is not in this colony (the last 24h)`, messageError: false } };
      return { ...s, tab: 'traces', trace: { ...traceView(traces, { openFirst: true, sort: s.trace.sort }), from }, scroll: { ...s.scroll, detail: 0 } };
    }
    if (traces.length === 0) return { ...s, tab: show('traces'), trace: traceView([], { notice: { text: noTracesText(args), error: false }, sort: s.trace.sort }) };
    // The first trace opens at once (Esc shows the list); a list asked for with a filter shows the list, filtered.
    const pending = s.trace.pendingFilter;
    const fresh = traceView(traces, { openFirst: !pending, sort: s.trace.sort });
    return { ...s, tab: show('traces'), trace: { ...fresh, filter: pending ?? '', query: listQuery(tool, args, traces, structured.matchedTraces) }, scroll: { ...s.scroll, detail: 0 } };
  }
  if (METRIC_TOOLS.has(tool)) return { ...s, tab: show('metrics'), metrics: { ...structured, args }, metricsView: { ...s.metricsView, cursor: 0 } };
  if (tool === SUMMARY_TOOL && Array.isArray(structured.services)) {
    const range = typeof args.time_range === 'string' ? args.time_range : '30m';
    return { ...s, tab: show('summary'), summary: { ...summaryView(s.summary, structured as unknown as SummaryJson, range, false), newest } };
  }
  if (tool === TIMESERIES_TOOL && chartable(args) && Array.isArray(structured.series)) return { ...s, tab: show('chart'), chart: chartResult(s.chart, args, { structured }) };
  if (tool === 'honeycomb_search_columns') return { ...s, tab: 'columns', columns: { ...s.columns, search: structured, view: 'search', cursor: 0 } };
  if (tool === 'honeycomb_get_environment_summary') return { ...s, tab: 'columns', columns: { ...s.columns, env: structured, view: 'env', cursor: 0 } };
  return s;
}

/** A live refresh: the view that query filled takes the new data in place; no tab changes. */
function refresh(s: ConsoleState, tool: string, structured: Record<string, unknown>, args: Record<string, unknown> = {}): ConsoleState {
  if (TRACE_TOOLS.has(tool) && Array.isArray(structured.traces) && typeof args.offset === 'number') return { ...s, trace: withPage(s.trace, tool, args, structured.traces as TraceJson[], structured.matchedTraces) };
  if (TRACE_TOOLS.has(tool) && Array.isArray(structured.traces)) return { ...s, trace: refreshTraces(s.trace, structured.traces as TraceJson[]) };
  if (METRIC_TOOLS.has(tool) && s.metrics && !s.metrics.error) {
    const metrics = { ...structured, args: s.metrics.args };
    return { ...s, metrics, metricsView: metricsCursor(s, metrics, s.metricsView.cursor) };
  }
  if (tool === SUMMARY_TOOL && Array.isArray(structured.services)) {
    // The first look's summary from a demo's newest minutes becomes the whole window's: a new view,
    // from its top (where to look first), not the same one kept under the cursor.
    const range = typeof args.time_range === 'string' ? args.time_range : s.summary.timeRange;
    return { ...s, summary: { ...summaryView(s.summary, structured as unknown as SummaryJson, range, !s.summary.newest), timeRange: range, newest: null } };
  }
  // A chart's signal asked again: taken in place only by the chart that asked for it.
  if (tool === TIMESERIES_TOOL && Array.isArray(structured.series) && s.chart) {
    const chart = chartResult(s.chart, args, { structured }, true);
    return chart === s.chart ? s : { ...s, chart };
  }
  return s;
}

function agent(s: ConsoleState, ev: AgentEvent, seq?: number, quiet?: boolean, newest?: number): ConsoleState {
  switch (ev.type) {
    case 'user_message':
      // A new question brings the chat back to its newest lines.
      return { ...s, busy: true, live: '', turnCalls: [], chat: [...s.chat, { role: 'user', text: ev.text }], scroll: { ...s.scroll, chat: 0 } };
    case 'text_delta':
      return { ...s, live: s.live + ev.text };
    case 'tool_call_started':
      return {
        ...s,
        // Words the model said before calling tools are settled: they leave the live tail.
        chat: s.live.trim() ? [...s.chat, { role: 'assistant', text: s.live.trim() }] : s.chat,
        live: '',
        turnCalls: [...s.turnCalls, ev.id],
        toolCalls: [...s.toolCalls, { id: ev.id, tool: ev.tool, server: ev.server, args: ev.args, status: 'running', seq, startedAt: Date.now() }],
        toolCursor: s.toolCalls.length,
        status: { ...s.status, message: null, messageError: false },
      };
    case 'tool_call_finished': {
      // The hub reports a call stopped by Ctrl-C as failed with the text "<tool> failed: cancelled": not a failure to show.
      const status = ev.ok ? ('done' as const) : /^cancel|failed: cancelled$/i.test(ev.text.trim()) ? ('cancelled' as const) : ('failed' as const);
      const toolCalls = s.toolCalls.map((c) => (c.id === ev.id ? { ...c, status, durationMs: ev.durationMs, text: ev.text, structured: ev.structured } : c));
      return absorbResult({ ...s, toolCalls }, ev.tool, toolCalls.find((c) => c.id === ev.id), ev.ok, ev.text, ev.structured, quiet, newest ?? null);
    }
    case 'message_end':
      return { ...s, live: '', chat: [...s.chat, { role: 'assistant', text: ev.text.trim(), citations: s.turnCalls.map((id, i) => s.toolCalls.find((c) => c.id === id)?.seq ?? i + 1) }] };
    case 'usage':
      return { ...s, status: { ...s.status, tokensIn: s.status.tokensIn + ev.inputTokens, tokensOut: s.status.tokensOut + ev.outputTokens } };
    case 'warning':
      return { ...s, chat: [...s.chat, { role: 'notice', text: ev.message }] };
    case 'error':
      return { ...s, chat: [...s.chat, { role: 'error', text: ev.message }] };
    case 'turn_end': {
      const tail = s.live.trim() ? [...s.chat, { role: 'assistant' as const, text: s.live.trim() }] : s.chat;
      const cancelled = ev.reason === 'cancelled';
      const note = cancelled ? [{ role: 'notice' as const, text: 'Cancelled. Ask again, or press Enter to continue.' }] : [];
      const toolCalls = cancelled ? s.toolCalls.map((c) => (c.status === 'running' && s.turnCalls.includes(c.id) ? { ...c, status: 'cancelled' as const } : c)) : s.toolCalls;
      return { ...s, busy: false, live: '', chat: [...tail, ...note], toolCalls };
    }
  }
}

/** The trace open in the view, or null (the list is shown). */
const openTree = (s: ConsoleState) => (s.trace.open === null ? null : s.trace.traces[s.trace.open]) ?? null;

function openRows(s: ConsoleState) {
  const t = openTree(s);
  return t ? visibleRows(t.roots, s.trace.folded, s.trace.cursor) : [];
}

/** The cursor on `node` in the open trace, its folded ancestors unfolded. */
function cursorOn(s: ConsoleState, node: TraceNodeJson | null, message?: string): ConsoleState {
  const t = openTree(s);
  if (!t || !node) return message ? { ...s, status: { ...s.status, message, messageError: false } } : s;
  const folded = reveal(t.roots, s.trace.folded, node);
  const cursor = visibleRows(t.roots, folded, s.trace.cursor).findIndex((r) => r.node === node);
  return { ...s, trace: { ...s.trace, folded, cursor: Math.max(0, cursor) } };
}

/** The Metrics tab's cursor at `at`, kept on a row of `metrics` in the tab's order. */
function metricsCursor(s: ConsoleState, metrics: Record<string, unknown> | null, at: number): ConsoleState['metricsView'] {
  return { ...s.metricsView, cursor: clamp(at, 0, Math.max(0, metricRows(metrics, s.metricsView.sort).length - 1)) };
}

function focusOn(s: ConsoleState, pane: Pane): ConsoleState {
  return { ...s, focus: pane, lastPane: pane === 'chat' ? s.lastPane : pane, zoomed: s.zoomed && pane === 'detail' };
}

export function reducer(s: ConsoleState, a: ConsoleAction): ConsoleState {
  switch (a.type) {
    case 'agent':
      return agent(s, a.event, a.seq, a.quiet, a.newest);
    case 'refresh':
      return refresh(s, a.tool, a.structured, a.args);
    case 'trace_more':
      return s.trace.query ? { ...s, trace: { ...s.trace, query: { ...s.trace.query, loading: true } } } : s;
    case 'resize':
      return { ...s, cols: a.cols, rows: a.rows };
    case 'focus':
      return focusOn(s, a.pane);
    case 'focus_cycle':
      return focusOn(s, PANES[(PANES.indexOf(s.focus) + a.delta + PANES.length) % PANES.length]);
    case 'tab':
      return { ...focusOn(s, 'detail'), tab: a.tab };
    case 'zoom':
      return s.zoomed ? { ...s, zoomed: false } : { ...focusOn(s, 'detail'), zoomed: true };
    case 'overlay':
      return { ...s, overlay: a.overlay, command: a.overlay === 'command' ? { text: ':', cursor: 1, suggestions: [] } : s.command, commandHistoryAt: a.overlay === 'command' ? null : s.commandHistoryAt, scroll: a.overlay === 'help' ? { ...s.scroll, help: 0 } : s.scroll };
    case 'draft':
      return { ...s, draft: a.text, draftCursor: a.cursor ?? a.text.length, historyAt: a.historyAt === undefined ? s.historyAt : a.historyAt };
    case 'quit_arm':
      return { ...s, quitArmed: a.armed, status: { ...s.status, message: a.armed ? 'Press Ctrl-C again to quit' : s.quitArmed ? null : s.status.message, messageError: false } };
    case 'scroll':
      return { ...s, scroll: { ...s.scroll, [a.target]: Math.max(0, s.scroll[a.target] + a.delta) } };
    case 'scroll_set':
      return s.scroll[a.target] === a.to ? s : { ...s, scroll: { ...s.scroll, [a.target]: Math.max(0, a.to) } };
    case 'batch':
      return a.actions.reduce(reducer, s);
    case 'command_text':
      return { ...s, command: { text: a.text, cursor: a.cursor ?? a.text.length, suggestions: a.suggestions } };
    case 'notice':
      return { ...s, chat: [...s.chat, { role: a.error ? 'error' : 'notice', text: a.text }] };
    case 'status':
      return { ...s, status: { ...s.status, ...a.patch } };
    case 'tools_move':
      return { ...s, toolCursor: clamp(s.toolCursor + a.delta, 0, Math.max(0, s.toolCalls.length - 1)) };
    case 'tools_toggle': {
      const id = s.toolCalls[s.toolCursor]?.id ?? null;
      return { ...s, expandedTool: s.expandedTool === id ? null : id, scroll: { ...s.scroll, tool: 0 } };
    }
    case 'trace_move': {
      if (s.trace.detail && a.page) return { ...s, scroll: { ...s.scroll, detail: Math.max(0, s.scroll.detail + a.delta) } };
      if (s.trace.open === null) return { ...s, trace: { ...s.trace, listCursor: clamp(s.trace.listCursor + a.delta, 0, Math.max(0, listedTraces(s.trace.traces, s.trace.sort, s.trace.filter).length - 1)) } };
      return { ...s, trace: { ...s.trace, cursor: clamp(s.trace.cursor + a.delta, 0, Math.max(0, openRows(s).length - 1)) } };
    }
    case 'trace_jump': {
      const last = (s.trace.open === null ? listedTraces(s.trace.traces, s.trace.sort, s.trace.filter).length : openRows(s).length) - 1;
      const to = a.to === 'top' ? 0 : Math.max(0, last);
      return { ...s, trace: s.trace.open === null ? { ...s.trace, listCursor: to } : { ...s.trace, cursor: to } };
    }
    case 'trace_toggle': {
      if (s.trace.open === null) {
        const open = cursorTrace(s.trace);
        if (open === null) return s;
        return { ...s, trace: { ...s.trace, open, cursor: 0, folded: {}, detail: false, search: '', searching: false } };
      }
      const row = openRows(s)[s.trace.cursor];
      if (!row?.hasChildren) return s;
      const folded = { ...s.trace.folded };
      if (folded[row.node.spanId]) delete folded[row.node.spanId];
      else folded[row.node.spanId] = true;
      return { ...s, trace: { ...s.trace, folded } };
    }
    case 'trace_fold_all': {
      const t = openTree(s);
      if (!t) return s;
      const folded: Record<string, true> = {};
      // Collapsing all keeps the roots' first level visible, the way a file tree collapses.
      if (a.fold) for (const id of parents(t.roots)) if (!t.roots.some((r) => r.spanId === id)) folded[id] = true;
      return { ...s, trace: { ...s.trace, folded, cursor: 0 } };
    }
    case 'trace_next_flagged': {
      const t = openTree(s);
      if (!t) return s;
      const q = s.trace.search;
      const found = findSpan(t.roots, openRows(s)[s.trace.cursor]?.node, a.delta, q ? (n) => spanMatches(n, q) : flagged);
      return cursorOn(s, found, q ? `No span matches "${q}"` : undefined);
    }
    case 'trace_error_start': {
      const t = openTree(s);
      return t ? cursorOn(s, deepestErrorStart(t.roots), 'No span failed in this trace') : s;
    }
    case 'trace_search': {
      const t = openTree(s);
      if (!t) return s;
      const next = { ...s, trace: { ...s.trace, search: a.text, searching: !a.done } };
      // Each key typed moves to the first match, as a pager's incremental search does.
      return a.text && !a.done ? cursorOn(next, findSpan(t.roots, undefined, 1, (n) => spanMatches(n, a.text))) : next;
    }
    case 'trace_detail':
      return s.trace.open === null ? s : { ...s, trace: { ...s.trace, detail: !s.trace.detail }, scroll: { ...s.scroll, detail: 0 } };
    case 'trace_follow':
      return { ...s, trace: { ...s.trace, following: a.traceId.toLowerCase() } };
    case 'trace_sort':
      // Sorting is about the list: an open trace closes to show it.
      return { ...s, trace: { ...s.trace, sort: nextSort(s.trace.sort), open: null, detail: false, listCursor: 0 } };
    case 'trace_filter':
      return { ...s, trace: { ...s.trace, filter: a.text, filtering: !a.done, open: null, detail: false, listCursor: 0 } };
    case 'metrics_move':
      return { ...s, metricsView: metricsCursor(s, s.metrics, s.metricsView.cursor + a.delta) };
    case 'metrics_jump':
      return { ...s, metricsView: metricsCursor(s, s.metrics, a.to === 'top' ? 0 : Number.MAX_SAFE_INTEGER) };
    case 'metrics_sort':
      return { ...s, metricsView: { sort: nextMetricSort(s.metricsView.sort), cursor: 0 } };
    case 'chart_open':
      return { ...s, tab: 'chart', chart: { service: a.service, signals: a.signals, results: {}, errors: {} } };
    case 'trace_pending_filter':
      return { ...s, trace: { ...s.trace, pendingFilter: a.text } };
    case 'summary_search': {
      const q = a.text.trim().toLowerCase();
      const at = q ? summaryServices(s.summary.data).findIndex((c) => c.service.toLowerCase().includes(q)) : -1;
      return { ...s, summary: { ...s.summary, search: a.text, searching: !a.done, cursor: at >= 0 ? at : s.summary.cursor } };
    }
    case 'summary_move':
      return { ...s, summary: { ...s.summary, cursor: clamp(s.summary.cursor + a.delta, 0, Math.max(0, summaryServices(s.summary.data).length - 1)) } };
    case 'command_history': {
      const h = historyEntry(s.commandHistory, s.commandHistoryAt, a.delta);
      // Down past the newest entry gives back an empty line, still a `:` line.
      const text = h.text || ':';
      return { ...s, commandHistoryAt: h.at, command: { text, cursor: text.length, suggestions: [] } };
    }
    case 'command_history_push':
      return { ...s, commandHistory: [...s.commandHistory.filter((h) => h !== a.text), a.text].slice(-100), commandHistoryAt: null };
    case 'back':
      if (s.overlay !== 'none') return { ...s, overlay: 'none' };
      // Esc leaves the input for the pane the user was in before.
      if (s.focus === 'chat') return { ...s, focus: s.lastPane };
      if (s.focus === 'detail' && s.tab === 'traces' && s.trace.open !== null && s.trace.search) return { ...s, trace: { ...s.trace, search: '', searching: false } };
      if (s.focus === 'detail' && s.tab === 'traces' && s.trace.detail) return { ...s, trace: { ...s.trace, detail: false } };
      if (s.focus === 'detail' && s.tab === 'traces' && s.trace.from) return { ...s, trace: s.trace.from };
      if (s.focus === 'detail' && s.tab === 'traces' && s.trace.open !== null && s.trace.traces.length > 1) return { ...s, trace: { ...s.trace, open: null } };
      if (s.focus === 'detail' && s.tab === 'traces' && s.trace.open === null && s.trace.filter) return { ...s, trace: { ...s.trace, filter: '', filtering: false, listCursor: 0 } };
      if (s.focus === 'detail' && s.tab === 'summary' && s.summary.search) return { ...s, summary: { ...s.summary, search: '', searching: false } };
      if (s.focus === 'tools' && s.expandedTool) return { ...s, expandedTool: null };
      return focusOn(s, 'chat');
    case 'columns_move':
      return { ...s, columns: { ...s.columns, cursor: Math.max(0, s.columns.cursor + a.delta) } };
    case 'columns_view':
      return { ...s, columns: { ...s.columns, view: s.columns.view === 'search' ? 'env' : 'search', cursor: 0 } };
    case 'columns_filter':
      return { ...s, columns: { ...s.columns, filter: a.text, filtering: !a.done, cursor: 0 } };
    case 'history_push':
      return { ...s, history: [...s.history.filter((h) => h !== a.text), a.text].slice(-100) };
    case 'queued':
      return { ...s, queued: a.items };
    case 'clear_session':
      return { ...s, chat: [], toolCalls: [], toolCursor: 0, expandedTool: null, live: '', trace: traceView([], { sort: s.trace.sort }), metrics: null, metricsView: { ...s.metricsView, cursor: 0 }, summary: { data: null, timeRange: '30m', error: null, cursor: 0 }, chart: null, scroll: { chat: 0, tool: 0, detail: 0, help: 0 } };
  }
}
