import { describe, expect, it } from 'vitest';
import type { ConsoleActions } from '../../components/keys/registry.js';
import { type InkKey, completeLine, dispatcher, routeInput, routeKey } from '../../components/keys/router.js';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState, TraceJson } from '../../components/state/types.js';

/**
 * The key router on its own (pure apart from the recorded actions): every key goes through the real
 * reducer, as the console's dispatcher does, so each case checks the state a key leaves behind and
 * what it asked of the engine.
 */
interface Recorded extends ConsoleActions {
  calls: string[];
}
const recorder = (complete: (line: string) => string[] = () => []): Recorded => {
  const calls: string[] = [];
  return {
    calls,
    submit: (q) => calls.push(`submit ${q}`),
    cancel: () => calls.push('cancel'),
    runCommand: (l) => calls.push(`run ${l}`),
    complete,
    quit: () => calls.push('quit'),
    redraw: () => calls.push('redraw'),
    openService: (svc) => calls.push(`open ${svc}`),
    openTrace: (id) => calls.push(`trace ${id}`),
    setLivePaused: (p) => calls.push(`paused ${p}`),
    copy: (t) => calls.push(`copy ${t}`),
  };
};

const fresh = (patch: Partial<ConsoleState> = {}): ConsoleState => ({ ...initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' }), ...patch });

/** A console: the routing state, the actions the reducer saw, the engine calls. */
function consoleOf(s: ConsoleState, actions: Recorded = recorder()) {
  const ref = { current: s };
  const seen: ConsoleAction[] = [];
  const c = { dispatch: dispatcher(ref, (a) => seen.push(a)), actions };
  return {
    ref,
    seen,
    calls: actions.calls,
    key: (input: string, key: InkKey = {}) => routeKey(ref.current, input, key, c),
    input: (input: string, key: InkKey = {}) => routeInput(() => ref.current, input, key, c),
  };
}

const node = (id: string) => ({ spanId: id, parentSpanId: '', service: 'svc', name: `op ${id}`, kind: 'SERVER', source: 'otlp', offsetMs: 0, durationMs: 10, selfMs: 10, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links: [], children: [] });
const trace = (id: string, service: string): TraceJson => ({
  traceId: id, start: '2025-12-02T10:30:00Z', startNs: '1764671400000000000', durationMs: 10, spanCount: 1, mergedCount: 0,
  services: [service], depth: 1, incomplete: false, resources: {}, roots: [{ ...node(id), service }],
}) as TraceJson;

describe('the command line', () => {
  it('Esc closes it and keeps the text typed so far out of the history', () => {
    const k = consoleOf(fresh({ overlay: 'command', command: { text: ':tra', cursor: 4, suggestions: [] } }));
    k.key('', { escape: true });
    expect(k.ref.current.overlay).toBe('none');
    expect(k.ref.current.commandHistory).toEqual([]);
    expect(k.calls).toEqual([]);
  });

  it('Tab completes to the one candidate with a space and asks for the suggestions of the completed line', () => {
    const asked: string[] = [];
    const k = consoleOf(fresh({ overlay: 'command', command: { text: ':tra', cursor: 4, suggestions: [] } }), recorder((line) => (asked.push(line), line === ':tra' ? [':traces'] : ['next'])));
    k.key('', { tab: true });
    expect(k.ref.current.command).toEqual({ text: ':traces ', cursor: 8, suggestions: ['next'] });
    expect(asked).toEqual([':tra', ':traces ']);
  });

  it('Tab with no candidate changes nothing', () => {
    const k = consoleOf(fresh({ overlay: 'command', command: { text: ':zz', cursor: 3, suggestions: [] } }));
    k.key('', { tab: true });
    expect(k.seen).toEqual([]);
    expect(k.ref.current.command.text).toBe(':zz');
  });

  it('Up and Down walk the command history, Up first to the newest', () => {
    const k = consoleOf(fresh({ overlay: 'command', command: { text: ':', cursor: 1, suggestions: [] }, commandHistory: [':a', ':b'] }));
    k.key('', { upArrow: true });
    expect(k.ref.current.command.text).toBe(':b');
    k.key('', { upArrow: true });
    expect(k.ref.current.command.text).toBe(':a');
    k.key('', { downArrow: true });
    expect(k.ref.current.command.text).toBe(':b');
    k.key('', { downArrow: true });
    expect(k.ref.current.command.text).toBe(':');
  });

  it('typed text goes into the line at its cursor, with the suggestions for the new text', () => {
    const k = consoleOf(fresh({ overlay: 'command', command: { text: ':tr', cursor: 3, suggestions: [] } }), recorder((line) => [`${line}!`]));
    k.key('a');
    expect(k.ref.current.command).toEqual({ text: ':tra', cursor: 4, suggestions: [':tra!'] });
    k.key('', { leftArrow: true });
    expect(k.ref.current.command.cursor).toBe(3);
    k.key('', { ctrl: true });
    expect(k.ref.current.command.text).toBe(':tra');
  });

  it('Backspace over the `:` closes the line; Backspace over a letter does not', () => {
    const k = consoleOf(fresh({ overlay: 'command', command: { text: ':x', cursor: 2, suggestions: [] } }));
    k.key('', { delete: true });
    expect([k.ref.current.overlay, k.ref.current.command.text]).toEqual(['command', ':']);
    k.key('', { delete: true });
    expect(k.ref.current.overlay).toBe('none');
  });

  it('Enter runs the line as typed, closes it and records it trimmed in the history', () => {
    const k = consoleOf(fresh({ overlay: 'command', command: { text: ':traces cart ', cursor: 13, suggestions: [] } }));
    k.key('', { return: true });
    expect(k.calls).toEqual(['run :traces cart ']);
    expect(k.ref.current.overlay).toBe('none');
    expect(k.ref.current.commandHistory).toEqual([':traces cart']);
  });

  it('Enter on a bare `:` runs it but records nothing', () => {
    const k = consoleOf(fresh({ overlay: 'command', command: { text: ': ', cursor: 2, suggestions: [] } }));
    k.key('', { return: true });
    expect(k.calls).toEqual(['run : ']);
    expect(k.ref.current.commandHistory).toEqual([]);
  });
});

describe('the trace filter', () => {
  const filtering = (patch: Partial<ConsoleState> = {}) => {
    const s = fresh({ focus: 'detail', tab: 'traces', ...patch });
    return { ...s, trace: { ...s.trace, traces: [trace('a'.repeat(32), 'cart'), trace('b'.repeat(32), 'pay')], filter: 'ca', filtering: true } };
  };

  it('typed text extends the filter at its end; Enter keeps it and gives the keys back to the list', () => {
    const k = consoleOf(filtering());
    k.key('r');
    expect([k.ref.current.trace.filter, k.ref.current.trace.filtering]).toEqual(['car', true]);
    k.key('', { return: true });
    expect([k.ref.current.trace.filter, k.ref.current.trace.filtering]).toEqual(['car', false]);
    k.key('j');
    expect(k.ref.current.trace.filter).toBe('car');
  });

  it('Esc clears it', () => {
    const k = consoleOf(filtering());
    k.key('', { escape: true });
    expect([k.ref.current.trace.filter, k.ref.current.trace.filtering]).toEqual(['', false]);
  });

  it('a key the editor does not take (an arrow) does nothing', () => {
    const k = consoleOf(filtering());
    k.key('', { upArrow: true });
    expect(k.seen).toEqual([]);
  });

  it('only takes keys in the traces tab of the detail pane with no overlay', () => {
    for (const patch of [{ focus: 'tools' as const }, { tab: 'columns' as const }, { overlay: 'help' as const }]) {
      const k = consoleOf(filtering(patch));
      k.key('r');
      expect(k.ref.current.trace.filter, JSON.stringify(patch)).toBe('ca');
    }
  });
});

describe('the column filter', () => {
  const filtering = (patch: Partial<ConsoleState> = {}) => {
    const s = fresh({ focus: 'detail', tab: 'columns', ...patch });
    return { ...s, columns: { ...s.columns, filter: 'dur', filtering: true } };
  };

  it('typed text extends it; Esc keeps the text and stops filtering; Enter does too', () => {
    const k = consoleOf(filtering());
    k.key('a');
    expect([k.ref.current.columns.filter, k.ref.current.columns.filtering]).toEqual(['dura', true]);
    k.key('', { escape: true });
    expect([k.ref.current.columns.filter, k.ref.current.columns.filtering]).toEqual(['dura', false]);
    const e = consoleOf(filtering());
    e.key('', { return: true });
    expect([e.ref.current.columns.filter, e.ref.current.columns.filtering]).toEqual(['dur', false]);
  });

  it('a key the editor does not take does nothing', () => {
    const k = consoleOf(filtering());
    k.key('', { downArrow: true });
    expect(k.seen).toEqual([]);
  });

  it('only takes keys in the columns tab of the detail pane with no overlay', () => {
    for (const patch of [{ focus: 'chat' as const }, { tab: 'traces' as const }, { overlay: 'help' as const }]) {
      const k = consoleOf(filtering(patch));
      k.key('x');
      expect(k.ref.current.columns.filter, JSON.stringify(patch)).toBe('dur');
    }
  });
});

describe('the chat input', () => {
  it('Up and Down walk the question history', () => {
    const k = consoleOf(fresh({ history: ['one', 'two'] }));
    k.key('', { upArrow: true });
    expect([k.ref.current.draft, k.ref.current.historyAt]).toEqual(['two', 1]);
    k.key('', { downArrow: true });
    expect([k.ref.current.draft, k.ref.current.historyAt]).toEqual(['', null]);
  });

  it('? and : on an empty input open the help and the command line; after text they are typed', () => {
    const help = consoleOf(fresh());
    help.key('?');
    expect([help.ref.current.overlay, help.ref.current.draft]).toEqual(['help', '']);
    const cmd = consoleOf(fresh());
    cmd.key(':');
    expect([cmd.ref.current.overlay, cmd.ref.current.command.text]).toEqual(['command', ':']);
    const typed = consoleOf(fresh({ draft: 'why', draftCursor: 3 }));
    typed.key('?');
    expect([typed.ref.current.overlay, typed.ref.current.draft]).toEqual(['none', 'why?']);
  });

  it('a draft edited down to a lone ? or : stays a draft', () => {
    const k = consoleOf(fresh({ draft: '?x', draftCursor: 2 }));
    k.key('', { delete: true });
    expect([k.ref.current.overlay, k.ref.current.draft]).toEqual(['none', '?']);
  });

  it('printable keys are typed, not run as bindings (q does not quit, j does not move)', () => {
    const k = consoleOf(fresh());
    k.input('q');
    k.input('j');
    expect(k.ref.current.draft).toBe('qj');
    expect(k.calls).toEqual([]);
  });

  it('Enter sends the trimmed question, clears the input and records it', () => {
    const k = consoleOf(fresh({ draft: '  why slow?  ', draftCursor: 13, historyAt: 0, history: ['old'] }));
    k.key('', { return: true });
    expect(k.calls).toEqual(['submit why slow?']);
    expect([k.ref.current.draft, k.ref.current.historyAt, k.ref.current.history]).toEqual(['', null, ['old', 'why slow?']]);
  });

  it('Enter on an empty input sends the empty question (the recorded investigation) and records nothing', () => {
    const k = consoleOf(fresh());
    k.key('', { return: true });
    expect(k.calls).toEqual(['submit ']);
    expect(k.ref.current.history).toEqual([]);
  });

  it('Enter while an answer is running sends the question (the engine queues it) and clears the input', () => {
    const k = consoleOf(fresh({ busy: true, draft: 'next', draftCursor: 4 }));
    k.key('', { return: true });
    expect(k.calls).toEqual(['submit next']);
    expect([k.ref.current.draft, k.ref.current.history]).toEqual(['', ['next']]);
  });

  it('a pasted line starting with : runs as a command, not a question, and goes to the command history', () => {
    const k = consoleOf(fresh());
    k.input(':export\r');
    expect(k.calls).toEqual(['run :export']);
    expect([k.ref.current.draft, k.ref.current.history, k.ref.current.commandHistory]).toEqual(['', [], [':export']]);
  });

  it('q is typed in the chat input and quits once Esc has left it, as the help says', () => {
    const k = consoleOf(fresh());
    k.key('q');
    expect([k.ref.current.draft, k.calls]).toEqual(['q', []]);
    k.key('', { escape: true });
    k.key('q');
    expect(k.calls).toEqual(['quit']);
  });

  it('on a terminal too small for the panes q quits, even with focus in the chat, and other keys do nothing', () => {
    const k = consoleOf(fresh({ cols: 50, rows: 15 }));
    k.key('j');
    k.key('', { tab: true });
    expect([k.ref.current.draft, k.ref.current.focus, k.calls]).toEqual(['', 'chat', []]);
    k.key('q');
    expect(k.calls).toEqual(['quit']);
  });

  it('Ctrl-C with input queued (no turn running yet) cancels it rather than arming quit', () => {
    const k = consoleOf(fresh({ queued: ['is payment failing?'] }));
    k.key('c', { ctrl: true });
    expect(k.calls).toEqual(['cancel']);
    expect(k.ref.current.quitArmed).toBe(false);
  });

  it('Home and End move the cursor of a draft, and scroll the conversation on an empty input', () => {
    const k = consoleOf(fresh({ draft: 'abc', draftCursor: 3 }));
    k.key('', { home: true });
    expect([k.ref.current.draftCursor, k.ref.current.scroll.chat]).toEqual([0, 0]);
    k.key('', { end: true });
    expect(k.ref.current.draftCursor).toBe(3);
    const empty = consoleOf(fresh());
    empty.key('', { home: true });
    expect(empty.ref.current.scroll.chat).toBe(Number.MAX_SAFE_INTEGER);
    empty.key('', { end: true });
    expect(empty.ref.current.scroll.chat).toBe(0);
  });

  it('with the help open over the chat, a key help does not bind is not typed', () => {
    const k = consoleOf(fresh({ overlay: 'help' }));
    k.key('x');
    expect(k.ref.current.draft).toBe('');
  });

  it('with a draft, keys other than Home and End still run their bindings (Tab moves on)', () => {
    const k = consoleOf(fresh({ draft: 'abc', draftCursor: 3 }));
    k.key('', { tab: true });
    expect([k.ref.current.focus, k.ref.current.draft]).toEqual(['tools', 'abc']);
  });

  it('a key neither a binding nor the editor takes does nothing', () => {
    const k = consoleOf(fresh({ draft: 'x', draftCursor: 1 }));
    k.key('', { pageDown: false, meta: false, escape: false, ctrl: true });
    expect(k.seen).toEqual([]);
  });
});

describe('bindings outside the input', () => {
  it('run in the focused pane, with a page of the rows minus 8', () => {
    const s = fresh({ focus: 'tools', rows: 30 });
    const k = consoleOf(s);
    k.key('', { pageDown: true });
    expect(k.ref.current.scroll.tool).toBe(22);
  });

  it('a page is the rows that fit (the smallest screen, 20 rows: 12)', () => {
    const k = consoleOf(fresh({ focus: 'tools', rows: 20 }));
    k.key('', { pageDown: true });
    expect(k.ref.current.scroll.tool).toBe(12);
  });

  it('keys the chat input handles itself are not run as bindings from the detail pane either', () => {
    const k = consoleOf(fresh({ focus: 'detail', tab: 'metrics' }));
    k.key('x');
    expect(k.seen).toEqual([]);
    expect(k.ref.current.draft).toBe('');
  });

  it('Esc read together with a key (Meta+key) leaves the input first, then the key acts in the pane', () => {
    const k = consoleOf(fresh({ focus: 'chat', lastPane: 'tools', toolCalls: [{ id: 'a', tool: 't', server: 's', args: {}, status: 'done', startedAt: 0 }, { id: 'b', tool: 't', server: 's', args: {}, status: 'done', startedAt: 0 }] }));
    k.key('j', { meta: true });
    expect([k.ref.current.focus, k.ref.current.toolCursor]).toEqual(['tools', 1]);
  });

  it('Meta with Ctrl, with Esc or with several characters is not read as Esc', () => {
    // Esc itself is one back (its binding), not two.
    for (const [input, key, backs] of [['j', { meta: true, ctrl: true }, 0], ['j', { meta: true, escape: true }, 1], ['jj', { meta: true }, 0]] as const) {
      const k = consoleOf(fresh({ focus: 'chat', lastPane: 'tools' }));
      k.key(input, key);
      expect(k.seen.filter((a) => a.type === 'back'), JSON.stringify([input, key])).toHaveLength(backs);
    }
  });
});

describe('Ctrl-C twice to quit', () => {
  it('any other key disarms it; Ctrl-L leaves it armed', () => {
    const k = consoleOf(fresh({ focus: 'tools' }));
    k.key('c', { ctrl: true });
    expect(k.ref.current.quitArmed).toBe(true);
    k.key('l', { ctrl: true });
    expect([k.ref.current.quitArmed, k.calls]).toEqual([true, ['redraw']]);
    k.key('j');
    expect(k.ref.current.quitArmed).toBe(false);
    expect(k.ref.current.status.message).toBe(null);
  });

  it('the second Ctrl-C quits', () => {
    const k = consoleOf(fresh({ focus: 'tools' }));
    k.key('c', { ctrl: true });
    k.key('c', { ctrl: true });
    expect(k.calls).toEqual(['quit']);
  });
});

describe('keys read together (routeInput)', () => {
  const twoCalls = () => fresh({ focus: 'tools', toolCalls: ['a', 'b', 'c'].map((id) => ({ id, tool: 't', server: 's', args: {}, status: 'done' as const, startedAt: 0 })) });

  it('outside a text field each key acts on its own, in order', () => {
    const k = consoleOf(twoCalls());
    k.input('jj');
    expect(k.ref.current.toolCursor).toBe(2);
  });

  it('in a text field several characters are one edit', () => {
    const k = consoleOf(fresh());
    k.input('hello');
    expect(k.seen.filter((a) => a.type === 'draft')).toHaveLength(1);
    expect(k.ref.current.draft).toBe('hello');
  });

  it('Tab among them splits them even in a text field: "\\t\\t" moves focus twice', () => {
    const k = consoleOf(fresh());
    k.input('\t\t');
    expect(k.ref.current.focus).toBe('detail');
  });

  it('Backspace among them splits them: each DEL or BS deletes one character', () => {
    const k = consoleOf(fresh({ draft: 'abc', draftCursor: 3 }));
    k.input('\x7f\b');
    expect(k.ref.current.draft).toBe('a');
  });

  it('a paste with a newline in a text field is one edit, submitted', () => {
    const k = consoleOf(fresh());
    k.input('why\rslow');
    expect(k.calls).toEqual(['submit why slow']);
  });

  it('Enter read together with the next keys sends the line typed before it; the rest starts the next one', () => {
    const k = consoleOf(fresh({ draft: 'is payment failing?', draftCursor: 19 }));
    k.input('\rand checkout?');
    expect(k.calls).toEqual(['submit is payment failing?']);
    expect(k.ref.current.draft).toBe('and checkout?');
    k.input('\r');
    expect(k.calls).toEqual(['submit is payment failing?', 'submit and checkout?']);
  });

  it('a newline (CR or LF) read with other keys outside a text field acts as Enter', () => {
    const k = consoleOf(twoCalls());
    k.input('j\r');
    expect([k.ref.current.toolCursor, k.ref.current.expandedTool]).toEqual([1, 'b']);
    const lf = consoleOf(twoCalls());
    lf.input('jj\n');
    expect([lf.ref.current.toolCursor, lf.ref.current.expandedTool]).toEqual([2, 'c']);
  });

  it('counts the command line and the filters as text fields', () => {
    const cmd = consoleOf(fresh({ overlay: 'command', command: { text: ':', cursor: 1, suggestions: [] } }));
    cmd.input('tr');
    expect(cmd.seen.filter((a) => a.type === 'command_text')).toHaveLength(1);
    const base = fresh({ focus: 'detail', tab: 'columns' });
    const cols = consoleOf({ ...base, columns: { ...base.columns, filtering: true } });
    cols.input('ab');
    expect(cols.seen.filter((a) => a.type === 'columns_filter')).toHaveLength(1);
    const tb = fresh({ focus: 'detail', tab: 'traces' });
    const traces = consoleOf({ ...tb, trace: { ...tb.trace, filtering: true } });
    traces.input('ab');
    expect(traces.seen.filter((a) => a.type === 'trace_filter')).toHaveLength(1);
  });

  it('a filter that is not in its own tab is not a text field there', () => {
    const base = fresh({ focus: 'detail', tab: 'traces' });
    const k = consoleOf({ ...base, columns: { ...base.columns, filtering: true }, trace: { ...base.trace, traces: [trace('a'.repeat(32), 'x'), trace('b'.repeat(32), 'y')] } });
    k.input('jj');
    expect(k.seen.filter((a) => a.type === 'trace_move')).toHaveLength(2);
  });

  it('a trace filter in the columns tab is not a text field there', () => {
    const base = fresh({ focus: 'detail', tab: 'columns' });
    const k = consoleOf({ ...base, trace: { ...base.trace, filtering: true } });
    k.input('jj');
    expect(k.seen.filter((a) => a.type === 'columns_move')).toHaveLength(2);
  });

  it('split keys keep what they are: letters before a Tab are typed, not deleted', () => {
    const k = consoleOf(fresh());
    k.input('ab\t');
    expect([k.ref.current.draft, k.ref.current.focus]).toEqual(['ab', 'tools']);
  });

  it('the help overlay over the chat is not a text field', () => {
    const k = consoleOf(fresh({ overlay: 'help' }));
    k.input('jj');
    expect(k.ref.current.scroll.help).toBe(2);
  });

  it('Ctrl or Meta with several characters is one key event', () => {
    const k = consoleOf(twoCalls());
    k.input('jj', { ctrl: true });
    expect(k.ref.current.toolCursor).toBe(0);
  });
});

describe('completeLine', () => {
  it('completes several candidates as far as they agree, then takes the first', () => {
    expect(completeLine(':l', [':load a', ':load b'])).toBe(':load ');
    expect(completeLine(':load ', [':load a', ':load b'])).toBe(':load a ');
    expect(completeLine(':x', [':xyz'])).toBe(':xyz ');
  });

  it('the agreed part is the longest common prefix of all candidates, not of the first two', () => {
    expect(completeLine(':', [':abc', ':abd', ':ax'])).toBe(':a');
  });
});

describe('dispatcher', () => {
  it('applies each action to the routing state at once and hands it to React', () => {
    const ref = { current: fresh() };
    const sent: ConsoleAction[] = [];
    const d = dispatcher(ref, (a) => sent.push(a));
    const after = d({ type: 'focus', pane: 'tools' });
    expect([after.focus, ref.current.focus]).toEqual(['tools', 'tools']);
    expect(after).toBe(ref.current);
    expect(sent).toEqual([{ type: 'focus', pane: 'tools' }]);
  });
});
