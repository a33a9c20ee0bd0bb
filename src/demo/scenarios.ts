import type { Conditions } from './conditions.js';
import { KIND_SCENARIOS } from './kind-scenarios.js';
import type { ScenarioDef } from './scenario-def.js';

/**
 * The incident scenarios, each one hour long, modelled on the OpenTelemetry Demo's failure flags,
 * with their ground truth in machine-readable form (tests and the agent's evaluation use it).
 */
export type { AffectedOperation, DemoEvent, FlagWindow, GroundTruth, IncidentKind, ScenarioDef } from './scenario-def.js';

export const SCENARIO_SECONDS = 3600;
/** Every scenario file is written as if it ran from this instant; loading shifts it (usually to end now). */
export const SCENARIO_BASE_ISO = '2025-03-04T09:00:00.000Z';
export const SCENARIO_BASE_NS = BigInt(Date.parse(SCENARIO_BASE_ISO)) * 1_000_000n;

const RATE = 0.95;

export const SCENARIOS: readonly ScenarioDef[] = [
  {
    name: 'healthy',
    kind: 'none',
    story: 'A normal hour of the Astronomy Shop; a routine frontend deploy changes nothing.',
    seed: 1001,
    ratePerSec: RATE,
    flags: [],
    events: [{ atSec: 1200, service: 'frontend', kind: 'deploy', title: 'frontend 2.0.2 rolled out (3/3 pods ready)', attributes: { 'service.version': '2.0.2', 'deployment.id': 'frontend-7f9c' } }],
    truth: { culprits: [], symptom: 'none', startSec: null, affected: [], summary: 'No incident: every service is within its normal error rate and latency.' },
  },
  {
    name: 'payment-failure',
    kind: 'operation-bug',
    story: 'Half of all card charges fail with "Invalid token" right after a payment release; checkouts return 500.',
    seed: 2002,
    ratePerSec: RATE,
    flags: [{ flag: 'paymentFailure', startSec: 2100, level: 0.5 }],
    events: [{ atSec: 2040, service: 'payment', kind: 'deploy', title: 'payment 2.1.0 rolled out (2/2 pods ready)', attributes: { 'service.version': '2.1.0', 'deployment.id': 'payment-5c2e' } }],
    truth: {
      culprits: ['payment'],
      symptom: 'errors',
      startSec: 2100,
      affected: [
        { service: 'payment', rpcMethod: 'Charge' },
        { service: 'checkout', rpcMethod: 'PlaceOrder' },
        { service: 'frontend', route: '/api/checkout', method: 'POST' },
      ],
      summary: 'payment Charge fails with "Invalid token" for about half the charges since the 2.1.0 release; checkout PlaceOrder returns INTERNAL and the frontend POST /api/checkout returns 500. Latency is normal.',
    },
  },
  {
    name: 'product-catalog-failure',
    kind: 'operation-bug',
    story: 'GetProduct fails for one product (OLJCESPC7Z): its page and every checkout containing it return 500.',
    seed: 3003,
    ratePerSec: RATE,
    flags: [{ flag: 'productCatalogFailure', startSec: 1800, level: 1 }],
    events: [{ atSec: 1800, service: 'product-catalog', kind: 'config_change', title: 'feature flag productCatalogFailure enabled', attributes: { 'feature_flag.key': 'productCatalogFailure', 'feature_flag.variant': 'on' } }],
    truth: {
      culprits: ['product-catalog'],
      symptom: 'errors',
      startSec: 1800,
      affected: [
        { service: 'product-catalog', rpcMethod: 'GetProduct' },
        { service: 'frontend', route: '/api/products/[productId]', method: 'GET' },
        { service: 'checkout', rpcMethod: 'PlaceOrder' },
        { service: 'frontend', route: '/api/checkout', method: 'POST' },
      ],
      summary: 'product-catalog GetProduct returns INTERNAL for product OLJCESPC7Z since the productCatalogFailure flag was enabled; that product page and checkouts containing it fail. Other products are fine.',
    },
  },
  {
    name: 'recommendation-cache-failure',
    kind: 'leaf-latency',
    story: 'A broken cache makes recommendation walk an ever-growing list: latency, memory and CPU climb, no errors.',
    seed: 4004,
    ratePerSec: RATE,
    flags: [{ flag: 'recommendationCacheFailure', startSec: 1500, level: 1, rampSec: 1800 }],
    events: [{ atSec: 1500, service: 'recommendation', kind: 'config_change', title: 'feature flag recommendationCacheFailure enabled', attributes: { 'feature_flag.key': 'recommendationCacheFailure', 'feature_flag.variant': 'on' } }],
    truth: {
      culprits: ['recommendation'],
      symptom: 'latency',
      startSec: 1500,
      affected: [
        { service: 'recommendation', rpcMethod: 'ListRecommendations' },
        { service: 'frontend', route: '/api/recommendations', method: 'GET' },
        { service: 'frontend', route: '/api/products/[productId]', method: 'GET' },
      ],
      summary: 'recommendation ListRecommendations P95/P99 climb steadily with its memory and CPU since the recommendationCacheFailure flag; error rates stay normal. Product pages slow down with it.',
    },
  },
  {
    name: 'kafka-queue-problems',
    kind: 'queue-flood',
    story: 'checkout floods the orders topic with duplicate messages and fraud-detection takes a second per record: consumer lag explodes.',
    seed: 5005,
    ratePerSec: RATE,
    flags: [{ flag: 'kafkaQueueProblems', startSec: 1800, level: 1 }],
    events: [{ atSec: 1800, service: 'checkout', kind: 'config_change', title: 'feature flag kafkaQueueProblems enabled', attributes: { 'feature_flag.key': 'kafkaQueueProblems', 'feature_flag.variant': 'on' } }],
    truth: {
      culprits: ['checkout', 'fraud-detection'],
      symptom: 'backlog',
      startSec: 1800,
      affected: [
        { service: 'checkout', operation: 'orders publish' },
        { service: 'fraud-detection', operation: 'orders process' },
      ],
      summary: 'Since the kafkaQueueProblems flag, checkout publishes each order 20-40 extra times and fraud-detection spends about 1 s per record, so its consumer lag on the orders topic grows without bound. User-facing requests are unaffected.',
    },
  },
  {
    name: 'cart-view-regression',
    kind: 'operation-bug',
    story: 'A frontend release renders the cart item by item: GET /api/cart makes one GetCart call per item and goes from ~5 ms to ~40 ms, while the frontend\'s overall P95 (set by checkouts) barely moves.',
    seed: 6006,
    ratePerSec: RATE,
    flags: [{ flag: 'cartViewN1', startSec: 2040, level: 1 }],
    events: [{ atSec: 1980, service: 'frontend', kind: 'deploy', title: 'frontend 2.1.0 rolled out (3/3 pods ready)', attributes: { 'service.version': '2.1.0', 'deployment.id': 'frontend-91ab' } }],
    truth: {
      culprits: ['frontend'],
      symptom: 'latency',
      startSec: 2040,
      affected: [{ service: 'frontend', route: '/api/cart', method: 'GET' }, { service: 'cart', rpcMethod: 'GetCart' }],
      summary: 'Since the frontend 2.1.0 release, GET /api/cart calls cart GetCart once per item (N+1): the route is ~8x slower and the frontend\'s CPU rises; cart itself is as fast as before, only busier.',
    },
  },
  {
    name: 'payment-slow-sampled',
    kind: 'sampled-slow',
    story: 'The card network slows down: payment Charge takes ~1.5 s. payment\'s SDK samples 10% of requests and Beyla exports only metrics for it, so only its rpc.server.duration histogram sees every charge.',
    seed: 7007,
    ratePerSec: RATE,
    flags: [{ flag: 'paymentSlow', startSec: 1980, level: 1, rampSec: 120 }],
    events: [{ atSec: 1500, service: 'ad', kind: 'deploy', title: 'ad 2.0.3 rolled out (2/2 pods ready)', attributes: { 'service.version': '2.0.3', 'deployment.id': 'ad-77d0' } }],
    instrumentation: { payment: { sdkSampleRate: 0.1, ebpfSpans: false } },
    truth: {
      culprits: ['payment'],
      symptom: 'latency',
      startSec: 1980,
      affected: [{ service: 'payment', rpcMethod: 'Charge' }, { service: 'checkout', rpcMethod: 'PlaceOrder' }, { service: 'frontend', route: '/api/checkout', method: 'POST' }],
      summary: 'payment Charge went from ~5 ms to ~1.5 s (Beyla\'s histogram; the SDK sampled only a handful of spans); checkout PlaceOrder and the frontend checkout route slow down by the same amount. No errors. The ad deploy half an hour earlier is unrelated.',
    },
  },
  {
    name: 'currency-slow-timeouts',
    kind: 'leaf-latency',
    story: 'currency (eBPF only) stalls on its rates provider: Convert takes ~130 ms and often more than its callers\' 250 ms deadline, so checkout and the frontend fail with DEADLINE_EXCEEDED while currency itself reports no error.',
    seed: 8008,
    ratePerSec: RATE,
    flags: [{ flag: 'currencySlow', startSec: 2100, level: 1 }],
    events: [{ atSec: 900, service: 'checkout', kind: 'deploy', title: 'checkout 2.0.3 rolled out (2/2 pods ready)', attributes: { 'service.version': '2.0.3', 'deployment.id': 'checkout-3e1f' } }],
    truth: {
      culprits: ['currency'],
      symptom: 'latency',
      startSec: 2100,
      affected: [
        { service: 'currency', rpcMethod: 'Convert' },
        { service: 'currency', rpcMethod: 'GetSupportedCurrencies' },
        { service: 'checkout', rpcMethod: 'PlaceOrder' },
        { service: 'frontend', route: '/api/products/[productId]', method: 'GET' },
        { service: 'frontend', route: '/api/checkout', method: 'POST' },
      ],
      summary: 'currency answers slowly (P95 hundreds of ms instead of ~1 ms); its callers give up after 250 ms, so checkout PlaceOrder and frontend product pages fail with DEADLINE_EXCEEDED. The errors are the callers\', the cause is currency\'s latency.',
    },
  },
  {
    name: 'checkout-bug-chronic-cart',
    kind: 'operation-bug',
    story: 'cart has failed ~5% of its writes all day (cache connection errors); a checkout release then rejects ~20% of orders with an address validation bug.',
    seed: 9009,
    ratePerSec: RATE,
    flags: [{ flag: 'cartWriteFailure', startSec: 0, level: 0.05 }, { flag: 'checkoutBug', startSec: 2160, level: 0.2 }],
    events: [{ atSec: 2100, service: 'checkout', kind: 'deploy', title: 'checkout 2.1.0 rolled out (2/2 pods ready)', attributes: { 'service.version': '2.1.0', 'deployment.id': 'checkout-8b42' } }],
    truth: {
      culprits: ['checkout'],
      symptom: 'errors',
      startSec: 2160,
      affected: [{ service: 'checkout', rpcMethod: 'PlaceOrder' }, { service: 'frontend', route: '/api/checkout', method: 'POST' }],
      summary: 'Since the checkout 2.1.0 release, PlaceOrder rejects ~20% of orders ("shipping address validation failed"). cart\'s ~5% failed writes are chronic (as bad before) and unrelated.',
    },
  },
  {
    name: 'ad-memory-leak',
    kind: 'memory-leak',
    story: 'An ad release leaks memory: the JVM heap climbs until the pod is OOM-killed and restarts, every 8 minutes; GC pauses slow GetAds as the heap fills, and product pages with it.',
    seed: 10010,
    ratePerSec: RATE,
    flags: [{ flag: 'adMemoryLeak', startSec: 1860, level: 1, cycleSec: 480 }],
    events: [
      { atSec: 1800, service: 'ad', kind: 'deploy', title: 'ad 2.1.0 rolled out (2/2 pods ready)', attributes: { 'service.version': '2.1.0', 'deployment.id': 'ad-4c19' } },
      ...[1, 2, 3].map((k) => ({ atSec: 1860 + 480 * k, service: 'ad', kind: 'restart' as const, title: 'ad container restarted (OOMKilled)', attributes: { 'k8s.container.restart_count': String(k) } })),
    ],
    truth: {
      culprits: ['ad'],
      symptom: 'saturation',
      startSec: 1860,
      affected: [{ service: 'ad', rpcMethod: 'GetAds' }, { service: 'frontend', route: '/api/products/[productId]', method: 'GET' }],
      summary: 'Since the ad 2.1.0 release, ad\'s memory climbs until it is OOM-killed and restarts every ~8 minutes (the latest memory point alone looks normal); GetAds slows down as the heap fills and product pages wait on it.',
    },
  },
  ...KIND_SCENARIOS,
];

export function scenarioByName(name: string): ScenarioDef | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/** The active flags and their intensities at `sec` seconds into a scenario. */
export function conditionsAt(def: ScenarioDef, sec: number): Conditions {
  const out: Conditions = {};
  for (const f of def.flags) {
    if (sec < f.startSec) continue;
    const ramp = f.cycleSec ? ((sec - f.startSec) % f.cycleSec) / f.cycleSec : f.rampSec ? Math.min(1, (sec - f.startSec) / f.rampSec) : 1;
    out[f.flag] = Math.max(0.001, f.level * ramp);
  }
  return out;
}
