import type { ColonyWriter } from '../../../src/colony/store/colony.js';
import { MIN, SEC, T0, attrs, beylaResource, hexId, histogramBody, ingest, logsBody, sdkResource, tracesBody, type SpanSpec } from '../../support/otlp-json.js';

/**
 * Ten minutes of service `api` on two pods, for the time series on both backends (NOW = T0 + 10 min):
 * - SDK server spans every 10 s on pod api-a throughout, on pod api-b for minutes 0-4 only (it went
 *   away); nothing at all in minute 3 (a gap); from minute 6 every other span of api-a fails; every
 *   even span carries tier=gold (a span attribute), the odd ones none; every fifth span says
 *   deployment.environment=canary itself, over its resource's "prod"; durations 10-80 ms.
 * - a few eBPF spans (fewer than the SDK's: the SDK answers), a streaming RPC (left out), and one
 *   client span of operation "SELECT orders".
 * - metrics per pod: a cumulative counter api.requests every 30 s (api-a restarts at minute 5), a
 *   delta counter api.bytes, an up-down counter api.queue (api-b's points say
 *   deployment.environment=canary over their resource's "prod"), a gauge api.memory every minute
 *   (api-b's stops with it), a cumulative duration histogram every minute.
 * - logs: an info record a minute per pod, errors from minute 6.
 */
export { T0, MIN, SEC };
export const NOW = T0 + 10n * MIN;
export const PODS = ['api-a', 'api-b'] as const;

const live = (pod: string, minute: number) => minute !== 3 && (pod === 'api-a' || minute <= 4);

function spans(): { sdk: Record<string, SpanSpec[]>; ebpf: SpanSpec[] } {
  const sdk: Record<string, SpanSpec[]> = { 'api-a': [], 'api-b': [] };
  let n = 0;
  for (let minute = 0; minute < 10; minute++) {
    for (let s = 5; s < 60; s += 10) {
      for (const pod of PODS) {
        if (!live(pod, minute)) continue;
        n++;
        const failing = pod === 'api-a' && minute >= 6 && n % 2 === 0;
        sdk[pod].push({
          traceId: hexId(16, n), spanId: hexId(8, n), name: 'GET /cart', kind: 2, startNs: T0 + BigInt(minute) * MIN + BigInt(s) * SEC,
          durationMs: 10 + ((n * 37) % 71), status: failing ? 2 : 0,
          attributes: { 'http.request.method': 'GET', 'http.route': '/cart', 'http.response.status_code': failing ? 500 : 200, ...(n % 2 === 0 ? { tier: 'gold' } : {}), ...(n % 5 === 0 ? { 'deployment.environment': 'canary' } : {}) },
        });
      }
    }
  }
  sdk['api-a'].push(
    { traceId: hexId(16, 9001), spanId: hexId(8, 9001), name: 'WatchCart', kind: 2, startNs: T0 + 2n * MIN, durationMs: 120_000, attributes: { 'rpc.system': 'grpc', 'rpc.method': 'WatchCart', 'rpc.service': 'Cart' } },
    { traceId: hexId(16, 9002), spanId: hexId(8, 9002), parentSpanId: hexId(8, 1), name: 'SELECT orders', kind: 3, startNs: T0 + 7n * MIN, durationMs: 3, attributes: { 'db.system': 'postgresql', 'db.operation': 'SELECT', 'db.sql.table': 'orders' } },
  );
  const ebpf = [1, 4, 8].map((minute, i) => ({ traceId: hexId(16, 8000 + i), spanId: hexId(8, 8000 + i), name: 'GET /cart', kind: 2, startNs: T0 + BigInt(minute) * MIN + 30n * SEC, durationMs: 5, attributes: { 'http.request.method': 'GET', 'http.route': '/cart', 'http.response.status_code': 200 } }));
  return { sdk, ebpf };
}

function sumBody(pod: string, name: string, unit: string, temporality: 1 | 2, monotonic: boolean, points: { startNs: bigint; timeNs: bigint; value: number }[], own: Record<string, string> = {}) {
  return {
    resourceMetrics: [{
      resource: { attributes: attrs(sdkResource('api', { 'k8s.pod.name': pod, 'deployment.environment': 'prod' })) },
      scopeMetrics: [{ scope: { name: 'app' }, metrics: [{ name, unit, sum: { aggregationTemporality: temporality, isMonotonic: monotonic, dataPoints: points.map((p) => ({ attributes: attrs(own), startTimeUnixNano: p.startNs.toString(), timeUnixNano: p.timeNs.toString(), asDouble: p.value })) } }] }],
    }],
  };
}

