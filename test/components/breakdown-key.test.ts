import { describe, expect, it } from 'vitest';
import { type ConsoleActions, resolveKey } from '../../components/keys/registry.js';
import { initialState } from '../../components/state/reducer.js';
import type { ConsoleState, SummaryJson } from '../../components/state/types.js';
import { complete, parseCommand } from '../../src/console/commands.js';

/** b asks the breakdown of the service under the cursor (Summary tab) or of the metrics table (Metrics tab). */
function press(s: ConsoleState, key: string): string[] {
  const calls: string[] = [];
  const none = () => undefined;
  const actions: ConsoleActions = {
    submit: none, cancel: none, runCommand: none, complete: () => [], quit: none, redraw: none, openService: none, setLivePaused: none, copy: none,
    breakdownService: (svc) => calls.push(`breakdown ${svc}`),
  };
  resolveKey(s, key)?.run({ state: s, dispatch: none, actions, page: 10 }, key);
  return calls;
}

const fresh = (patch: Partial<ConsoleState>): ConsoleState => ({ ...initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' }), focus: 'detail', ...patch });
const change = (service: string) => ({ service }) as unknown as SummaryJson['services'][number];
const summary = (cursor: number): ConsoleState['summary'] => ({
  data: { from: '', to: '', previousFrom: '', standOut: [change('payment')], services: ['checkout', 'payment', 'cart'].map(change), events: [], lookFirst: '' },
  timeRange: '30m', error: null, cursor,
});

describe('the breakdown key', () => {
  it('Summary tab: the service under the cursor (stand-out services listed first)', () => {
    expect(press(fresh({ tab: 'summary', summary: summary(0) }), 'b')).toEqual(['breakdown payment']);
    expect(press(fresh({ tab: 'summary', summary: summary(2) }), 'b')).toEqual(['breakdown cart']);
    expect(press(fresh({ tab: 'summary', summary: { ...summary(0), data: null } }), 'b')).toEqual([]);
  });

  it("Metrics tab: the table's service; nothing without one", () => {
    expect(press(fresh({ tab: 'metrics', metrics: { service: 'checkout', args: { service: 'checkout' } } }), 'b')).toEqual(['breakdown checkout']);
    expect(press(fresh({ tab: 'metrics', metrics: null }), 'b')).toEqual([]);
    expect(press(fresh({ tab: 'metrics', metrics: { error: 'failed' } }), 'b')).toEqual([]);
  });

  it(':breakdown <service> [compare] [--since]', () => {
    expect(parseCommand(':breakdown checkout slow --since 1h')).toEqual({ kind: 'tool', tool: 'coral_query_breakdown', args: { service: 'checkout', compare: 'slow', time_range: '1h' } });
    expect(parseCommand(':breakdown checkout')).toEqual({ kind: 'tool', tool: 'coral_query_breakdown', args: { service: 'checkout' } });
    expect(() => parseCommand(':breakdown')).toThrow(/usage: :breakdown <service>/);
    expect(complete(':br', { scenarios: [], services: [] })).toEqual([':breakdown']);
    expect(complete(':breakdown ch', { scenarios: [], services: ['checkout', 'cart'] })).toEqual([':breakdown checkout']);
  });
});
