import type { EventKind } from '../colony/store/rows.js';
import type { Conditions, Flag } from './requests.js';

/**
 * The incident scenarios, each one hour long, modelled on the OpenTelemetry Demo's failure flags,
 * with their ground truth in machine-readable form (tests and the agent's evaluation use it).
 */
export interface FlagWindow {
  flag: Flag;
  startSec: number;
  /** Intensity at full strength, 0..1 (for paymentFailure: the share of charges that fail). */
  level: number;
  /** Seconds to ramp from 0 to `level`; absent means at once. */
  rampSec?: number;
}

export interface DemoEvent {
  atSec: number;
  service: string;
  kind: EventKind;
  title: string;
  attributes: Record<string, string>;
}

export interface AffectedOperation {
  service: string;
  /** An HTTP route as the SDK spells it, or a gRPC method, or a messaging operation. */
  route?: string;
  method?: string;
  rpcMethod?: string;
  operation?: string;
}

export interface GroundTruth {
  /** Services where the fault is; empty for a healthy hour. */
  culprits: string[];
  symptom: 'none' | 'errors' | 'latency' | 'backlog';
  /** Seconds from the scenario's start when the fault begins; null when there is none. */
  startSec: number | null;
  affected: AffectedOperation[];
  /** What a good investigation concludes, in a sentence. */
  summary: string;
}

export interface ScenarioDef {
  name: string;
  story: string;
  seed: number;
  /** Average edge requests per second; the traffic shape varies around it. */
  ratePerSec: number;
  flags: FlagWindow[];
  events: DemoEvent[];
  truth: GroundTruth;
}

export const SCENARIO_SECONDS = 3600;
/** Every scenario file is written as if it ran from this instant; loading shifts it (usually to end now). */
export const SCENARIO_BASE_ISO = '2025-03-04T09:00:00.000Z';
export const SCENARIO_BASE_NS = BigInt(Date.parse(SCENARIO_BASE_ISO)) * 1_000_000n;

const RATE = 0.95;

export const SCENARIOS: readonly ScenarioDef[] = [
  {
    name: 'healthy',
    story: 'A normal hour of the Astronomy Shop; a routine frontend deploy changes nothing.',
    seed: 1001,
    ratePerSec: RATE,
    flags: [],
    events: [{ atSec: 1200, service: 'frontend', kind: 'deploy', title: 'frontend 2.0.2 rolled out (3/3 pods ready)', attributes: { 'service.version': '2.0.2', 'deployment.id': 'frontend-7f9c' } }],
    truth: { culprits: [], symptom: 'none', startSec: null, affected: [], summary: 'No incident: every service is within its normal error rate and latency.' },
  },
  {
    name: 'payment-failure',
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
];

export function scenarioByName(name: string): ScenarioDef | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/** The active flags and their intensities at `sec` seconds into a scenario. */
export function conditionsAt(def: ScenarioDef, sec: number): Conditions {
  const out: Conditions = {};
  for (const f of def.flags) {
    if (sec < f.startSec) continue;
    const ramp = f.rampSec ? Math.min(1, (sec - f.startSec) / f.rampSec) : 1;
    out[f.flag] = Math.max(0.001, f.level * ramp);
  }
  return out;
}
