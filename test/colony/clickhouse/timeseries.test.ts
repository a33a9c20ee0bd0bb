import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { answer, firstDifference } from './parity.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import type { SpanSeriesQuery } from '../../../src/colony/store/queries/timeseries.js';
import { gridOf } from '../../../src/colony/unified/steps.js';
import { SIGNALS } from '../../../src/colony/tools/timeseries.js';
import { loadScenario } from '../../../src/demo/load.js';
import { MIN, NOW, loadTimeseriesFixture } from '../timeseries/fixture.js';

/**
 * The time series contract: DuckDB and ClickHouse (with coral's stored columns, and with everything
 * derived at read time) read the same rows and coral_query_timeseries answers every signal with the
 * same points, text and structured result, on a fixture with the edge cases (gaps, a pod that went
 * away, spans without the grouped attribute, counter resets, delta and up-down sums, a histogram) and
 * on the payment-failure scenario.
 */
const DIR = join(tmpdir(), `coral-ch-timeseries-${process.pid}`);
const SCENARIO_END = 1_764_675_000_000_000_000n;

let duck: ColonyStore;
let ch: ClickHouseStore;
let plain: ClickHouseStore;
const all = (stores: Colony[]) => ({ write: (b: IngestBatch) => Promise.all(stores.map((s) => s.write(b))).then(() => undefined) });

beforeAll(async () => {
  if (!HAVE_CHDB) return;
  duck = await ColonyStore.open({ path: ':memory:' });
  ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'timeseries' }, create: true });
  plain = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'timeseries_plain' }, create: true, materialize: false });
  await loadTimeseriesFixture(all([duck, ch, plain]));
}, 120_000);
afterAll(async () => {
  await duck?.close();
  await ch?.close();
  await plain?.close();
  rmSync(DIR, { recursive: true, force: true });
}, 120_000);

/** The rows of a metric read without the store's own series keys (each backend hashes its own), in one order. */
const comparable = <T extends { series: string }>(rows: readonly T[]) => rows
  .map(({ series: _, ...r }) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b))), (_k, v) => (typeof v === 'bigint' ? String(v) : v)))
  .sort().map((text) => JSON.parse(text) as unknown);

async function expectAlike(calls: readonly Record<string, unknown>[], now: bigint, stores: readonly ClickHouseStore[]): Promise<string[]> {
  const signals: string[] = [];
  for (const args of calls) {
    const want = await answer(duck, now, 'coral_query_timeseries', args);
    for (const store of stores) {
      const got = await answer(store, now, 'coral_query_timeseries', args);
      expect(got.text, JSON.stringify(args)).toBe(want.text);
      expect(firstDifference(want.structured, got.structured), JSON.stringify(args)).toBeNull();
    }
    if (!want.isError) signals.push(String((want.structured as { signal: string }).signal));
  }
  return signals;
}

