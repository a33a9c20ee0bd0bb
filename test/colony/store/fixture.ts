import { ColonyStore } from '../../../src/colony/store/store.js';
import {
  MIN,
  SEC,
  T0,
  beylaResource,
  hexId,
  histogramBody,
  ingest,
  logsBody,
  sdkResource,
  tracesBody,
  type SpanSpec,
} from '../../support/otlp-json.js';

export const WINDOW = { fromNs: T0, toNs: T0 + 10n * MIN };
export const BEYLA_BOUNDS = [0, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

export function buckets(entries: Record<number, number>): number[] {
  const out = new Array<number>(BEYLA_BOUNDS.length + 1).fill(0);
  for (const [i, c] of Object.entries(entries)) out[Number(i)] = c;
  return out;
}

/** A small colony with hand-countable data for every query. */
export async function fixtureStore(): Promise<ColonyStore> {
  const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
  let n = 0;
  const single = (spec: Omit<SpanSpec, 'traceId' | 'spanId'>): SpanSpec => ({ ...spec, traceId: hexId(16, ++n), spanId: hexId(8, n) });

  // checkout, SDK: POST /api/checkout x10, 10..100 ms, two of them 500.
  await ingest(store, 'traces', tracesBody(sdkResource('checkout'), '@opentelemetry/instrumentation-http', Array.from({ length: 10 }, (_, i) => single({
    name: 'POST /api/checkout', startNs: T0 + BigInt(i + 1) * SEC, durationMs: (i + 1) * 10,
    attributes: { 'http.request.method': 'POST', 'http.route': '/api/checkout', 'http.response.status_code': i < 2 ? 500 : 200 },
    status: i < 2 ? 2 : 0,
  }))));
  // checkout, eBPF with legacy names: GET /api/cart x5, 1..5 ms.
  await ingest(store, 'traces', tracesBody(beylaResource('checkout'), '', Array.from({ length: 5 }, (_, i) => single({
    name: 'GET /api/cart', startNs: T0 + BigInt(i + 1) * SEC, durationMs: i + 1,
    attributes: { 'http.method': 'GET', 'http.route': '/api/cart', 'http.status_code': 200 },
  }))));
  // payment gRPC: SDK splits service/method; Beyla names the span by its path and uses the new status name.
  await ingest(store, 'traces', tracesBody(sdkResource('payment'), '@opentelemetry/instrumentation-grpc', Array.from({ length: 4 }, (_, i) => single({
    name: 'oteldemo.PaymentService/Charge', startNs: T0 + BigInt(i + 1) * SEC, durationMs: 20,
    attributes: { 'rpc.system': 'grpc', 'rpc.service': 'oteldemo.PaymentService', 'rpc.method': 'Charge', 'rpc.grpc.status_code': i === 0 ? 13 : 0 },
    status: i === 0 ? 2 : 0,
  }))));
  await ingest(store, 'traces', tracesBody(beylaResource('payment'), '', Array.from({ length: 2 }, (_, i) => single({
    name: '/oteldemo.PaymentService/Charge', startNs: T0 + BigInt(i + 1) * SEC, durationMs: 30,
    attributes: { 'rpc.system.name': 'grpc', 'rpc.response.status_code': i === 0 ? 'UNAVAILABLE' : 'OK' },
  }))));
  // product-catalog SQL: SDK with legacy db names, eBPF with current ones.
  await ingest(store, 'traces', tracesBody(sdkResource('product-catalog'), '@opentelemetry/instrumentation-pg', [0, 1, 2].map((i) => single({
    name: 'SELECT products', kind: 3, startNs: T0 + BigInt(i + 1) * SEC, durationMs: 2,
    attributes: { 'db.system': 'postgresql', 'db.operation': 'SELECT', 'db.sql.table': 'products', 'db.statement': 'SELECT * FROM products WHERE id = $1' },
  }))));
  await ingest(store, 'traces', tracesBody(beylaResource('product-catalog'), '', [0, 1].map((i) => single({
    name: 'SELECT products', kind: 3, startNs: T0 + BigInt(i + 1) * SEC, durationMs: 3,
    attributes: { 'db.system.name': 'postgresql', 'db.operation.name': 'SELECT', 'db.collection.name': 'products' },
  }))));

  // One whole trace across services: frontend -> checkout (client/server, both sources) -> postgres.
  const trace = 'ab'.repeat(16);
  await ingest(store, 'traces', tracesBody(sdkResource('frontend'), '@opentelemetry/instrumentation-http', [
    { traceId: trace, spanId: 'f1'.repeat(8), name: 'POST /api/place-order', startNs: T0 + 5n * MIN, durationMs: 900, attributes: { 'http.request.method': 'POST', 'http.route': '/api/place-order', 'http.response.status_code': 200 } },
    { traceId: trace, spanId: 'f2'.repeat(8), parentSpanId: 'f1'.repeat(8), kind: 3, name: 'POST', startNs: T0 + 5n * MIN + 1_000_000n, durationMs: 850, attributes: { 'http.request.method': 'POST', 'peer.service': 'checkout' } },
  ]));
  await ingest(store, 'traces', tracesBody(sdkResource('checkout'), '@opentelemetry/instrumentation-http', [
    { traceId: trace, spanId: 'c1'.repeat(8), parentSpanId: 'f2'.repeat(8), name: 'POST /api/orders', startNs: T0 + 5n * MIN + 5_000_000n, durationMs: 800, attributes: { 'http.request.method': 'POST', 'http.route': '/api/orders', 'http.response.status_code': 200 } },
    { traceId: trace, spanId: 'c2'.repeat(8), parentSpanId: 'c1'.repeat(8), kind: 3, name: 'INSERT orders', startNs: T0 + 5n * MIN + 6_000_000n, durationMs: 700, attributes: { 'db.system': 'postgresql', 'db.operation': 'INSERT', 'db.sql.table': 'orders' } },
  ]));
  await ingest(store, 'traces', tracesBody(beylaResource('checkout'), '', [
    { traceId: trace, spanId: 'e1'.repeat(8), parentSpanId: 'f2'.repeat(8), name: 'POST /api/orders', startNs: T0 + 5n * MIN + 3_000_000n, durationMs: 803, attributes: { 'http.request.method': 'POST', 'http.route': '/api/orders', 'http.response.status_code': 200 } },
  ]));

  // frontend Beyla histograms: a healthy series and an error series that restarted inside the window.
  const route = { 'http.request.method': 'GET', 'http.route': '/api/products/*' };
  const metric = { name: 'http.server.request.duration', unit: 's' };
  await ingest(store, 'metrics', histogramBody(beylaResource('frontend'), '', metric, [
    { attributes: { ...route, 'http.response.status_code': 200 }, startNs: T0 - 10n * MIN, timeNs: T0 - 30n * SEC, bounds: BEYLA_BOUNDS, counts: buckets({ 3: 10 }) },
    { attributes: { ...route, 'http.response.status_code': 200 }, startNs: T0 - 10n * MIN, timeNs: T0 + 5n * MIN, bounds: BEYLA_BOUNDS, counts: buckets({ 3: 20, 4: 10 }) },
    { attributes: { ...route, 'http.response.status_code': 500 }, startNs: T0 - 10n * MIN, timeNs: T0 - 30n * SEC, bounds: BEYLA_BOUNDS, counts: buckets({ 10: 5 }) },
    { attributes: { ...route, 'http.response.status_code': 500 }, startNs: T0 + 1n * MIN, timeNs: T0 + 5n * MIN, bounds: BEYLA_BOUNDS, counts: buckets({ 10: 2 }) },
  ]));

  await ingest(store, 'logs', logsBody(sdkResource('payment'), 'logger', [
    { timeNs: T0 + 10n * SEC, severityNumber: 17, severityText: 'ERROR', body: 'Charge failed: Invalid token (50% of retries used)', traceId: trace, spanId: 'c1'.repeat(8) },
    { timeNs: T0 + 11n * SEC, severityNumber: 9, body: 'charge ok' },
    { timeNs: T0 + 12n * SEC, severityNumber: 13, body: 'slow charge' },
    { timeNs: T0 + 1n * MIN, body: 'payment v2.1.0 rolled out', eventName: 'deploy', attributes: { 'service.version': '2.1.0' } },
  ]));
  return store;
}
