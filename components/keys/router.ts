import { historyEntry } from '../panes/history.js';
import { applyKey, type EditKey } from '../input/line-edit.js';
import { reducer } from '../state/reducer.js';
import { tooSmall } from '../state/size.js';
import type { ConsoleAction, ConsoleState } from '../state/types.js';
import { type ConsoleActions, handledByInput, keyName, readOnAtEnd, resolveKey } from './registry.js';

/**
 * Every key goes through here, once, whatever has focus: the text fields (chat, command line,
 * column filter) are edited in the state, not by input hooks of their own that come and go with
 * focus, so a key typed right after `:` or Esc is never lost (T6) and two keys read together
 * build on each other (T4). `at` is the state after every key before this one.
 */
export type InkKey = EditKey & { shift?: boolean; tab?: boolean; escape?: boolean; return?: boolean };

export function routeKey(at: ConsoleState, input: string, key: InkKey, c: { dispatch(a: ConsoleAction): ConsoleState; actions: ConsoleActions }): void {
  const name = keyName(input, key);
  // Too small to show anything but one line: q quits (nothing is there to type into), Ctrl-C and Ctrl-L act as anywhere.
  if (tooSmall(at) && name !== 'ctrl+c' && name !== 'ctrl+l') return name === 'q' ? c.actions.quit() : undefined;
  let s = at;
  if (s.quitArmed && name !== 'ctrl+c' && name !== 'ctrl+l') s = c.dispatch({ type: 'quit_arm', armed: false });
  const page = Math.max(1, s.rows - 8);

  if (s.overlay === 'command') {
    if (name === 'escape') return void c.dispatch({ type: 'overlay', overlay: 'none' });
    if (name === 'tab') {
      const text = completeLine(s.command.text, c.actions.complete(s.command.text));
      if (text !== null) c.dispatch({ type: 'command_text', text, suggestions: c.actions.complete(text) });
      return;
    }
    if (name === 'up' || name === 'down') return void c.dispatch({ type: 'command_history', delta: name === 'up' ? -1 : 1 });
    const r = applyKey({ value: s.command.text, cursor: s.command.cursor }, input, key);
    if (!r) return;
    // Backspace over the `:` closes the line, as in vim.
    if (r.edit.value === '') return void c.dispatch({ type: 'overlay', overlay: 'none' });
    c.dispatch({ type: 'command_text', text: r.edit.value, cursor: r.edit.cursor, suggestions: c.actions.complete(r.edit.value) });
    if (r.submit) {
      c.dispatch({ type: 'overlay', overlay: 'none' });
      if (r.edit.value.trim() !== ':') c.dispatch({ type: 'command_history_push', text: r.edit.value.trim() });
      c.actions.runCommand(r.edit.value);
    }
    return;
  }

  const field = s.focus === 'detail' && s.overlay === 'none' ? detailField(s) : null;
  if (field) {
    if (name === 'escape') return void c.dispatch(field.set(field.onEscape, true));
    const r = applyKey({ value: field.value, cursor: field.value.length }, input, key);
    if (!r) return;
    const after = c.dispatch(field.set(r.edit.value, r.submit));
    // A filter that leaves one trace or none reads on into the colony's list.
    if (r.submit && field.readsOn) readOnAtEnd(after, c.dispatch, c.actions);
    return;
  }

  // Esc and a key read together arrive as Meta+key (a busy console reads late): both act, in order.
  if (key.meta && !key.ctrl && !key.escape && input.length === 1) s = c.dispatch({ type: 'back' });

  const chat = s.focus === 'chat' && s.overlay === 'none';
  if (chat && (key.upArrow || key.downArrow)) {
    const h = historyEntry(s.history, s.historyAt, key.upArrow ? -1 : 1);
    return void c.dispatch({ type: 'draft', text: h.text, historyAt: h.at });
  }
  const binding = resolveKey(s, name);
  // Home/End move the cursor of a draft; on an empty input they scroll the conversation.
  const editsDraft = chat && s.draft !== '' && (name === 'home' || name === 'end');
  if (binding && !handledByInput(binding) && !editsDraft) return binding.run({ state: s, dispatch: c.dispatch, actions: c.actions, page }, name);
  if (!chat) return;

  const r = applyKey({ value: s.draft, cursor: s.draftCursor }, input, key);
  if (!r) return;
  if (s.draft === '' && (r.edit.value === '?' || r.edit.value === ':')) return void c.dispatch({ type: 'overlay', overlay: r.edit.value === '?' ? 'help' : 'command' });
  if (!r.submit) return void c.dispatch({ type: 'draft', text: r.edit.value, cursor: r.edit.cursor });
  // Sent whatever the console is doing: the engine queues what cannot run yet and the chat shows it.
  const text = r.edit.value.trim();
  c.dispatch({ type: 'draft', text: '', historyAt: null });
  // A pasted `:` line is a command, as if typed after `:`.
  if (text.startsWith(':')) {
    c.dispatch({ type: 'command_history_push', text });
    return c.actions.runCommand(text);
  }
  if (text) c.dispatch({ type: 'history_push', text });
  c.actions.submit(text);
}

