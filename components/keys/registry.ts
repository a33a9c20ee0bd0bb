import type { ConsoleAction, ConsoleState } from '../state/types.js';
import { summaryServices } from '../state/views.js';
import { reducer } from '../state/reducer.js';
import { copyTarget } from '../trace/copy.js';
import { listedTraces, nextSort } from '../trace/list-view.js';
import { atListEnd, nextPage, reorderedList } from '../trace/paging.js';
import { metricRows, operationFilter, operationName } from '../panes/metric-rows.js';
import { cursorLink } from '../trace/links.js';

/**
 * The one key registry: each binding's id, keys, description and scope drive key handling, the
 * status-bar hints and the `?` help overlay alike, so the three can never disagree.
 */
export type Scope = 'global' | 'chat' | 'tools' | 'traces' | 'columns' | 'metrics' | 'summary' | 'chart' | 'help';

/** Each scope's title, in the order the help overlay and the README list them. */
export const SCOPE_TITLES: readonly [Scope, string][] = [['global', 'Everywhere'], ['chat', 'Chat'], ['tools', 'Tool calls'], ['traces', 'Trace view'], ['columns', 'Columns'], ['metrics', 'Metrics'], ['summary', 'Summary'], ['help', 'This help']];

/** What keys can ask of the engine (the actions context). */
export interface ConsoleActions {
  submit(question: string): void;
  cancel(): void;
  runCommand(line: string): void;
  complete(line: string): string[];
  quit(): void;
  /** Draws the whole screen again (Ctrl-L). */
  redraw(): void;
  /** A service's metrics and its worst traces (Enter in the Summary tab). */
  openService(service: string): void;
  /** A span's linked trace (l in the span details); engines without it ignore the key. */
  openTrace?(traceId: string): void;
  /** What a service's failing or slow requests have in common (b in the Summary and Metrics tabs); engines without it ignore the key. */
  breakdownService?(service: string): void;
  /** Stops or restarts the live refresh of a running colony. */
  setLivePaused(paused: boolean): void;
  /** Puts text on the terminal's clipboard (OSC 52). */
  copy(text: string): void;
  /** A service's worst traces, shown in the trace list (Enter on a Metrics row); engines without it ignore the key. */
  serviceTraces?(service: string): void;
  /** A further page of the trace list, or the list in another order; engines without it ignore the key. */
  moreTraces?(tool: string, args: Record<string, unknown>): void;
}

export interface KeyContext {
  state: ConsoleState;
  dispatch(a: ConsoleAction): void;
  actions: ConsoleActions;
  /** Rows that fit in the detail pane (for page moves). */
  page: number;
}

export interface KeyBinding {
  id: string;
  keys: string[];
  description: string;
  scope: Scope;
  /** Shown in the status bar (the rest only in the help overlay). */
  hint?: boolean;
  /** `key` is the key that fired, for bindings whose keys differ in direction. */
  run(c: KeyContext, key: string): void;
}

/** Moves share one handler: the key says the direction. */
const STEP: Record<string, number> = { j: 1, down: 1, k: -1, up: -1 };

/** Keys the chat input handles itself: listed for the help and the hints, nothing to run here. */
const inInput = () => undefined;
export const handledByInput = (b: KeyBinding) => b.run === inInput;

/** y: the id under the cursor goes to the clipboard, and the status line says which. */
function copyId(c: KeyContext): void {
  const t = copyTarget(c.state.trace);
  if (!t) return c.dispatch({ type: 'status', patch: { message: 'Nothing to copy: no trace here', messageError: false } });
  copied(c, t.id, `${t.kind} id ${t.id}`);
}

/** A move in the trace list; landing on its last row asks for the next page of its colony query. */
function traceMove(c: KeyContext, a: ConsoleAction): void {
  c.dispatch(a);
  readOnAtEnd(reducer(c.state, a), c.dispatch, c.actions);
}

/** The next page of the trace list when its cursor is on its last row (or a filter left it short or empty). */
export function readOnAtEnd(s: ConsoleState, dispatch: (a: ConsoleAction) => void, actions: ConsoleActions): void {
  const t = s.trace;
  const next = nextPage(t);
  if (!next || !actions.moreTraces || !atListEnd(t, listedTraces(t.traces, t.sort, t.filter).length)) return;
  dispatch({ type: 'trace_more' });
  actions.moreTraces(next.tool, next.args);
}

