import type { AgentEvent } from '../../src/agent/events.js';
import type { TreeNode } from '../../src/colony/unified/span-tree.js';
import type { listedTraceJson, treeJson } from '../../src/colony/tools/traces.js';
import type { ServiceChange } from '../../src/colony/unified/summary.js';
import type { TraceOrder } from '../../src/colony/unified/trace-digest.js';
import type { MetricSort } from '../panes/metric-rows.js';
import type { ChartViewState } from '../chart/chart-lines.js';

/** Everything the console shows, in one read-only value that components get from context. */
export type Pane = 'chat' | 'tools' | 'detail';
export type Tab = 'traces' | 'columns' | 'metrics' | 'summary' | 'chart';
export const PANES: readonly Pane[] = ['chat', 'tools', 'detail'];
export const TABS: readonly Tab[] = ['traces', 'columns', 'metrics', 'summary', 'chart'];

export interface ChatEntry {
  role: 'user' | 'assistant' | 'notice' | 'error';
  text: string;
  /** The session numbers of the tool calls this answer's turn made, in call order: what its [n] cite. */
  citations?: number[];
}

export interface ToolCallEntry {
  id: string;
  tool: string;
  server: string;
  args: Record<string, unknown>;
  status: 'running' | 'done' | 'failed' | 'cancelled';
  /** Its number in the session: what answers cite as [n]. */
  seq?: number;
  startedAt: number;
  durationMs?: number;
  text?: string;
  structured?: Record<string, unknown>;
}

/** The structured trace as coral_query_traces returns it: the tool's own types, so the two cannot drift. */
export type TraceNodeJson = TreeNode;
type TreeJson = ReturnType<typeof treeJson>;
/** The trace tools add what an investigator reads first (root, errors, source mix); the list computes what is missing. */
export type TraceJson = TreeJson & Partial<Omit<ReturnType<typeof listedTraceJson>, keyof TreeJson>>;

/** coral_query_summary's structured result. */
export interface SummaryJson {
  from: string;
  to: string;
  previousFrom: string;
  standOut: ServiceChange[];
  services: ServiceChange[];
  events: { time: string; serviceName: string; kind: string; title: string }[];
  lookFirst: string;
  /** Set when nothing is being received at all (then no service stands out). */
  intake?: string | null;
  /** The window as the tool states it; `absolute` when start/end fixed it. */
  window?: { label: string; absolute: boolean };
}

export interface SummaryViewState {
  data: SummaryJson | null;
  /** The window it was asked for ("30m"). */
  timeRange: string;
  error: string | null;
  /** Index into the selectable services (stand-out first, then the rest). */
  cursor: number;
  /** Worked out from a demo's newest minutes only, this many, while its hour loads (replaced once it is in). */
  newest?: number | null;
  /** `/`: the text a service is looked for by (the cursor goes to the first whose name has it), and whether it is being typed. */
  search?: string;
  searching?: boolean;
}

export interface TraceViewState {
  traces: TraceJson[];
  /** null: the trace list; else the open trace. */
  open: number | null;
  listCursor: number;
  /** Row index in the open tree. */
  cursor: number;
  folded: Record<string, true>;
  detail: boolean;
  /** What the last trace query came to when it showed nothing: no traces, or its error. */
  notice: { text: string; error: boolean } | null;
  /** The list's order and filter (`listCursor` indexes the sorted, filtered list). */
  sort: TraceOrder;
  filter: string;
  filtering: boolean;
  /** `/` in an open trace: the text spans are searched for (n/N step through them), and whether it is being typed. */
  search: string;
  searching: boolean;
  /**
   * The colony query that filled the list, read further page by page (null: one trace by id, or no
   * query); `paged` once a page past the first (or a re-sort) came in: a live refresh keeps those traces.
   */
  query?: { tool: string; args: Record<string, unknown>; fetched: number; matched: number; loading: boolean; paged: boolean } | null;
  /** A filter for the next trace list to arrive (Enter on a Metrics row: its service's traces, filtered to the operation). */
  pendingFilter?: string | null;
  /** A linked trace asked for (l) and not answered yet: its result opens over this view. */
  following?: string | null;
  /** The view a linked trace was opened from: Esc goes back to it. */
  from?: TraceViewState | null;
}

/** What can scroll: the chat history, the opened tool call, span details, the help overlay. */
export type Scrollable = 'chat' | 'tool' | 'detail' | 'help';

