import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { loadScenario } from '../../../src/demo/load.js';
import { readMeta } from '../../../src/demo/files.js';
import { SIGNALS } from '../../../src/colony/tools/timeseries.js';
import { type CallResult, inMemoryClient } from '../../support/mcp.js';
import { NOW, loadTimeseriesFixture } from '../timeseries/fixture.js';

/**
 * coral_query_timeseries over MCP (its structured result checked against its output schema by the
 * server): the payment-failure scenario's errors rise where its ground truth says and where the
 * summary dates the change; gaps stay gaps; bad arguments say what is accepted.
 */
const END = 1_764_675_000_000_000_000n;
const SCENARIO = 'payment-failure';

interface Series { label: string; group: string | null; other: boolean; samples: number; points: (number | null)[] }
interface Result {
  signal: string;
  unit: string;
  source: string | null;
  step: { text: string; ms: number; count: number; start: string; end: string; auto: boolean };
  times: string[];
  series: Series[];
  gaps: { firstStep: number; lastStep: number }[];
  onset: { time: string; step: number | null; metric: string } | null;
  heatmap: { bands: { lowMs: number; highMs: number }[]; cells: (number[] | null)[] } | null;
}
const result = (r: CallResult) => r.structured as unknown as Result;

let demo: ColonyStore;
let fixture: ColonyStore;
let mcp: Awaited<ReturnType<typeof inMemoryClient>>;
let fx: Awaited<ReturnType<typeof inMemoryClient>>;

beforeAll(async () => {
  demo = await ColonyStore.open({ path: ':memory:' });
  await loadScenario(demo, SCENARIO, { endAtNs: END });
  mcp = await inMemoryClient(demo, () => END);
  fixture = await ColonyStore.open({ path: ':memory:' });
  await loadTimeseriesFixture(fixture);
  fx = await inMemoryClient(fixture, () => NOW);
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await fx?.close();
  await demo?.close();
  await fixture?.close();
});

const mean = (xs: readonly (number | null)[]) => {
  const seen = xs.filter((x): x is number => x !== null);
  return seen.reduce((a, b) => a + b, 0) / seen.length;
};