describe.skipIf(!HAVE_CHDB)(`time series on DuckDB and ClickHouse${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, { timeout: 300_000 }, () => {
  it('read the same rows: spans per step and series, the largest values, latency buckets, log levels, metric points', async () => {
    const grid = gridOf({ fromNs: NOW - 10n * MIN, toNs: NOW }, MIN);
    const spanQueries: SpanSeriesQuery[] = [
      { grid, service: 'api', quantiles: true },
      { grid, service: 'api', source: 'otlp', groupBy: 'k8s.pod.name', groups: ['api-b'], quantiles: true },
      { grid, service: 'api', source: 'otlp', groupBy: 'tier', groups: [null, 'gold'] },
      { grid, groupBy: 'service.name', groups: [] },
      { grid, service: 'api', operation: 'SELECT orders' },
      { grid, service: 'api', attributes: { 'k8s.pod.name': 'api-a', tier: 'gold' }, quantiles: true },
      { grid, service: 'api', source: 'otlp', groupBy: 'deployment.environment', groups: ['canary'], attributes: { 'deployment.environment': 'prod' } },
      { grid, service: 'nobody' },
    ];
    for (const [i, q] of spanQueries.entries()) {
      const want = await duck.spanSteps(q);
      if (i < 3) expect(want.length, `query ${i}`).toBeGreaterThan(0);
      for (const store of [ch, plain]) {
        expect(firstDifference(await store.spanSteps(q), want), `spanSteps ${i}`).toBeNull();
        expect(firstDifference(await store.latencySteps(q), await duck.latencySteps(q)), `latencySteps ${i}`).toBeNull();
      }
    }
    for (const groupBy of ['k8s.pod.name', 'tier', 'service.version', 'service.name', 'deployment.environment', 'no.such.key']) {
      const q = { grid, groupBy };
      const want = await duck.spanGroups(q);
      expect(want.length).toBeGreaterThan(0);
      for (const store of [ch, plain]) expect(firstDifference(await store.spanGroups(q), want), `spanGroups ${groupBy}`).toBeNull();
    }
    for (const q of [{ grid }, { grid, service: 'api', attributes: { 'k8s.pod.name': 'api-a' } }]) {
      const want = await duck.logSteps(q);
      expect(want.some((r) => r.level === 'error')).toBe(true);
      for (const store of [ch, plain]) expect(firstDifference(await store.logSteps(q), want)).toBeNull();
    }
    for (const [metric, groupBy] of [['api.requests', 'k8s.pod.name'], ['api.bytes', 'k8s.pod.name'], ['api.queue', 'deployment.environment'], ['api.memory', 'k8s.pod.name'], ['http.server.request.duration', 'k8s.pod.name']]) {
      const q = { grid, metric, service: 'api', groupBy };
      const want = await duck.metricPoints(q);
      expect(want.numbers.length + want.histograms.length, metric).toBeGreaterThan(0);
      for (const store of [ch, plain]) {
        const got = await store.metricPoints(q);
        expect(firstDifference(comparable(got.numbers), comparable(want.numbers)), metric).toBeNull();
        expect(firstDifference(comparable(got.histograms), comparable(want.histograms)), metric).toBeNull();
      }
    }
  });

  it('coral_query_timeseries answers every signal alike on the fixture, text and points', async () => {
    const w = { time_range: '10m', step: '1m' };
    const calls: Record<string, unknown>[] = [
      ...['requests', 'errors', 'error_rate', 'p50', 'p95', 'p99', 'latency_heatmap', 'logs'].flatMap((signal) => [{ signal, ...w }, { signal, service: 'api', ...w }]),
      { signal: 'requests', service: 'api', group_by: 'k8s.pod.name', ...w },
      { signal: 'p95', service: 'api', group_by: 'tier', limit: 1, ...w },
      { signal: 'error_rate', service: 'api', attributes: { 'k8s.pod.name': 'api-a' }, ...w },
      { signal: 'requests', service: 'api', operation: 'SELECT orders', ...w },
      { signal: 'requests', group_by: 'service.name', time_range: '10m' },
      { signal: 'metric', metric: 'api.requests', service: 'api', ...w },
      { signal: 'metric', metric: 'api.requests', group_by: 'k8s.pod.name', ...w },
      { signal: 'metric', metric: 'api.bytes', ...w },
      { signal: 'metric', metric: 'api.queue', ...w },
      { signal: 'metric', metric: 'api.queue', group_by: 'deployment.environment', ...w },
      { signal: 'requests', service: 'api', group_by: 'deployment.environment', ...w },
      { signal: 'p50', service: 'api', attributes: { 'deployment.environment': 'canary' }, ...w },
      { signal: 'metric', metric: 'api.memory', ...w },
      { signal: 'metric', metric: 'api.memory', aggregate: 'max', group_by: 'k8s.pod.name', limit: 1, ...w },
      { signal: 'metric', metric: 'api.memory', time_range: '10m' },
      { signal: 'metric', metric: 'http.server.request.duration', ...w },
      { signal: 'metric', metric: 'http.server.request.duration', quantile: 0.5, group_by: 'k8s.pod.name', ...w },
      { signal: 'metric', metric: 'api.memroy', ...w },
      { signal: 'metric', metric: 'api.memory', attributes: { 'k8s.pod.name': 'api-z' }, ...w },
      { signal: 'requests', service: 'nobody', ...w },
    ];
    const answered = await expectAlike(calls, NOW, [ch, plain]);
    expect(new Set(answered)).toEqual(new Set(SIGNALS));
  });

  it('answers alike on the payment-failure scenario, every signal', async () => {
    const d = await ColonyStore.open({ path: ':memory:' });
    const c = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'timeseries_demo' }, create: true });
    try {
      await loadScenario(all([d, c]), 'payment-failure', { endAtNs: SCENARIO_END });
      // The onset's read, one service's rows: the summary's rows of that service, on both.
      const both = { fromNs: SCENARIO_END - 120n * MIN, toNs: SCENARIO_END };
      const minutes = await d.minuteSeries(both, 'payment');
      expect(new Set(minutes.map((r) => r.service))).toEqual(new Set(['payment']));
      expect(minutes).toEqual((await d.minuteSeries(both)).filter((r) => r.service === 'payment'));
      expect(firstDifference(await c.minuteSeries(both, 'payment'), minutes)).toBeNull();
      const calls: Record<string, unknown>[] = [
        ...SIGNALS.filter((s) => s !== 'metric').map((signal) => ({ signal, service: 'payment' })),
        { signal: 'errors', service: 'checkout', group_by: 'k8s.pod.name' },
        { signal: 'p99', group_by: 'service.name', limit: 4, time_range: '30m' },
        { signal: 'metric', metric: 'process.memory.usage', group_by: 'service.name' },
        { signal: 'metric', metric: 'rpc.server.duration', service: 'payment', quantile: 0.99 },
        { signal: 'metric', metric: 'messaging.kafka.consumer.lag', aggregate: 'sum' },
      ];
      for (const args of calls) {
        const [a, b] = await Promise.all([answer(d, SCENARIO_END, 'coral_query_timeseries', args), answer(c, SCENARIO_END, 'coral_query_timeseries', args)]);
        expect(a.isError, `${JSON.stringify(args)}: ${a.text}`).toBe(false);
        expect(b.text, JSON.stringify(args)).toBe(a.text);
        expect(firstDifference(a.structured, b.structured), JSON.stringify(args)).toBeNull();
      }
    } finally {
      await d.close();
      await c.close();
    }
  });
});
