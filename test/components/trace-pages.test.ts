import { describe, expect, it } from 'vitest';
import { reducer } from '../../components/state/reducer.js';
import type { ConsoleState, TraceJson } from '../../components/state/types.js';
import { PAGE } from '../../components/trace/paging.js';
import { listedTraces } from '../../components/trace/list-view.js';
import { dispatcher, routeInput } from '../../components/keys/router.js';
import { press, pressAll, recorder, span, traceOf, withTraces } from './key-press.js';

const t = (i: number, o: Partial<TraceJson> = {}) => traceOf([span(`s${i}`)], { traceId: i.toString(16).padStart(32, '0'), durationMs: 100 - i, ...o });
const first = [t(1), t(2), t(3)];
const ARGS = { max_traces: 3, time_range: '30m' };

/** The list of the first page (3 of 7 traces), on its list. */
function list(): ConsoleState {
  const s = reducer(withTraces(first, ARGS), { type: 'agent', event: { type: 'tool_call_finished', id: 't', tool: 'coral_query_traces', ok: true, durationMs: 1, text: '', structured: { traces: first, matchedTraces: 7 } } });
  return press(s, 'escape');
}
const page = (s: ConsoleState, args: Record<string, unknown>, traces: TraceJson[], matched = 7) => reducer(s, { type: 'refresh', tool: 'coral_query_traces', args, structured: { traces, matchedTraces: matched } });
const ids = (s: ConsoleState) => listedTraces(s.trace.traces, s.trace.sort, s.trace.filter).map((i) => s.trace.traces[i].traceId.slice(-1));

describe('the trace list read from the colony page by page', () => {
  it('landing on the last row asks for the next page of the same query, once until it answers', () => {
    const actions = recorder();
    const s = pressAll(list(), ['j', 'j'], actions);
    expect(actions.calls).toEqual([`more coral_query_traces ${JSON.stringify({ ...ARGS, max_traces: PAGE, offset: 3, order: 'errors' })}`]);
    expect(s.trace.query?.loading).toBe(true);
    press(s, 'j', actions);
    expect(actions.calls).toHaveLength(1);
  });

  it('G asks too; a list whose every trace is in asks nothing', () => {
    const actions = recorder();
    press(list(), 'G', actions);
    expect(actions.calls).toHaveLength(1);
    const whole = recorder();
    pressAll(press(withTraces(first, ARGS), 'escape'), ['G', 'j'], whole);
    expect(whole.calls).toEqual([]);
  });

  it('the page answered is appended after the traces read; the header counts what is read of the whole', () => {
    const s = page(pressAll(list(), ['j', 'j']), { ...ARGS, max_traces: PAGE, offset: 3, order: 'errors' }, [t(4), t(5)]);
    expect(ids(s)).toEqual(['1', '2', '3', '4', '5']);
    expect([s.trace.listCursor, s.trace.query?.fetched, s.trace.query?.loading]).toEqual([2, 5, false]);
    // Then j goes on into the new rows.
    expect(press(s, 'j').trace.listCursor).toBe(3);
  });

  it('a page for another list, or from a stale offset, is dropped', () => {
    const s = pressAll(list(), ['j', 'j']);
    expect(page(s, { ...ARGS, service: 'cart', offset: 3 }, [t(9)]).trace.traces).toBe(s.trace.traces);
    expect(page(s, { ...ARGS, offset: 10 }, [t(9)]).trace.traces).toBe(s.trace.traces);
  });

  it('an empty page ends the paging', () => {
    const s = page(pressAll(list(), ['j', 'j']), { ...ARGS, offset: 3, order: 'errors' }, [], 0);
    const actions = recorder();
    press(s, 'j', actions);
    expect([s.trace.query?.matched, actions.calls]).toEqual([3, []]);
  });

  it('s reads the list again from the colony in the new order, which replaces it', () => {
    const actions = recorder();
    const s = press(list(), 's', actions);
    expect(actions.calls).toEqual([`more coral_query_traces ${JSON.stringify({ ...ARGS, max_traces: PAGE, offset: 0, order: 'duration' })}`]);
    const again = page(s, { ...ARGS, max_traces: PAGE, offset: 0, order: 'duration' }, [t(7), t(6)]);
    expect([ids(again), again.trace.sort, again.trace.query?.fetched]).toEqual([['6', '7'], 'duration', 2]);
    // The old order's answer arriving late changes nothing.
    expect(page(s, { ...ARGS, offset: 0, order: 'recent' }, [t(9)]).trace.traces).toBe(s.trace.traces);
  });

  it('a live refresh of the first page keeps every trace read by paging', () => {
    const s = page(pressAll(list(), ['j', 'j']), { ...ARGS, max_traces: PAGE, offset: 3, order: 'errors' }, [t(4), t(5)]);
    const live = reducer(s, { type: 'refresh', tool: 'coral_query_traces', structured: { traces: [t(0), t(1), t(2)] } });
    expect(ids(live).sort()).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('a filter that leaves no trace read reads the next page; j on the empty list reads on', () => {
    const actions = recorder();
    const ref = { current: list() };
    const route = dispatcher(ref, () => undefined);
    for (const k of ['/', 'n', 'o', 'p', 'e', '\r']) routeInput(() => ref.current, k, k === '\r' ? { return: true } : {}, { dispatch: route, actions });
    expect([ref.current.trace.filter, actions.calls]).toEqual(['nope', [`more coral_query_traces ${JSON.stringify({ ...ARGS, max_traces: PAGE, offset: 3, order: 'errors' })}`]]);
    const empty = page(ref.current, { ...ARGS, max_traces: PAGE, offset: 3, order: 'errors' }, [t(4)]);
    press(empty, 'j', actions);
    expect(actions.calls).toHaveLength(2);
  });
});