describe(`coral_query_timeseries on ${SCENARIO}`, () => {
  it('shows payment\'s errors rising after the onset, the onset within two steps of the true one', async () => {
    const r = await mcp.call('coral_query_timeseries', { service: 'payment', signal: 'errors' });
    expect(r.isError, r.text).toBe(false);
    const ts = result(r);
    expect(ts.step).toMatchObject({ text: '1m', ms: 60_000, count: 60, auto: true });
    // The scenario's hour ends at END; its truth is seconds into that hour.
    const truth = readMeta(SCENARIO).truth.startSec;
    if (truth === null) throw new Error('payment-failure has a start');
    const trueStep = Math.floor(truth / 60);
    expect(ts.onset?.metric).toBe('errors');
    expect(ts.onset?.step).not.toBeNull();
    expect(Math.abs((ts.onset?.step ?? -99) - trueStep)).toBeLessThanOrEqual(2);
    const [payment] = ts.series;
    const onset = ts.onset?.step ?? 0;
    const before = payment.points.slice(0, onset);
    const after = payment.points.slice(onset);
    expect(before.every((v) => v === null || v === 0)).toBe(true);
    expect(mean(after)).toBeGreaterThan(1);
    expect(after.filter((v) => v !== null && v > 0).length).toBeGreaterThan(after.length / 2);
    expect(r.text).toMatch(/Onset: payment's errors began to rise ~\d\d:\d\d UTC \(step \d+ of 60\)/);
  });

  it('dates the onset where coral_query_summary does, for the same window: the picture and the ranking agree', async () => {
    const summary = await mcp.call('coral_query_summary', { time_range: '1h' });
    const ranked = (summary.structured.services as { service: string; onset: string | null }[]).find((s) => s.service === 'payment');
    expect(ranked?.onset).toBeTruthy();
    for (const signal of ['errors', 'error_rate', 'requests']) {
      const ts = result(await mcp.call('coral_query_timeseries', { service: 'payment', signal, time_range: '1h' }));
      expect(ts.onset?.time, signal).toBe(ranked?.onset);
    }
    // A coarser grid puts the same instant in its own step.
    const coarse = result(await mcp.call('coral_query_timeseries', { service: 'payment', signal: 'errors', step: '5m' }));
    expect(coarse.onset?.time).toBe(ranked?.onset);
    expect(coarse.onset?.step).toBe(Math.floor(((Date.parse(ranked?.onset ?? '') - Date.parse(coarse.step.start)) / 60_000) / 5));
  });

  it('answers every signal with points on the grid and a unit', async () => {
    for (const signal of SIGNALS) {
      const args = signal === 'metric' ? { signal, metric: 'process.cpu.utilization', service: 'payment' } : { signal, service: 'payment' };
      const r = await mcp.call('coral_query_timeseries', args);
      expect(r.isError, `${signal}: ${r.text}`).toBe(false);
      const ts = result(r);
      expect(ts.series.length, signal).toBeGreaterThan(0);
      for (const s of ts.series) expect(s.points, signal).toHaveLength(ts.step.count);
      expect(ts.times).toHaveLength(ts.step.count);
      expect(ts.unit, signal).not.toBe('');
      expect(ts.series.some((s) => s.points.some((v) => v !== null && v > 0)), signal).toBe(true);
    }
    const heat = result(await mcp.call('coral_query_timeseries', { service: 'payment', signal: 'latency_heatmap' }));
    expect(heat.heatmap?.cells).toHaveLength(60);
    const cells = heat.heatmap?.cells ?? [];
    // Each step's cells add up to its requests (the requests signal, asked on its own), and the bands tile the durations.
    const requests = result(await mcp.call('coral_query_timeseries', { service: 'payment', signal: 'requests' }));
    expect(cells.map((c) => (c === null ? null : c.reduce((a, b) => a + b, 0)))).toEqual(requests.series[0].points);
    const bands = heat.heatmap?.bands ?? [];
    for (let i = 1; i < bands.length; i++) expect(bands[i].lowMs).toBe(bands[i - 1].highMs);
  });

  it('groups by an attribute: the largest values apart, the rest as other, their spans adding up to the whole', async () => {
    const whole = result(await mcp.call('coral_query_timeseries', { signal: 'requests', time_range: '30m' }));
    const grouped = result(await mcp.call('coral_query_timeseries', { signal: 'requests', group_by: 'service.name', limit: 3, time_range: '30m' }));
    expect(grouped.series.map((s) => s.other)).toEqual([false, false, false, true]);
    expect(grouped.series[0].samples).toBeGreaterThanOrEqual(grouped.series[1].samples);
    expect(grouped.series.reduce((n, s) => n + s.samples, 0)).toBe(whole.series[0].samples);
    for (let k = 0; k < whole.step.count; k++) {
      const sum = grouped.series.reduce((n, s) => n + (s.points[k] ?? 0), 0);
      expect(sum, `step ${k}`).toBe(whole.series[0].points[k] ?? 0);
    }
  });
});

describe('coral_query_timeseries: gaps are gaps', () => {
  it('a step nothing was sent in is null, never 0; a step with spans and no errors is 0', async () => {
    const ts = result(await fx.call('coral_query_timeseries', { service: 'api', signal: 'errors', time_range: '10m', step: '1m' }));
    expect(ts.series[0].points).toEqual([0, 0, 0, null, 0, 0, 3, 3, 3, 3]);
    expect(ts.gaps).toEqual([{ firstStep: 3, lastStep: 3, from: ts.times[3], to: ts.times[4] }]);
    const pods = result(await fx.call('coral_query_timeseries', { service: 'api', signal: 'requests', group_by: 'k8s.pod.name', time_range: '10m', step: '1m' }));
    expect(pods.series.map((s) => [s.label, s.points])).toEqual([
      ['api-a', [6, 6, 6, null, 6, 6, 6, 6, 6, 6]],
      ['api-b', [6, 6, 6, null, 6, null, null, null, null, null]],
    ]);
    const memory = result(await fx.call('coral_query_timeseries', { signal: 'metric', metric: 'api.memory', group_by: 'k8s.pod.name', time_range: '10m' }));
    expect(memory.step.text).toBe('1m');
    expect(memory.series.find((s) => s.label === 'api-b')?.points.slice(5)).toEqual([null, null, null, null, null]);
  });

  it('an attribute is the span\'s (point\'s) own, else its resource\'s', async () => {
    const spans = result(await fx.call('coral_query_timeseries', { service: 'api', signal: 'requests', group_by: 'deployment.environment', time_range: '10m', step: '1m' }));
    expect(spans.series.map((s) => [s.label, s.samples])).toEqual([['prod', 63], ['canary', 15]]);
    const canary = result(await fx.call('coral_query_timeseries', { service: 'api', signal: 'requests', attributes: { 'deployment.environment': 'canary' }, time_range: '10m', step: '1m' }));
    expect(canary.series[0].samples).toBe(15);
    const points = result(await fx.call('coral_query_timeseries', { signal: 'metric', metric: 'api.queue', group_by: 'deployment.environment', time_range: '10m', step: '1m' }));
    // A metric's groups rank by their mean (the larger first), not by how many points they have.
    expect(points.series.map((s) => [s.label, s.samples])).toEqual([['canary', 10], ['prod', 19]]);
  });

  it('spans without the grouped attribute are a series of their own, "(no value)"', async () => {
    const ts = result(await fx.call('coral_query_timeseries', { service: 'api', signal: 'requests', group_by: 'tier', time_range: '10m', step: '1m' }));
    expect(ts.series.map((s) => [s.label, s.group, s.samples])).toEqual([['gold', 'gold', 39], ['(no value)', null, 39]]);
  });
});

describe('coral_query_timeseries refuses bad arguments, saying what is accepted', () => {
  const refused = async (args: Record<string, unknown>, client = fx) => {
    const r = await client.call('coral_query_timeseries', { time_range: '10m', ...args });
    expect(r.isError, JSON.stringify(args)).toBe(true);
    return r.text;
  };

  it('a service the colony does not know: an answer saying so, with the names it knows', async () => {
    const r = await mcp.call('coral_query_timeseries', { service: 'paymnt', signal: 'errors' });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/No service in this colony is named "paymnt"\. Known services, closest first: payment/);
    expect(result(r).series[0].points.every((v) => v === null)).toBe(true);
    expect(r.structured.unknownService).toMatch(/paymnt/);
  });

  it('an unknown signal: every signal listed', async () => {
    expect(await refused({ signal: 'latency' })).toContain('signal must be one of: requests, errors, error_rate, p50, p95, p99, latency_heatmap, metric, logs');
  });

  it('a metric the colony does not hold: the closest names it holds', async () => {
    expect(await refused({ signal: 'metric', metric: 'api.memroy' })).toMatch(/metric "api\.memroy" is not in the colony's data in the window\. Closest of the 5 it holds: api\.memory, /);
    expect(await refused({ signal: 'metric', metric: 'process.cpu.utilisation', service: 'payment' }, mcp)).toMatch(/Closest of the \d+ it holds: process\.cpu\.utilization/);
  });

  it('a step that gives more than 2,000 points, or finer than a second', async () => {
    expect(await refused({ step: '10s', time_range: '24h' }, mcp)).toBe('step 10s gives 8640 points over a 1d window, more than 2000; give a step of 44s or more, or leave step out (about 60-120 points)');
    expect(await refused({ step: '100ms' })).toMatch(/finer than the finest step, 1s/);
    expect(await refused({ step: 'fast' })).toMatch(/step must be a duration like 10s, 1m, 5m or 1h/);
  });

  it('arguments that do not go together', async () => {
    expect(await refused({ signal: 'metric' })).toMatch(/signal "metric" must come with metric/);
    expect(await refused({ metric: 'api.memory' })).toMatch(/metric must come with signal "metric" \(not "requests"\)/);
    expect(await refused({ signal: 'logs', group_by: 'k8s.pod.name' })).toMatch(/group_by is not taken with signal logs/);
    expect(await refused({ signal: 'logs', operation: 'GET /cart' })).toMatch(/operation narrows spans/);
    expect(await refused({ signal: 'metric', metric: 'api.memory', quantile: 0.5 })).toMatch(/quantile is for a histogram metric; "api\.memory" is a gauge/);
    expect(await refused({ signal: 'metric', metric: 'api.requests', aggregate: 'max' })).toMatch(/aggregate is for a gauge .*a counter/);
    expect(await refused({ group_by: 'k8s.pod.name"; DROP' })).toMatch(/group_by must be an attribute name/);
    expect(await refused({ attributes: { 'bad key': 'x' } })).toMatch(/attribute name/);
  });
});