function gaugeBody(pod: string, points: { timeNs: bigint; value: number }[]) {
  return {
    resourceMetrics: [{
      resource: { attributes: attrs(sdkResource('api', { 'k8s.pod.name': pod })) },
      scopeMetrics: [{ scope: { name: 'app' }, metrics: [{ name: 'api.memory', unit: 'By', gauge: { dataPoints: points.map((p) => ({ attributes: [], timeUnixNano: p.timeNs.toString(), asDouble: p.value })) } }] }],
    }],
  };
}

/** Writes the fixture into `store` (each export through the receiver's decoder and normaliser). */
export async function loadTimeseriesFixture(store: Pick<ColonyWriter, 'write'>): Promise<void> {
  const { sdk, ebpf } = spans();
  for (const pod of PODS) {
    const resource = sdkResource('api', { 'k8s.pod.name': pod, 'service.version': pod === 'api-a' ? '1.2.0' : '1.1.9', 'deployment.environment': 'prod' });
    await ingest(store, 'traces', tracesBody(resource, '@opentelemetry/instrumentation-http', sdk[pod]));
  }
  await ingest(store, 'traces', tracesBody(beylaResource('api', { 'k8s.pod.name': 'api-a' }), 'github.com/grafana/beyla', ebpf));
  const start = T0 - 30n * MIN;
  for (const pod of PODS) {
    const times = Array.from({ length: 21 }, (_, i) => T0 - 30n * SEC + BigInt(i) * 30n * SEC).filter((t) => pod === 'api-a' || t <= T0 + 5n * MIN);
    const restart = T0 + 5n * MIN;
    const requests = times.map((t, i) => (pod === 'api-a' && t > restart
      ? { startNs: restart, timeNs: t, value: 3 * (i - 10) }
      : { startNs: start, timeNs: t, value: 1000 + 6 * i }));
    await ingest(store, 'metrics', sumBody(pod, 'api.requests', '{request}', 2, true, requests));
    await ingest(store, 'metrics', sumBody(pod, 'api.bytes', 'By', 1, true, times.map((t, i) => ({ startNs: t - 30n * SEC, timeNs: t, value: 600 + 60 * (i % 3) }))));
    await ingest(store, 'metrics', sumBody(pod, 'api.queue', '{message}', 2, false, times.map((t, i) => ({ startNs: start, timeNs: t, value: (i * 7) % 5 })), pod === 'api-b' ? { 'deployment.environment': 'canary' } : {}));
    const minutes = Array.from({ length: 11 }, (_, m) => m).filter((m) => pod === 'api-a' || m <= 4);
    await ingest(store, 'metrics', gaugeBody(pod, minutes.map((m) => ({ timeNs: T0 + BigInt(m) * MIN + 15n * SEC, value: (pod === 'api-a' ? 300e6 : 200e6) + m * 1e6 }))));
    await ingest(store, 'metrics', histogramBody(sdkResource('api', { 'k8s.pod.name': pod }), 'app', { name: 'http.server.request.duration', unit: 's' }, minutes.map((m) => ({
      attributes: { 'http.route': '/cart', 'http.request.method': 'GET' }, startNs: start, timeNs: T0 + BigInt(m) * MIN + 20n * SEC,
      bounds: [0.01, 0.025, 0.05, 0.1], counts: [2 * m, 3 * m, (pod === 'api-a' ? 4 : 1) * m * (m >= 6 ? 3 : 1), m >= 6 ? m : 0, 0],
    }))));
    await ingest(store, 'logs', logsBody(sdkResource('api', { 'k8s.pod.name': pod }), 'app', minutes.flatMap((m) => [
      { timeNs: T0 + BigInt(m) * MIN + 40n * SEC, body: `minute ${m}`, attributes: { 'code.function': 'tick' } },
      ...(m >= 6 && pod === 'api-a' ? [{ timeNs: T0 + BigInt(m) * MIN + 45n * SEC, severityNumber: 17, body: 'card declined', attributes: { 'code.function': 'charge' } }] : []),
    ])));
  }
}