/** Enter on a Metrics row: the service's worst traces, the list filtered to the row's operation. */
function openOperation(c: KeyContext): void {
  const row = metricRows(c.state.metrics, c.state.metricsView.sort)[c.state.metricsView.cursor];
  const service = (c.state.metrics?.args as { service?: unknown } | undefined)?.service;
  if (!row || typeof service !== 'string' || !c.actions.serviceTraces) return;
  const filter = operationFilter(row);
  c.dispatch({ type: 'trace_pending_filter', text: filter });
  c.actions.serviceTraces(service);
  c.dispatch({ type: 'status', patch: { message: `${service}: worst traces${filter ? ` of ${operationName(row)}` : ''}`, messageError: false } });
}

/** Puts text on the clipboard and says what went there. */
function copied(c: KeyContext, text: string, what: string): void {
  c.actions.copy(text);
  c.dispatch({ type: 'status', patch: { message: `Copied ${what}`, messageError: false } });
}

/** y in the tool calls: the result of the call under the cursor, as the model read it. */
function copyResult(c: KeyContext): void {
  const call = c.state.toolCalls[c.state.toolCursor];
  if (!call?.text) return c.dispatch({ type: 'status', patch: { message: call ? 'Nothing to copy: the call has no result yet' : 'Nothing to copy: no tool call yet', messageError: false } });
  copied(c, call.text, `the result of ${call.seq !== undefined ? `[${call.seq}] ` : ''}${call.tool} (${call.text.length} characters)`);
}

/** Ctrl-Y in the chat: the newest answer (the one being written, if any). */
function copyAnswer(c: KeyContext): void {
  const answer = c.state.live.trim() || [...c.state.chat].reverse().find((e) => e.role === 'assistant')?.text;
  if (!answer) return c.dispatch({ type: 'status', patch: { message: 'Nothing to copy: no answer yet', messageError: false } });
  copied(c, answer, `the last answer (${answer.length} characters)`);
}

/** l: the first link of the span under the cursor opens its trace; the status line says when there is none. */
function followLink(c: KeyContext): void {
  const link = cursorLink(c.state.trace);
  if (!link || !c.actions.openTrace) return c.dispatch({ type: 'status', patch: { message: 'No link here: open a trace and put the cursor on a span with links', messageError: false } });
  c.dispatch({ type: 'trace_follow', traceId: link.traceId });
  c.actions.openTrace(link.traceId);
  c.dispatch({ type: 'status', patch: { message: `Opening linked trace ${link.traceId}`, messageError: false } });
}

