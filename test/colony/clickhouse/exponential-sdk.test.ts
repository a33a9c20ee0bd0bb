/**
 * Exponential histograms from the official OpenTelemetry JS SDK (an ExponentialHistogram view),
 * sent by its exporters over OTLP/HTTP JSON, OTLP/HTTP protobuf and OTLP/gRPC, cumulative and delta,
 * stored on DuckDB and ClickHouse at once: both give the percentiles an independent walk over the
 * SDK's own buckets gives, and the tools answer alike. Summaries (no JS SDK makes them) are posted
 * as OTLP/JSON and listed with their quantiles.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality, AggregationType, type ExponentialHistogram, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { AggregationTemporalityPreference, OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { answer, firstDifference } from './parity.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import { type RunningGrpcReceiver, startGrpcReceiver } from '../../../src/colony/otlp/grpc.js';
import { openChClient } from '../../../src/colony/store/clickhouse/client.js';
import { EXPONENTIAL_TABLE, qualified } from '../../../src/colony/store/clickhouse/ddl.js';
import { exponentialToExplicit } from '../../../src/colony/otlp/exponential.js';
import { decodeMetricsJson } from '../../../src/colony/otlp/decode-json.js';
import { normalizeMetrics } from '../../../src/colony/otlp/normalize.js';

const DIR = join(tmpdir(), `coral-ch-exponential-${process.pid}`);
const WIDE = { fromNs: 0n, toNs: 4_000_000_000_000_000_000n };
let duck: ColonyStore;
let ch: ClickHouseStore;
let http: RunningReceiver;
let grpc: RunningGrpcReceiver;

/**
 * Prometheus-style quantile straight from exponential buckets (the data model, not coral's code):
 * positive bucket i spans (base^i, base^(i+1)], base = 2^(2^-scale); the zero bucket is 0.
 */
function expectedQuantile(q: number, points: ExponentialHistogram[]): number {
  // Merge on the coarsest scale: index i at scale s is index i >> (s - min) there.
  const scale = Math.min(...points.map((p) => p.scale));
  const counts = new Map<number, number>();
  let zeros = 0;
  for (const p of points) {
    zeros += p.zeroCount;
    p.positive.bucketCounts.forEach((c, j) => {
      const i = Math.floor((p.positive.offset + j) / 2 ** (p.scale - scale));
      counts.set(i, (counts.get(i) ?? 0) + c);
    });
  }
  const base = Math.pow(2, Math.pow(2, -scale));
  const total = zeros + [...counts.values()].reduce((a, b) => a + b, 0);
  const rank = q * total;
  if (rank <= zeros) return 0;
  let seen = zeros;
  for (const i of [...counts.keys()].sort((a, b) => a - b)) {
    const c = counts.get(i)!;
    if (c > 0 && seen + c >= rank) return Math.pow(base, i) + (Math.pow(base, i + 1) - Math.pow(base, i)) * ((rank - seen) / c);
    seen += c;
  }
  throw new Error('rank beyond the buckets');
}

beforeAll(async () => {
  if (!HAVE_CHDB) return;
  duck = await ColonyStore.open({ path: ':memory:' });
  ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'exponential' }, create: true });
  const sink = { write: (b: IngestBatch) => Promise.all([duck.write(b), ch.write(b)]).then(() => undefined) };
  http = await startReceiver({ sink, port: 0 });
  grpc = await startGrpcReceiver({ sink, host: '127.0.0.1', port: 0, maxBodyBytes: 4 * 1024 * 1024 });
}, 120_000);
afterAll(async () => {
  if (!HAVE_CHDB) return;
  await http.close();
  await grpc.close();
  await duck.close();
  await ch.close();
  rmSync(DIR, { recursive: true, force: true });
}, 120_000);

const CASES = [
  { name: 'json', exporter: () => new JsonMetricExporter({ url: `${http.url}/v1/metrics` }), delta: false },
  { name: 'protobuf', exporter: () => new ProtoMetricExporter({ url: `${http.url}/v1/metrics`, temporalityPreference: AggregationTemporalityPreference.DELTA }), delta: true },
  { name: 'grpc', exporter: () => new GrpcMetricExporter({ url: `http://${grpc.address}` }), delta: false },
] as const;