export interface ConsoleState {
  cols: number;
  rows: number;
  focus: Pane;
  /** The view pane has the whole width (z); leaving it for another pane ends the zoom. */
  zoomed: boolean;
  /** The pane Esc returns to from the chat input. */
  lastPane: Exclude<Pane, 'chat'>;
  /** The question being typed: kept in state so it survives overlays and focus changes. */
  draft: string;
  draftCursor: number;
  /** Where ↑/↓ are in the question history (null: the draft). */
  historyAt: number | null;
  /** Ctrl-C was pressed while idle: a second one quits. */
  quitArmed: boolean;
  /** Lines scrolled: chat from the bottom (0 follows new lines), the others from the top. */
  scroll: Record<Scrollable, number>;
  tab: Tab;
  overlay: 'none' | 'help' | 'command';
  command: { text: string; cursor: number; suggestions: string[] };
  chat: ChatEntry[];
  /** The answer being streamed: only this tail re-renders while text arrives. */
  live: string;
  busy: boolean;
  /** Questions and `:` lines sent while they could not run yet (startup, a running turn): they run in this order. */
  queued: string[];
  history: string[];
  toolCalls: ToolCallEntry[];
  toolCursor: number;
  expandedTool: string | null;
  /** Tool calls of the turn in progress, in call order. */
  turnCalls: string[];
  trace: TraceViewState;
  columns: { search: Record<string, unknown> | null; env: Record<string, unknown> | null; view: 'search' | 'env'; cursor: number; filter: string; filtering: boolean };
  metrics: Record<string, unknown> | null;
  /** The Metrics tab's cursor (into the sorted rows) and order (s cycles). */
  metricsView: { cursor: number; sort: MetricSort };
  summary: SummaryViewState;
  /** The Chart tab: a service's signals over time (coral_query_timeseries), null before any. */
  chart: ChartViewState | null;
  /** `:` lines run, oldest first, and where Up/Down are in them (null: the line being typed). */
  commandHistory: string[];
  commandHistoryAt: number | null;
  /** live: polling a running colony; paused: the user stopped it (p); null: a snapshot (demo). */
  status: { colony: string; source: string; model: string; tokensIn: number; tokensOut: number; loading: number | null; message: string | null; messageError?: boolean; live?: 'on' | 'paused' | null };
}

export type ConsoleAction =
  /** `seq`: a tool call's number in the session (the engine numbers calls in the order they start). */
  | { type: 'agent'; event: AgentEvent; seq?: number; quiet?: boolean; newest?: number }
  /**
   * A live refresh of a view's data: the same query again (or its wider window, `args`), nothing else
   * moves; `args` with an `offset`: a further page of the trace list (or the list in a new order at 0).
   */
  | { type: 'refresh'; tool: string; structured: Record<string, unknown>; args?: Record<string, unknown> }
  /** The next page of the trace list was asked for. */
  | { type: 'trace_more' }
  | { type: 'resize'; cols: number; rows: number }
  | { type: 'focus'; pane: Pane }
  | { type: 'focus_cycle'; delta: 1 | -1 }
  | { type: 'tab'; tab: Tab }
  | { type: 'zoom' }
  | { type: 'overlay'; overlay: ConsoleState['overlay'] }
  | { type: 'command_text'; text: string; cursor?: number; suggestions: string[] }
  | { type: 'notice'; text: string; error?: boolean }
  | { type: 'status'; patch: Partial<ConsoleState['status']> }
  | { type: 'tools_move'; delta: number }
  | { type: 'tools_toggle' }
  | { type: 'trace_move'; delta: number; page?: boolean }
  | { type: 'trace_jump'; to: 'top' | 'bottom' }
  | { type: 'trace_toggle' }
  | { type: 'trace_fold_all'; fold: boolean }
  /** n/N: the next search match, or without a search the next span where an error starts or a slow span. */
  | { type: 'trace_next_flagged'; delta: 1 | -1 }
  /** e: the deepest span where the errors start. */
  | { type: 'trace_error_start' }
  | { type: 'trace_search'; text: string; done?: boolean }
  | { type: 'trace_detail' }
  /** l: a linked trace was asked for; its result opens over the current view. */
  | { type: 'trace_follow'; traceId: string }
  | { type: 'trace_sort' }
  | { type: 'trace_filter'; text: string; done?: boolean }
  | { type: 'summary_move'; delta: number }
  | { type: 'summary_search'; text: string; done?: boolean }
  | { type: 'metrics_move'; delta: number }
  | { type: 'metrics_jump'; to: 'top' | 'bottom' }
  | { type: 'metrics_sort' }
  /** `:chart`: these signals of the service are being asked; their results fill the Chart tab, in this order. */
  | { type: 'chart_open'; service: string; signals: string[] }
  /** The next trace list to arrive opens filtered with this text. */
  | { type: 'trace_pending_filter'; text: string }
  | { type: 'command_history'; delta: 1 | -1 }
  | { type: 'command_history_push'; text: string }
  | { type: 'back' }
  | { type: 'columns_move'; delta: number }
  | { type: 'columns_view' }
  | { type: 'columns_filter'; text: string; done?: boolean }
  | { type: 'history_push'; text: string }
  | { type: 'draft'; text: string; cursor?: number; historyAt?: number | null }
  | { type: 'quit_arm'; armed: boolean }
  | { type: 'scroll'; target: Scrollable; delta: number }
  | { type: 'scroll_set'; target: Scrollable; to: number }
  | { type: 'batch'; actions: ConsoleAction[] }
  | { type: 'clear_session' }
  | { type: 'queued'; items: string[] };