export const BINDINGS: readonly KeyBinding[] = [
  { id: 'focus.next', keys: ['tab'], description: 'next pane', scope: 'global', hint: true, run: (c) => c.dispatch({ type: 'focus_cycle', delta: 1 }) },
  { id: 'focus.prev', keys: ['shift+tab'], description: 'previous pane', scope: 'global', run: (c) => c.dispatch({ type: 'focus_cycle', delta: -1 }) },
  { id: 'turn.cancel', keys: ['ctrl+c'], description: 'cancel the running turn and what is queued (twice when idle: quit)', scope: 'global', run: (c) => {
    if (c.state.busy || c.state.queued.length > 0) c.actions.cancel();
    else if (c.state.quitArmed) c.actions.quit();
    else c.dispatch({ type: 'quit_arm', armed: true });
  } },
  { id: 'back', keys: ['escape'], description: 'back / close / leave the input', scope: 'global', run: (c) => c.dispatch({ type: 'back' }) },
  { id: 'help', keys: ['?'], description: 'keys and commands', scope: 'global', hint: true, run: (c) => c.dispatch({ type: 'overlay', overlay: c.state.overlay === 'help' ? 'none' : 'help' }) },
  { id: 'command', keys: [':'], description: 'command line', scope: 'global', hint: true, run: (c) => c.dispatch({ type: 'overlay', overlay: 'command' }) },
  { id: 'tab.traces', keys: ['1'], description: 'trace view', scope: 'global', run: (c) => c.dispatch({ type: 'tab', tab: 'traces' }) },
  { id: 'tab.columns', keys: ['2'], description: 'column search', scope: 'global', run: (c) => c.dispatch({ type: 'tab', tab: 'columns' }) },
  { id: 'tab.metrics', keys: ['3'], description: 'metrics table', scope: 'global', run: (c) => c.dispatch({ type: 'tab', tab: 'metrics' }) },
  { id: 'tab.summary', keys: ['4'], description: 'summary: where to look first', scope: 'global', run: (c) => c.dispatch({ type: 'tab', tab: 'summary' }) },
  { id: 'tab.chart', keys: ['5'], description: 'chart: signals over time (:chart <service>)', scope: 'global', run: (c) => c.dispatch({ type: 'tab', tab: 'chart' }) },
  { id: 'zoom', keys: ['z'], description: 'zoom the view to the whole width (z again: both panes)', scope: 'global', run: (c) => c.dispatch({ type: 'zoom' }) },
  { id: 'live.pause', keys: ['p'], description: 'pause / resume the live refresh (a running colony)', scope: 'global', run: (c) => {
    if (!c.state.status.live) return c.dispatch({ type: 'status', patch: { message: 'Nothing to pause: live refresh runs against a running colony (--colony URL)', messageError: false } });
    c.actions.setLivePaused(c.state.status.live === 'on');
  } },
  { id: 'redraw', keys: ['ctrl+l'], description: 'redraw the screen', scope: 'global', run: (c) => c.actions.redraw() },
  { id: 'quit', keys: ['q'], description: 'quit (in the chat input and the other text fields q is typed: Esc leaves them first)', scope: 'global', hint: true, run: (c) => c.actions.quit() },

  { id: 'chat.send', keys: ['return'], description: 'send the question (Enter on empty input: run the recorded investigation)', scope: 'chat', hint: true, run: inInput },
  { id: 'chat.history', keys: ['up', 'down'], description: 'previous / next question', scope: 'chat', run: inInput },
  { id: 'chat.page', keys: ['pageup', 'pagedown'], description: 'scroll the conversation', scope: 'chat', run: (c, key) => c.dispatch({ type: 'scroll', target: 'chat', delta: key === 'pageup' ? c.page : -c.page }) },
  { id: 'chat.ends', keys: ['home', 'end'], description: 'oldest / newest (on an empty input)', scope: 'chat', run: (c, key) => {
    if (!c.state.draft) c.dispatch({ type: 'scroll_set', target: 'chat', to: key === 'home' ? Number.MAX_SAFE_INTEGER : 0 });
  } },

  { id: 'chat.copy', keys: ['ctrl+y'], description: 'copy the last answer (to the terminal clipboard)', scope: 'chat', run: copyAnswer },

  { id: 'tools.move', keys: ['j', 'k', 'down', 'up'], description: 'move', scope: 'tools', hint: true, run: (c, key) => c.dispatch({ type: 'tools_move', delta: STEP[key] }) },
  { id: 'tools.expand', keys: ['return', 'space'], description: 'show arguments and result', scope: 'tools', hint: true, run: (c) => c.dispatch({ type: 'tools_toggle' }) },
  { id: 'tools.page', keys: ['pagedown', 'pageup'], description: 'scroll the opened call', scope: 'tools', run: (c, key) => c.dispatch({ type: 'scroll', target: 'tool', delta: key === 'pagedown' ? c.page : -c.page }) },
  { id: 'tools.copy', keys: ['y'], description: "copy the call's result", scope: 'tools', run: copyResult },
  { id: 'tools.ends', keys: ['g', 'G'], description: 'first / last call', scope: 'tools', run: (c, key) => c.dispatch({ type: 'tools_move', delta: key === 'g' ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER }) },

  { id: 'trace.move', keys: ['j', 'k', 'down', 'up'], description: 'move', scope: 'traces', hint: true, run: (c, key) => traceMove(c, { type: 'trace_move', delta: STEP[key] }) },
  { id: 'trace.page', keys: ['pagedown', 'pageup'], description: 'page (span details when open)', scope: 'traces', run: (c, key) => traceMove(c, { type: 'trace_move', delta: key === 'pagedown' ? c.page : -c.page, page: true }) },
  { id: 'trace.top', keys: ['g'], description: 'first span / trace', scope: 'traces', run: (c) => c.dispatch({ type: 'trace_jump', to: 'top' }) },
  { id: 'trace.bottom', keys: ['G'], description: 'last span / trace', scope: 'traces', run: (c) => traceMove(c, { type: 'trace_jump', to: 'bottom' }) },
  { id: 'trace.fold', keys: ['return', 'space'], description: 'open trace / fold span', scope: 'traces', hint: true, run: (c) => c.dispatch({ type: 'trace_toggle' }) },
  { id: 'trace.collapse', keys: ['['], description: 'collapse all', scope: 'traces', run: (c) => c.dispatch({ type: 'trace_fold_all', fold: true }) },
  { id: 'trace.expand', keys: [']'], description: 'expand all', scope: 'traces', run: (c) => c.dispatch({ type: 'trace_fold_all', fold: false }) },
  { id: 'trace.next', keys: ['n'], description: 'next search match (no search: next span where an error starts, or slow span)', scope: 'traces', hint: true, run: (c) => c.dispatch({ type: 'trace_next_flagged', delta: 1 }) },
  { id: 'trace.prev', keys: ['N'], description: 'previous search match (no search: previous error start or slow span)', scope: 'traces', run: (c) => c.dispatch({ type: 'trace_next_flagged', delta: -1 }) },
  { id: 'trace.errors', keys: ['e'], description: 'jump to where the errors start (the deepest failing span)', scope: 'traces', hint: true, run: (c) => c.dispatch({ type: 'trace_error_start' }) },
  { id: 'trace.detail', keys: ['d'], description: 'span details', scope: 'traces', hint: true, run: (c) => c.dispatch({ type: 'trace_detail' }) },
  { id: 'trace.link', keys: ['l'], description: "open the span's linked trace (Esc comes back)", scope: 'traces', run: followLink },
  { id: 'trace.sort', keys: ['s'], description: 'sort the list: errors / duration / start time (read again from the colony)', scope: 'traces', hint: true, run: (c) => {
    c.dispatch({ type: 'trace_sort' });
    const again = reorderedList(c.state.trace, nextSort(c.state.trace.sort));
    if (!again || !c.actions.moreTraces) return;
    c.dispatch({ type: 'trace_more' });
    c.actions.moreTraces(again.tool, again.args);
  } },
  { id: 'trace.filter', keys: ['/'], description: 'filter the list (service:cart status:error dur>500ms key:value, words); in an open trace: search its spans', scope: 'traces', hint: true, run: (c) => {
    if (c.state.trace.open !== null) c.dispatch({ type: 'trace_search', text: '' });
    else c.dispatch({ type: 'trace_filter', text: c.state.trace.filter });
  } },
  { id: 'trace.copy', keys: ['y'], description: 'copy the trace id (the span id in an open trace)', scope: 'traces', run: copyId },

  { id: 'summary.move', keys: ['j', 'k', 'down', 'up'], description: 'move', scope: 'summary', hint: true, run: (c, key) => c.dispatch({ type: 'summary_move', delta: STEP[key] }) },
  { id: 'summary.page', keys: ['pagedown', 'pageup'], description: 'page', scope: 'summary', run: (c, key) => c.dispatch({ type: 'summary_move', delta: key === 'pagedown' ? c.page : -c.page }) },
  { id: 'summary.ends', keys: ['g', 'G'], description: 'first / last service', scope: 'summary', run: (c, key) => c.dispatch({ type: 'summary_move', delta: key === 'g' ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER }) },
  { id: 'summary.search', keys: ['/'], description: 'find a service by name (Enter keeps, Esc clears)', scope: 'summary', run: (c) => c.dispatch({ type: 'summary_search', text: '' }) },
  { id: 'summary.open', keys: ['return'], description: "open the service's metrics and worst traces", scope: 'summary', hint: true, run: (c) => {
    const svc = summaryServices(c.state.summary.data)[c.state.summary.cursor];
    if (svc) c.actions.openService(svc.service);
  } },
  { id: 'summary.breakdown', keys: ['b'], description: 'breakdown: what its failing or slow requests have in common', scope: 'summary', hint: true, run: (c) => {
    const svc = summaryServices(c.state.summary.data)[c.state.summary.cursor];
    if (svc) c.actions.breakdownService?.(svc.service);
  } },
  { id: 'summary.chart', keys: ['c'], description: 'chart its errors and P95 over time (the Chart tab)', scope: 'summary', run: (c) => {
    const svc = summaryServices(c.state.summary.data)[c.state.summary.cursor];
    if (svc) c.actions.runCommand(`:chart ${svc.service}`);
  } },

  { id: 'metrics.move', keys: ['j', 'k', 'down', 'up'], description: 'move', scope: 'metrics', hint: true, run: (c, key) => c.dispatch({ type: 'metrics_move', delta: STEP[key] }) },
  { id: 'metrics.page', keys: ['pagedown', 'pageup'], description: 'page', scope: 'metrics', run: (c, key) => c.dispatch({ type: 'metrics_move', delta: key === 'pagedown' ? c.page : -c.page }) },
  { id: 'metrics.ends', keys: ['g', 'G'], description: 'first / last operation', scope: 'metrics', run: (c, key) => c.dispatch({ type: 'metrics_jump', to: key === 'g' ? 'top' : 'bottom' }) },
  { id: 'metrics.sort', keys: ['s'], description: 'sort: P95 / error rate / requests / name', scope: 'metrics', hint: true, run: (c) => c.dispatch({ type: 'metrics_sort' }) },
  { id: 'metrics.open', keys: ['return'], description: "the operation's worst traces in the trace list", scope: 'metrics', hint: true, run: openOperation },
  { id: 'metrics.breakdown', keys: ['b'], description: "breakdown of the table's service: what its failing or slow requests have in common", scope: 'metrics', hint: true, run: (c) => {
    const service = (c.state.metrics?.args as { service?: unknown } | undefined)?.service;
    if (typeof service === 'string') c.actions.breakdownService?.(service);
  } },
  { id: 'metrics.chart', keys: ['c'], description: "chart the table's service: errors and P95 over time", scope: 'metrics', run: (c) => {
    const service = (c.state.metrics?.args as { service?: unknown } | undefined)?.service;
    if (typeof service === 'string') c.actions.runCommand(`:chart ${service}`);
  } },

  { id: 'columns.move', keys: ['j', 'k', 'down', 'up'], description: 'move', scope: 'columns', run: (c, key) => c.dispatch({ type: 'columns_move', delta: STEP[key] }) },
  { id: 'columns.filter', keys: ['/'], description: 'filter', scope: 'columns', hint: true, run: (c) => c.dispatch({ type: 'columns_filter', text: '' }) },
  { id: 'columns.view', keys: ['e'], description: 'search results / environment summary', scope: 'columns', hint: true, run: (c) => c.dispatch({ type: 'columns_view' }) },

  { id: 'help.scroll', keys: ['j', 'k', 'down', 'up'], description: 'scroll', scope: 'help', hint: true, run: (c, key) => c.dispatch({ type: 'scroll', target: 'help', delta: STEP[key] }) },
  { id: 'help.page', keys: ['pagedown', 'pageup'], description: 'page', scope: 'help', run: (c, key) => c.dispatch({ type: 'scroll', target: 'help', delta: key === 'pagedown' ? c.page : -c.page }) },
  { id: 'help.ends', keys: ['g', 'G'], description: 'top / bottom', scope: 'help', run: (c, key) => c.dispatch({ type: 'scroll_set', target: 'help', to: key === 'g' ? 0 : Number.MAX_SAFE_INTEGER }) },
];