/**
 * The one-line field the detail pane's tab is typing into (a filter or a search), or null: its
 * text, what Esc leaves in it, and the action that sets it (`done`: Enter or Esc gave the keys back).
 */
function detailField(s: ConsoleState): { value: string; onEscape: string; set: (text: string, done: boolean) => ConsoleAction; readsOn?: true } | null {
  // The trace list's filter: Esc clears it; Enter keeps it and gives the keys back to the list.
  if (s.tab === 'traces' && s.trace.filtering) return { value: s.trace.filter, onEscape: '', set: (text, done) => ({ type: 'trace_filter', text, done }), readsOn: true };
  // An open trace's search: Esc drops it; Enter keeps it for n/N.
  if (s.tab === 'traces' && s.trace.searching) return { value: s.trace.search, onEscape: '', set: (text, done) => ({ type: 'trace_search', text, done }) };
  if (s.tab === 'summary' && s.summary.searching) return { value: s.summary.search ?? '', onEscape: '', set: (text, done) => ({ type: 'summary_search', text, done }) };
  // The columns' filter: Esc keeps what was typed.
  if (s.tab === 'columns' && s.columns.filtering) return { value: s.columns.filter, onEscape: s.columns.filter, set: (text, done) => ({ type: 'columns_filter', text, done }) };
  return null;
}

/** Whether keys go into a text field: the `:` line, the chat input, or the detail pane's field. */
const editing = (s: ConsoleState) =>
  s.overlay === 'command' || (s.overlay === 'none' && (s.focus === 'chat' || (s.focus === 'detail' && detailField(s) !== null)));
const keyOf = (ch: string): InkKey => (ch === '\t' ? { tab: true } : ch === '\r' || ch === '\n' ? { return: true } : ch === '\x7f' || ch === '\b' ? { delete: true } : {});

/**
 * Keys read together arrive as one input ("\t\t?", "jj" on a busy machine): outside a text field,
 * and wherever Tab or Backspace is among them, each key acts on its own, in order. Text typed or
 * pasted into a field stays one edit (a paste's newline submits it: T5).
 */
export function routeInput(state: () => ConsoleState, input: string, key: InkKey, c: { dispatch(a: ConsoleAction): ConsoleState; actions: ConsoleActions }): void {
  // Enter read together with the keys typed after it (a busy machine reads late) sends the line
  // typed before it: the next one is a question of its own, not glued to it.
  const lead = /^[\r\n]+/.exec(input)?.[0];
  if (lead && input.length > lead.length && !key.ctrl && !key.meta) {
    routeKey(state(), '\r', { return: true }, c);
    return routeInput(state, input.slice(lead.length), {}, c);
  }
  if (input.length > 1 && !key.ctrl && !key.meta && (/[\t\x7f\b]/.test(input) || !editing(state()))) {
    for (const ch of Array.from(input)) routeKey(state(), ch, keyOf(ch), c);
    return;
  }
  routeKey(state(), input, key, c);
}

/**
 * Tab in the `:` line (pure): one candidate completes the word (and a space); several complete
 * as far as they agree, and once they agree no further, the first is taken. Null: nothing to do.
 */
export function completeLine(text: string, candidates: string[]): string | null {
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return `${candidates[0]} `;
  let common = candidates[0];
  for (const c of candidates) while (!c.startsWith(common)) common = common.slice(0, -1);
  return common.length > text.length ? common : `${candidates[0]} `;
}

/** Applies an action to the routing state at once, and to React's state. */
export function dispatcher(ref: { current: ConsoleState }, dispatch: (a: ConsoleAction) => void): (a: ConsoleAction) => ConsoleState {
  return (a) => {
    ref.current = reducer(ref.current, a);
    dispatch(a);
    return ref.current;
  };
}
