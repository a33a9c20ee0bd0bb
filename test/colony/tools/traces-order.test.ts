import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColonyStore } from '../../../src/colony/store/store.js';
import { MIN, T0 } from '../../support/otlp-json.js';
import { inMemoryClient } from '../../support/mcp.js';
import { fixtureStore } from '../store/fixture.js';

// The fixture's checkout traces: two failing ones (10 and 20 ms, the oldest), eight healthy ones
// (30..100 ms), and the most recent and slowest, a healthy 900 ms trace through frontend.
let store: ColonyStore;
let mcp: Awaited<ReturnType<typeof inMemoryClient>>;
const W = { time_range: '10m' };
type Listed = { traceId: string; durationMs: number; startNs: string; errorCount: number; rootService: string; rootName: string; servicesByErrors: string[]; sourceMix: string };

beforeAll(async () => {
  store = await fixtureStore();
  mcp = await inMemoryClient(store, () => T0 + 10n * MIN);
});
afterAll(async () => {
  await mcp.close();
  await store.close();
});

const list = async (args: Record<string, unknown>) => {
  const r = await mcp.call('coral_query_traces', { service: 'checkout', ...W, ...args });
  return { text: r.text, traces: r.structured.traces as Listed[], structured: r.structured };
};

describe('coral_query_traces order', () => {
  it('puts failing traces first, then the slowest, by default, and says so', async () => {
    const { text, traces, structured } = await list({ max_traces: 4 });
    expect(traces.map((t) => [t.errorCount, Math.round(t.durationMs)])).toEqual([[1, 20], [1, 10], [0, 900], [0, 100]]);
    expect(structured.order).toBe('errors');
    expect(text.split('\n')[0]).toBe("Traces for service 'checkout' (last 10m), failing first, then slowest:");
    expect(text).toMatch(/\n\nTrace: \S+ \(Duration: 20ms.*· 1 error span \(checkout\)\n/);
  });

  it('picks the failing traces even when they are neither the most recent nor the slowest', async () => {
    // Only two traces fit: a slowest-first or most-recent-first search would return no failing one.
    const { traces } = await list({ max_traces: 2 });
    expect(traces.every((t) => t.errorCount > 0)).toBe(true);
  });

  it('sorts by duration or start time when asked', async () => {
    const slow = (await list({ order: 'duration', max_traces: 12 })).traces.map((t) => t.durationMs);
    expect(slow).toEqual([...slow].sort((a, b) => b - a));
    expect(Math.round(slow[0])).toBe(900);
    const recent = (await list({ order: 'recent', max_traces: 50 })).traces.map((t) => BigInt(t.startNs));
    expect(recent).toEqual([...recent].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    expect(recent[recent.length - 1]).toBe(T0 + 1_000_000_000n);
  });

  it('gives each trace its root operation, error count, services (failing first) and source mix', async () => {
    const { traces } = await list({ order: 'duration', max_traces: 1 });
    expect(traces[0]).toMatchObject({ rootService: 'frontend', rootName: 'POST /api/place-order', errorCount: 0, servicesByErrors: ['frontend', 'checkout'], sourceMix: 'eBPF+OTLP' });
  });

  it('closes with an analysis line and states the slow-trace filter in the header', async () => {
    const { text } = await list({ min_duration_ms: 50, max_traces: 3 });
    expect(text.split('\n')[0]).toBe("Slow Traces for service 'checkout' (last 10m, > 50ms), failing first, then slowest:");
    expect(text.split('\n').at(-1)).toMatch(/^Analysis: none of the 3 traces failed; most time is spent in checkout itself \(\d+% of all self time\)/);
  });

  it('refuses an unknown order, naming the accepted ones', async () => {
    const r = await mcp.call('coral_query_traces', { order: 'random' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/order must be one of: errors, duration, recent/);
  });
});
