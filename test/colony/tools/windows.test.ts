import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColonyStore } from '../../../src/colony/store/store.js';
import { nsToIso } from '../../../src/core/time.js';
import { MIN, T0 } from '../../support/otlp-json.js';
import { inMemoryClient } from '../../support/mcp.js';
import { fixtureStore } from '../store/fixture.js';

// The fixture's data lies in 2025-12-02 10:29:30-10:35:01 UTC (T0 is 10:30). One client's clock stands
// just after it, the other's a month later: the data is old, reachable only by an absolute window.
const DAY = 1440n * MIN;
let store: ColonyStore;
let fresh: Awaited<ReturnType<typeof inMemoryClient>>;
let later: Awaited<ReturnType<typeof inMemoryClient>>;
const START = nsToIso(T0);
const END = nsToIso(T0 + 10n * MIN);

beforeAll(async () => {
  store = await fixtureStore();
  fresh = await inMemoryClient(store, () => T0 + 10n * MIN);
  later = await inMemoryClient(store, () => T0 + 30n * DAY);
});
afterAll(async () => {
  await fresh.close();
  await later.close();
  await store.close();
});

describe('start/end beside time_range', () => {
  it('start+end read the same data a month later as time_range did at the time, and the heading states the window', async () => {
    const then = await fresh.call('coral_query_traces', { service: 'checkout', time_range: '10m', max_traces: 50 });
    const now = await later.call('coral_query_traces', { service: 'checkout', start: START, end: END, max_traces: 50 });
    expect(now.isError, now.text).toBe(false);
    expect(now.structured.matchedTraces).toBe(then.structured.matchedTraces);
    expect((now.structured.traces as unknown[]).length).toBeGreaterThan(0);
    expect(now.text.split('\n')[0]).toBe("Traces for service 'checkout' (2025-12-02 10:30-10:40 UTC (10 min)), failing first, then slowest:");
    expect(now.structured.window).toEqual({ start: START, end: END, label: '2025-12-02 10:30-10:40 UTC (10 min)', absolute: true });
    expect(then.structured.window).toMatchObject({ label: 'last 10m', absolute: false });
    // time_range alone counts back from now: a month later it finds nothing.
    const relative = await later.call('coral_query_traces', { service: 'checkout', time_range: '10m' });
    expect(relative.structured.matchedTraces).toBe(0);
  });

  it('takes every windowed tool, and each states the absolute window, never "last"', async () => {
    for (const [tool, args] of [
      ['coral_query_metrics', { service: 'checkout' }],
      ['coral_query_summary', {}],
      ['coral_query_breakdown', { service: 'checkout' }],
      ['coral_query_timeseries', { service: 'checkout', signal: 'p95' }],
      ['coral_get_service_health', {}],
      ['coral_get_service_topology', {}],
      ['coral_query_events', {}],
      ['coral_query_telemetry_metrics', { service: 'checkout' }],
      ['coral_query_telemetry_logs', {}],
      ['coral_query_ebpf_http_metrics', { service: 'checkout' }],
      ['coral_query_telemetry_spans', {}],
    ] as const) {
      const r = await later.call(tool, { ...args, start: START, end: END });
      expect(r.isError, `${tool}: ${r.text}`).toBe(false);
      expect((r.structured.window as { label: string }).label, tool).toBe('2025-12-02 10:30-10:40 UTC (10 min)');
      expect(r.text, tool).not.toMatch(/\blast \d/);
    }
  });

  it('start alone runs to now; end alone goes time_range back from end', async () => {
    const start = await fresh.call('coral_get_service_health', { start: nsToIso(T0 + 5n * MIN) });
    expect(start.structured.window).toMatchObject({ start: nsToIso(T0 + 5n * MIN), end: END });
    const end = await later.call('coral_get_service_health', { end: nsToIso(T0 + 5n * MIN), time_range: '4m' });
    expect(end.structured.window).toMatchObject({ start: nsToIso(T0 + MIN), end: nsToIso(T0 + 5n * MIN), label: '2025-12-02 10:31-10:35 UTC (4 min)' });
    expect(end.text.split('\n')[0]).toBe('Service health, 2025-12-02 10:31-10:35 UTC (4 min):');
  });

  it('a relative heading gives the instants "last" stood for; timeRange is the window\'s length either way', async () => {
    const relative = await fresh.call('coral_query_metrics', { service: 'checkout', time_range: '10m' });
    expect(relative.text.split('\n')[0]).toBe(`Service: checkout, last 10m (${START} .. ${END})`);
    expect(relative.structured.timeRange).toBe('10m');
    const summary = await fresh.call('coral_query_summary', { time_range: '10m' });
    expect(summary.text.split('\n')[0]).toBe(`Colony summary, last 10m (${START} .. ${END}), compared with the 10m before.`);
    const absolute = await later.call('coral_query_metrics', { service: 'checkout', start: START, end: END });
    expect(absolute.text.split('\n')[0]).toBe('Service: checkout, 2025-12-02 10:30-10:40 UTC (10 min)');
    expect(absolute.structured.timeRange).toBe('10 min');
  });

  it('the summary compares an absolute window with the one of the same length just before it', async () => {
    const r = await later.call('coral_query_summary', { start: nsToIso(T0 + 4n * MIN), end: nsToIso(T0 + 10n * MIN) });
    expect(r.structured).toMatchObject({ from: nsToIso(T0 + 4n * MIN), to: END, previousFrom: nsToIso(T0 - 2n * MIN) });
    expect(r.text.split('\n')[0]).toBe('Colony summary, 2025-12-02 10:34-10:40 UTC (6 min), compared with the 6 min before.');
    const services = r.structured.services as { service: string; ratePerSec: number }[];
    expect(services.length).toBeGreaterThan(0);
  });

  it('the summary\'s next calls carry an absolute window, so that following them stays in it', async () => {
    // Ending as the data ends: no intake silence, a service stands out.
    const window = { start: '2025-12-02T10:25:00Z', end: '2025-12-02T10:35:01Z' };
    const r = await later.call('coral_query_summary', window);
    expect(r.structured.lookFirst).toMatch(/Next: coral_query_metrics \{"service": "[\w-]+", "start": "2025-12-02T10:25:00\.000Z", "end": "2025-12-02T10:35:01\.000Z"\}/);
  });

  it('refuses end before start, unreadable times and windows away from the data, saying what is accepted', async () => {
    const error = async (args: Record<string, unknown>) => {
      const r = await later.call('coral_query_traces', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      return r.text;
    };
    expect(await error({ start: END, end: START })).toMatch(/end 2025-12-02T10:30:00\.000Z must be after start 2025-12-02T10:40:00\.000Z/);
    expect(await error({ start: END, end: END })).toMatch(/must be after start/);
    expect(await error({ start: 'yesterday' })).toMatch(/start "yesterday" is not a time; use ISO 8601: 2026-11-27T13:05:00Z/);
    expect(await error({ end: '2025-02-30T10:00:00Z' })).toMatch(/end "2025-02-30T10:00:00Z" is not a time/);
    expect(await error({ end: 1764671400000 })).toMatch(/end must be a string in ISO 8601/);
    expect(await error({ start: '2024-01-01T00:00:00Z', end: '2024-01-02T00:00:00Z' })).toMatch(
      /the window 2024-01-01 00:00 - 2024-01-02 00:00 UTC \(1 d\) is before the colony's data, which spans 2025-12-02T10:29:30\.000Z \.\. 2025-12-02T10:35:00\.900Z; give start\/end within it/,
    );
    expect(await error({ start: nsToIso(T0 + 2n * DAY) })).toMatch(/is after the colony's data/);
    expect(await error({ start: nsToIso(T0 + 31n * DAY) })).toMatch(/start 2026-01-02T10:30:00\.000Z is not before now/);
    expect(await error({ startt: START })).toMatch(/unknown argument 'startt'; did you mean 'start'\?/);
  });

  it('lets time_range reach data years old', async () => {
    const r = await later.call('coral_query_traces', { service: 'checkout', time_range: '3650d' });
    expect(r.structured.matchedTraces).toBeGreaterThan(0);
  });
});
