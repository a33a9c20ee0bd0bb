import { type ConsoleActions, resolveKey, scopeOf } from '../../components/keys/registry.js';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState, TraceJson, TraceNodeJson } from '../../components/state/types.js';

/** Presses keys through the one registry and the reducer, recording what they ask of the engine. */
export function span(id: string, children: TraceNodeJson[] = [], extra: Partial<TraceNodeJson> = {}): TraceNodeJson {
  return { spanId: id, parentSpanId: '', service: 'svc', name: `op ${id}`, kind: 'SERVER', source: 'otlp', offsetMs: 0, durationMs: 10, selfMs: 10, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links: [], children, ...extra };
}
export const traceOf = (roots: TraceNodeJson[], o: Partial<TraceJson> = {}): TraceJson => ({
  traceId: 'ef'.repeat(16), start: '2025-12-02T10:30:00Z', startNs: '1764671400000000000', durationMs: 10, spanCount: 0, mergedCount: 0,
  services: ['svc'], depth: 3, incomplete: false, resources: {}, roots, ...o,
});

export interface Recorded extends ConsoleActions {
  calls: string[];
}
export const recorder = (): Recorded => {
  const calls: string[] = [];
  return {
    calls, submit: (q) => calls.push(`submit ${q}`), cancel: () => calls.push('cancel'), runCommand: (l) => calls.push(`run ${l}`), complete: () => [], quit: () => calls.push('quit'),
    redraw: () => calls.push('redraw'), openService: (svc) => calls.push(`open ${svc}`), openTrace: (id) => calls.push(`trace ${id}`), setLivePaused: (p) => calls.push(`paused ${p}`),
    copy: (t) => calls.push(`copy ${t}`), moreTraces: (tool, args) => calls.push(`more ${tool} ${JSON.stringify(args)}`), serviceTraces: (svc) => calls.push(`traces of ${svc}`),
  };
};

export function press(s: ConsoleState, key: string, actions: ConsoleActions = recorder(), page = 10): ConsoleState {
  const binding = resolveKey(s, key);
  if (!binding) throw new Error(`no binding for ${key} in ${scopeOf(s)}`);
  let next = s;
  binding.run({ state: s, dispatch: (a: ConsoleAction) => (next = reducer(next, a)), actions, page }, key);
  return next;
}
export const pressAll = (s: ConsoleState, keys: string[], actions: ConsoleActions = recorder()) => keys.reduce((acc, k) => press(acc, k, actions), s);

export const fresh = (patch: Partial<ConsoleState> = {}): ConsoleState => ({ ...initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' }), ...patch });
/** The state after `actions`, in order. */
export const run = (s: ConsoleState, ...actions: ConsoleAction[]): ConsoleState => actions.reduce(reducer, s);
export const finished = (tool: string, structured: Record<string, unknown> | undefined, args: Record<string, unknown> = {}, id = 't'): ConsoleAction[] => [
  { type: 'agent', event: { type: 'tool_call_started', id, server: 'colony', tool, args } },
  { type: 'agent', event: { type: 'tool_call_finished', id, tool, ok: true, durationMs: 1, text: 'result text', structured } },
];
export const withTraces = (traces: TraceJson[], args: Record<string, unknown> = {}) => finished('coral_query_traces', { traces }, args).reduce(reducer, fresh({ focus: 'detail' }));
