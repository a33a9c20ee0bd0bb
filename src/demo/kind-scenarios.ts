import { Fleet, SLOW_INDEX } from './fleet.js';
import type { ScenarioDef } from './scenario-def.js';

/**
 * Scenarios of the incident kinds whose evidence is not in the culprit's own error rate or latency
 * (issue #27): one slow pod among five, a config push that makes a dependency reject requests, a
 * consumer that falls behind while its spans look normal. All run a fleet: several pods per service.
 */
const BAD_POD_SEED = 11011;
const BAD_POD_FLEET = { instances: { cart: 5 } };
const badPod = new Fleet(BAD_POD_SEED, BAD_POD_FLEET).instance('cart', SLOW_INDEX);

export const KIND_SCENARIOS: readonly ScenarioDef[] = [
  {
    name: 'bad-pod',
    kind: 'bad-instance',
    story: `One of cart's five pods (${badPod.pod}) answers in ~240 ms while its siblings answer in ~1 ms; least-request balancing sends it little traffic, so cart's P95 barely moves.`,
    seed: BAD_POD_SEED,
    ratePerSec: 0.95,
    fleet: BAD_POD_FLEET,
    flags: [{ flag: 'slowpod:cart', startSec: 2040, level: 1 }],
    events: [{ atSec: 1320, service: 'shipping', kind: 'deploy', title: 'shipping 2.0.3 rolled out (2/2 pods ready)', attributes: { 'service.version': '2.0.3', 'deployment.id': 'shipping-5a2c' } }],
    truth: {
      culprits: ['cart'],
      symptom: 'latency',
      startSec: 2040,
      affected: [{ service: 'cart', rpcMethod: 'GetCart', pod: badPod.pod }, { service: 'cart', rpcMethod: 'AddItem', pod: badPod.pod }],
      summary: `Since ~34 minutes in, cart's pod ${badPod.pod} (node ${badPod.node}) takes ~240 ms per call while cart's other four pods stay at ~1 ms; it serves ~4% of cart's calls, so cart's P95 hardly changes and only its P99 and the per-pod breakdown show it. The shipping deploy is unrelated.`,
    },
  },
  {
    name: 'config-push-4xx',
    kind: 'config-push',
    story: 'A config push to product-catalog makes it reject ~30% of requests with INVALID_ARGUMENT: product-catalog reports no server errors, while checkout and the frontend answer 5xx naming it.',
    seed: 12012,
    ratePerSec: 0.95,
    fleet: {},
    flags: [{ flag: 'reject:product-catalog', startSec: 2100, level: 0.3 }],
    events: [
      { atSec: 960, service: 'frontend', kind: 'deploy', title: 'frontend 2.0.3 rolled out (3/3 pods ready)', attributes: { 'service.version': '2.0.3', 'deployment.id': 'frontend-2b7e' } },
      { atSec: 2095, service: 'product-catalog', kind: 'config_change', title: 'product-catalog config rev 2025-03-04.2 pushed (validation.required_fields += currency_code)', attributes: { 'config.revision': '2025-03-04.2', 'config.source': 'configmap/product-catalog' } },
    ],
    truth: {
      culprits: ['product-catalog'],
      symptom: 'errors',
      startSec: 2100,
      affected: [
        { service: 'product-catalog', rpcMethod: 'GetProduct' },
        { service: 'product-catalog', rpcMethod: 'ListProducts' },
        { service: 'checkout', rpcMethod: 'PlaceOrder' },
        { service: 'frontend', route: '/api/products/[productId]', method: 'GET' },
        { service: 'frontend', route: '/api/checkout', method: 'POST' },
      ],
      summary: 'The product-catalog config push (rev 2025-03-04.2) at ~35 minutes makes it answer ~30% of GetProduct and ListProducts calls with INVALID_ARGUMENT (a client error, so its own server error rate stays 0); its callers turn that into 5xx (frontend product pages and checkouts, checkout PlaceOrder) with messages naming product-catalog. The frontend deploy half an hour earlier is unrelated.',
    },
  },
  {
    name: 'consumer-lag',
    kind: 'consumer-lag',
    story: 'fraud-detection polls the orders topic too rarely: its spans take as long as ever, but its consumer lag climbs and each order waits minutes between publish and processing.',
    seed: 13013,
    ratePerSec: 0.95,
    fleet: {},
    flags: [{ flag: 'lag:fraud-detection', startSec: 1980, level: 1 }],
    events: [{ atSec: 1500, service: 'checkout', kind: 'deploy', title: 'checkout 2.0.3 rolled out (2/2 pods ready)', attributes: { 'service.version': '2.0.3', 'deployment.id': 'checkout-6d01' } }],
    truth: {
      culprits: ['fraud-detection'],
      symptom: 'backlog',
      startSec: 1980,
      affected: [{ service: 'fraud-detection', operation: 'orders process' }],
      summary: 'Since ~33 minutes in, fraud-detection consumes orders slower than checkout publishes them: its consumer lag (messaging.kafka.consumer.lag) climbs and the delay from publish to processing (producer span end to the linked consumer span start) grows from milliseconds to minutes, while producer and consumer span durations and error rates stay normal. The checkout deploy is unrelated; accounting keeps up.',
    },
  },
];