describe.skipIf(!HAVE_CHDB)(`exponential histograms from the JS SDK, on DuckDB and ClickHouse${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  for (const c of CASES) {
    it(`${c.name} (${c.delta ? 'delta' : 'cumulative'}): percentiles as the SDK's buckets give them, the same on both backends`, async () => {
      const service = `exp-${c.name}`;
      const recorded = new InMemoryMetricExporter(c.delta ? AggregationTemporality.DELTA : AggregationTemporality.CUMULATIVE);
      const provider = new MeterProvider({
        resource: resourceFromAttributes({ 'service.name': service }),
        views: [{ instrumentName: 'http.server.request.duration', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM, options: { maxSize: 20 } } }],
        readers: [
          new PeriodicExportingMetricReader({ exporter: c.exporter(), exportIntervalMillis: 3_600_000 }),
          new PeriodicExportingMetricReader({ exporter: recorded, exportIntervalMillis: 3_600_000 }),
        ],
      });
      const h = provider.getMeter('checkout-metrics').createHistogram('http.server.request.duration', { unit: 'ms' });
      const attrs = { 'http.request.method': 'GET', 'http.route': '/api/cart', 'http.response.status_code': 200 };
      // Two exports: a narrow range first, then a wider one, so the SDK lowers its scale in between (maxSize 20).
      for (const v of [0, 3, 3.5, 4, 5, 6]) h.record(v, attrs);
      await provider.forceFlush();
      for (const v of [0.2, 40, 90, 250, 7, 7, 7.5]) h.record(v, attrs);
      await provider.forceFlush();
      const points = recorded.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics.flatMap((x) => x.dataPoints.map((d) => d.value as ExponentialHistogram))));
      await provider.shutdown();

      expect(points).toHaveLength(2);
      expect(points[1].scale).toBeLessThan(points[0].scale); // the scale changed between the exports
      // Cumulative: the last point holds everything; delta: the two add up.
      const observed = c.delta ? points : [points[1]];
      const [a, b] = await Promise.all([duck, ch].map((s) => s.redFromHistograms({ service, protocol: 'http', range: WIDE })));
      expect(a).toHaveLength(1);
      expect(a[0]).toMatchObject({ requests: 13, httpRoute: '/api/cart' });
      for (const [k, q] of [['p50Ms', 0.5], ['p95Ms', 0.95], ['p99Ms', 0.99]] as const) expect(a[0][k]).toBeCloseTo(expectedQuantile(q, observed), 9);
      expect(firstDifference(b, a)).toBeNull();
      const now = BigInt(Date.now()) * 1_000_000n;
      const [ta, tb] = await Promise.all([duck, ch].map((s) => answer(s, now, 'coral_query_telemetry_metrics', { service, time_range: '1h' })));
      expect(ta.text).toContain('http.server.request.duration (histogram, ms): 1 series');
      expect(tb).toEqual(ta);
      const [ma, mb] = await Promise.all([duck, ch].map((s) => answer(s, now, 'coral_query_metrics', { service, time_range: '1h' })));
      expect(ma.text).toContain('/api/cart');
      expect(ma.text).toContain('13');
      expect(mb).toEqual(ma);
    }, 120_000);
  }

  it('summaries: stored on both backends, listed with the latest quantiles of one series, per series for several', async () => {
    const now = BigInt(Date.now()) * 1_000_000n;
    const point = (t: bigint, host: string, p50: number) => ({
      timeUnixNano: String(t), startTimeUnixNano: String(now - 60_000_000_000n), count: '10', sum: 12.5, attributes: [{ key: 'host', value: { stringValue: host } }],
      quantileValues: [{ quantile: 0.99, value: 4 }, { quantile: 0.5, value: p50 }],
    });
    const body = (service: string, points: object[]) => JSON.stringify({ resourceMetrics: [{
      resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
      scopeMetrics: [{ metrics: [{ name: 'rpc.latency', unit: 'ms', summary: { dataPoints: points } }] }],
    }] });
    for (const [service, points] of [['sum-one', [point(now - 1_000_000_000n, 'a', 1), point(now, 'a', 1.25)]], ['sum-two', [point(now, 'a', 1), point(now, 'b', 2)]]] as const) {
      const res = await fetch(`${http.url}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(service, [...points]) });
      expect(res.status).toBe(200);
    }
    const one = await Promise.all([duck, ch].map((s) => answer(s, now + 1n, 'coral_query_telemetry_metrics', { service: 'sum-one', time_range: '1h' })));
    expect(one[0].text).toContain('rpc.latency (summary, ms): 1 series, 2 points, latest quantiles p50 1.250, p99 4');
    expect(one[1]).toEqual(one[0]);
    const two = await Promise.all([duck, ch].map((s) => answer(s, now + 1n, 'coral_query_telemetry_metrics', { service: 'sum-two', time_range: '1h' })));
    expect(two[0].text).toContain('rpc.latency (summary, ms): 2 series, 2 points, quantiles per series (summaries cannot be merged across series)');
    expect(two[1]).toEqual(two[0]);
  }, 120_000);

  it("a Collector's rows in otel_metrics_exponential_histogram reach the histogram table converted as coral converts its own", async () => {
    const t = BigInt(Date.now()) * 1_000_000n;
    const service = 'exp-collector';
    const attrs = { 'http.request.method': 'GET', 'http.route': '/api/x', 'http.response.status_code': '200' };
    const rows = [
      { metric: 'http.server.request.duration', scale: 1, zeroCount: 1, positive: { offset: 2, bucketCounts: [1, 2, 3] }, negative: { offset: 0, bucketCounts: [] as number[] } },
      { metric: 'temperature.change', scale: -1, zeroCount: 2, positive: { offset: -1, bucketCounts: [4] }, negative: { offset: 1, bucketCounts: [1, 0, 5] } },
    ];
    const raw = await openChClient({ kind: 'chdb', dir: DIR, database: 'exponential' });
    try {
      await raw.command(`INSERT INTO ${qualified('exponential', EXPONENTIAL_TABLE)} FORMAT JSONEachRow\n${rows.map((r) => JSON.stringify({
        ResourceAttributes: { 'service.name': service }, ServiceName: service, ScopeName: 'm', MetricName: r.metric, MetricUnit: 'ms', Attributes: attrs,
        StartTimeUnix: String(t - 60_000_000_000n), TimeUnix: String(t), Count: 0, Sum: 0, Scale: r.scale, ZeroCount: r.zeroCount,
        PositiveOffset: r.positive.offset, PositiveBucketCounts: r.positive.bucketCounts, NegativeOffset: r.negative.offset, NegativeBucketCounts: r.negative.bucketCounts,
        AggregationTemporality: 1,
      })).join('\n')}`);
      const stored = await raw.query<{ metric: string; bounds: number[]; counts: string[] }>(
        `SELECT MetricName AS metric, ExplicitBounds AS bounds, BucketCounts AS counts FROM ${qualified('exponential', 'otel_metrics_histogram')} WHERE ServiceName = '${service}' ORDER BY metric`);
      expect(stored.map((r) => r.metric)).toEqual(['http.server.request.duration', 'temperature.change']);
      for (const r of rows) {
        const want = exponentialToExplicit({
          attributes: {}, startNs: 0n, timeNs: 0n, count: 0, sum: null, min: null, max: null, scale: r.scale, zeroCount: r.zeroCount, zeroThreshold: 0,
          positive: { offset: r.positive.offset, counts: r.positive.bucketCounts }, negative: { offset: r.negative.offset, counts: r.negative.bucketCounts },
        });
        const got = stored.find((x) => x.metric === r.metric)!;
        expect(got.counts.map(Number)).toEqual(want.counts);
        expect(got.bounds).toHaveLength(want.bounds.length);
        got.bounds.forEach((b, i) => expect(b).toBeCloseTo(want.bounds[i], 12));
      }
    } finally {
      await raw.close();
    }
    // The same duration point through coral's own ingest, on DuckDB: the same RED.
    const json = { resourceMetrics: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeMetrics: [{ scope: { name: 'm' }, metrics: [{
      name: 'http.server.request.duration', unit: 'ms', exponentialHistogram: { aggregationTemporality: 1, dataPoints: [{
        startTimeUnixNano: String(t - 60_000_000_000n), timeUnixNano: String(t), count: '7', scale: 1, zeroCount: '1', positive: { offset: 2, bucketCounts: ['1', '2', '3'] },
        attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
      }] },
    }] }] }] };
    const own = await ColonyStore.open({ path: ':memory:' });
    try {
      await own.write(normalizeMetrics(decodeMetricsJson(Buffer.from(JSON.stringify(json)))).batch);
      const [mine, theirs] = await Promise.all([own, ch].map((s) => s.redFromHistograms({ service, protocol: 'http', range: WIDE })));
      expect(theirs).toHaveLength(1);
      expect(theirs[0]).toMatchObject({ requests: 7 });
      expect(theirs[0].p50Ms).toBeCloseTo(expectedQuantile(0.5, [{ count: 7, scale: 1, zeroCount: 1, positive: { offset: 2, bucketCounts: [1, 2, 3] }, negative: { offset: 0, bucketCounts: [] } }]), 9);
      expect(firstDifference(theirs, mine)).toBeNull();
    } finally {
      await own.close();
    }
  }, 120_000);
});