export function scopeOf(s: ConsoleState): Scope {
  if (s.overlay === 'help') return 'help';
  if (s.focus === 'chat') return 'chat';
  if (s.focus === 'tools') return 'tools';
  return s.tab;
}

/** Keys that type text: while the chat input has focus they belong to it, not to global bindings. */
const printable = (key: string) => key.length === 1;

/** The binding a key triggers in this state, the focused pane's before the global ones. */
export function resolveKey(s: ConsoleState, key: string): KeyBinding | undefined {
  const scope = scopeOf(s);
  const local = BINDINGS.find((b) => b.scope === scope && b.keys.includes(key));
  if (local) return local;
  if (scope === 'chat' && printable(key)) return undefined;
  return BINDINGS.find((b) => b.scope === 'global' && b.keys.includes(key));
}

/** The hints for the status bar: the focused pane's, then the global ones. */
export function hintsFor(s: ConsoleState): { keys: string; description: string }[] {
  const scope = scopeOf(s);
  const local = BINDINGS.filter((b) => b.hint && b.scope === scope);
  // In the chat, printable keys are typed; only ? and : still act, and only on an empty input.
  const acts = (b: KeyBinding) => scope !== 'chat' || !b.keys.every(printable) || (!s.draft && b.keys.every((k) => k === '?' || k === ':'));
  const global = BINDINGS.filter((b) => b.hint && b.scope === 'global' && acts(b));
  return [...local, ...global].map((b) => ({ keys: b.keys.map(label).join('/'), description: b.description }));
}

export function label(key: string): string {
  const names: Record<string, string> = { return: 'Enter', escape: 'Esc', tab: 'Tab', 'shift+tab': 'Shift-Tab', 'ctrl+c': 'Ctrl-C', 'ctrl+l': 'Ctrl-L', 'ctrl+y': 'Ctrl-Y', space: 'Space', up: '↑', down: '↓', pageup: 'PgUp', pagedown: 'PgDn', home: 'Home', end: 'End' };
  return names[key] ?? key;
}

/** ink's (input, key) as one name: 'tab', 'shift+tab', 'ctrl+c', 'return', 'j', 'G', '?'. */
export function keyName(input: string, key: { ctrl?: boolean; shift?: boolean; tab?: boolean; escape?: boolean; return?: boolean; upArrow?: boolean; downArrow?: boolean; pageUp?: boolean; pageDown?: boolean; home?: boolean; end?: boolean }): string {
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  if (key.escape) return 'escape';
  if (key.return) return 'return';
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.ctrl && input) return `ctrl+${input}`;
  if (input === ' ') return 'space';
  return input;
}
