import { Random } from '../core/random.js';
import { Fleet, type FleetDef } from './fleet.js';
import type { InstrumentationOverride } from './instrument.js';
import type { ServiceFault } from './conditions.js';
import type { DemoEvent, FlagWindow, GroundTruth, IncidentKind, ScenarioDef } from './scenarios.js';
import { type Topology, leaves, randomTopology } from './topology.js';
import { SERVICES, type ServiceDef, hasEbpf, hasSdk } from './world.js';

/**
 * Random incidents on the demo world (so an evaluation cannot be passed by tuning to a few stories):
 * a fault type, its service, strength and onset, plus random SDK sampling, a chronic background fault
 * and unrelated deploys, all drawn from one seed. Each draw carries its ground truth. Every draw runs
 * a fleet (1-5 pods per service on shared nodes); half of them run on a random topology (topology.ts)
 * instead of the shop, with the kinds that do not need the shop's own stories.
 */
export type FaultKind = IncidentKind;

const SLOWABLE = ['currency', 'payment', 'quote', 'email', 'ad', 'cart', 'product-catalog', 'shipping'];
const FAILABLE = ['checkout', 'cart', 'product-catalog', 'payment', 'shipping', 'recommendation', 'ad'];
const SAMPLEABLE = ['payment', 'checkout', 'cart', 'product-catalog', 'ad', 'shipping'];
const DEPLOYABLE = ['frontend', 'ad', 'cart', 'checkout', 'currency', 'payment', 'shipping', 'recommendation'];
/** Services with enough traffic that one slow pod among several is a story. */
const PODDABLE = ['cart', 'checkout', 'product-catalog', 'currency', 'payment', 'ad', 'shipping', 'recommendation'];
/** Callees whose callers check the answer, so a rejection, a 503 or silence surfaces in them. */
const REJECTABLE = ['product-catalog', 'payment', 'currency', 'cart'];
const CASCADABLE = ['currency', 'payment', 'product-catalog', 'cart'];
const DARKABLE = ['cart', 'currency', 'payment', 'shipping', 'ad'];
/** gRPC services seen by both an SDK and Beyla: a slow method Beyla's histogram sees whole. */
const STALLABLE = ['payment', 'checkout', 'cart', 'product-catalog', 'ad'];
const CONSUMERS = ['accounting', 'fraud-detection'];

/** The services each kind of fault may hit, in one world. */
interface Pools {
  slow: string[];
  fail: string[];
  pod: string[];
  reject: string[];
  cascade: string[];
  dark: string[];
  stall: string[];
  consumers: string[];
  deploy: string[];
  sample: string[];
  services: readonly ServiceDef[];
}

const SHOP: Omit<Pools, 'services'> = {
  slow: SLOWABLE, fail: FAILABLE, pod: PODDABLE, reject: REJECTABLE, cascade: CASCADABLE, dark: DARKABLE, stall: STALLABLE,
  consumers: CONSUMERS, deploy: DEPLOYABLE, sample: SAMPLEABLE,
};

function topologyPools(t: Topology): Pools {
  const called = t.levels.slice(1).flat();
  const def = (n: string) => t.services.find((s) => s.name === n) as ServiceDef;
  const grpcBoth = called.filter((n) => def(n).instrumentation === 'both' && t.ops.some((o) => o.service === n && o.op.protocol === 'grpc'));
  const withEbpf = called.filter((n) => hasEbpf(def(n)));
  return {
    slow: called, fail: called, pod: called, reject: called, dark: called,
    cascade: leaves(t).length > 0 ? leaves(t) : called,
    stall: grpcBoth.length > 0 ? grpcBoth : withEbpf.length > 0 ? withEbpf : called,
    consumers: t.consumers, deploy: [...t.levels.flat(), ...t.consumers], sample: called.filter((n) => hasSdk(def(n))), services: t.services,
  };
}

interface Fault {
  culprit: string;
  symptom: GroundTruth['symptom'];
  flags: FlagWindow[];
  events?: DemoEvent[];
  instances?: Record<string, number>;
  instrumentation?: Record<string, InstrumentationOverride>;
}

/** What the draws pick from: the bundled kafka-queue-problems' flood has no random counterpart. */
type Drawn = Exclude<FaultKind, 'queue-flood'>;
type Single = Exclude<Drawn, 'two-faults' | 'none'>;

const flag = (f: ServiceFault, startSec: number, level: number): FlagWindow => ({ flag: f, startSec, level });

function draw(rng: Random, kind: Single, startSec: number, seed: number, pools: Pools, not: string[] = []): Fault {
  const pick = (list: string[]) => rng.pick(list.filter((s) => !not.includes(s)));
  switch (kind) {
    case 'leaf-latency': {
      const svc = pick(pools.slow);
      return { culprit: svc, symptom: 'latency', flags: [flag(`slow:${svc}`, startSec, 0.3 + 0.7 * rng.next())] };
    }
    case 'service-errors': {
      const svc = pick(pools.fail);
      return { culprit: svc, symptom: 'errors', flags: [flag(`fail:${svc}`, startSec, 0.1 + 0.3 * rng.next())] };
    }
    case 'operation-bug': {
      const bug = rng.pick([
        { culprit: 'product-catalog', symptom: 'errors' as const, flag: 'productCatalogFailure' as const, level: 1 },
        { culprit: 'frontend', symptom: 'latency' as const, flag: 'cartViewN1' as const, level: 1 },
        { culprit: 'payment', symptom: 'errors' as const, flag: 'paymentFailure' as const, level: 0.2 + 0.4 * rng.next() },
      ].filter((b) => !not.includes(b.culprit)));
      return { culprit: bug.culprit, symptom: bug.symptom, flags: [{ flag: bug.flag, startSec, level: bug.level }] };
    }
    case 'memory-leak':
      return { culprit: 'ad', symptom: 'saturation', flags: [{ flag: 'adMemoryLeak', startSec, level: 1, cycleSec: rng.int(300, 600) }] };
    case 'bad-instance': {
      const svc = pick(pools.pod);
      return { culprit: svc, symptom: 'latency', instances: { [svc]: rng.int(3, 5) }, flags: [flag(`slowpod:${svc}`, startSec, 0.8 + 0.4 * rng.next())] };
    }
    case 'config-push': {
      const svc = pick(pools.reject);
      const rev = `2025-03-04.${rng.int(2, 9)}`;
      return {
        culprit: svc, symptom: 'errors', flags: [flag(`reject:${svc}`, startSec, 0.15 + 0.25 * rng.next())],
        events: [{ atSec: startSec - rng.int(0, 20), service: svc, kind: 'config_change', title: `${svc} config rev ${rev} pushed`, attributes: { 'config.revision': rev } }],
      };
    }
    case 'consumer-lag': {
      const group = pick(pools.consumers);
      return { culprit: group, symptom: 'backlog', flags: [flag(`lag:${group}`, startSec, 0.8 + 0.4 * rng.next())] };
    }
    case 'noisy-neighbour': {
      // Its first pod must share a node with other services' pods: they are the ones that slow down.
      const fleet = new Fleet(seed, {}, pools.services);
      const candidates = pools.services.filter((s) => hasSdk(s) && !not.includes(s.name) && new Set(fleet.neighbours(s.name).map((n) => n.service)).size >= 2);
      const svc = (candidates.length > 0 ? rng.pick(candidates) : (pools.services.find((s) => s.name === pick(pools.fail)) as ServiceDef)).name;
      return { culprit: svc, symptom: 'saturation', flags: [flag(`noisy:${svc}`, startSec, 0.7 + 0.3 * rng.next())] };
    }
    case 'error-cascade': {
      const svc = pick(pools.cascade);
      return { culprit: svc, symptom: 'errors', flags: [flag(`cascade:${svc}`, startSec, 0.5 + 0.5 * rng.next())] };
    }
    case 'sampled-slow': {
      const svc = pick(pools.stall);
      return { culprit: svc, symptom: 'latency', flags: [flag(`stall:${svc}`, startSec, 0.8 + 0.4 * rng.next())], instrumentation: { [svc]: { sdkSampleRate: 0.1, ebpfSpans: false } } };
    }
    case 'silent-callee': {
      const svc = pick(pools.dark);
      return { culprit: svc, symptom: 'errors', flags: [flag(`dark:${svc}`, startSec, 1)] };
    }
  }
}

const WEIGHTS: readonly (readonly [Drawn, number])[] = [
  ['leaf-latency', 3], ['service-errors', 3], ['operation-bug', 2], ['memory-leak', 1], ['two-faults', 1], ['none', 2],
  ['bad-instance', 2], ['config-push', 2], ['consumer-lag', 2], ['noisy-neighbour', 2], ['error-cascade', 2], ['sampled-slow', 2], ['silent-callee', 2],
];

/** The shop's own stories (operation bugs, the ad leak) have no counterpart on a random topology. */
const SHOP_ONLY: readonly FaultKind[] = ['operation-bug', 'memory-leak'];

export function randomScenario(seed: number): ScenarioDef {
  const rng = new Random(seed);
  const topology = rng.chance(0.5) ? randomTopology(seed) : null;
  const pools: Pools = topology ? topologyPools(topology) : { ...SHOP, services: SERVICES };
  const kind = rng.weighted(WEIGHTS.filter(([k]) => !(topology && SHOP_ONLY.includes(k)) && !(k === 'consumer-lag' && pools.consumers.length === 0)));
  const startSec = rng.int(1860, 2400);
  const faults: Fault[] = [];
  if (kind === 'two-faults') {
    const first = draw(rng, rng.pick(['leaf-latency', 'service-errors'] as const), startSec, seed, pools);
    faults.push(first, draw(rng, rng.pick(['leaf-latency', 'service-errors'] as const), startSec + rng.int(0, 300), seed, pools, [first.culprit]));
  } else if (kind !== 'none') faults.push(draw(rng, kind, startSec, seed, pools));
  const culprits = [...new Set(faults.map((f) => f.culprit))];
  const flags = faults.flatMap((f) => f.flags);
  // A chronic fault all hour, on a service that is not a culprit.
  if (!topology && !culprits.includes('cart') && rng.chance(0.3)) flags.push({ flag: 'cartWriteFailure', startSec: 0, level: 0.03 + 0.04 * rng.next() });
  const events: DemoEvent[] = faults.flatMap((f) => f.events ?? []);
  const deploy = (service: string, atSec: number): DemoEvent => ({ atSec, service, kind: 'deploy', title: `${service} 2.${rng.int(1, 9)}.${rng.int(0, 9)} rolled out`, attributes: {} });
  if (faults[0] && rng.chance(0.5)) events.push(deploy(faults[0].culprit, startSec - rng.int(30, 180)));
  const bystander = rng.pick(pools.deploy.filter((s) => !culprits.includes(s)));
  events.push(deploy(bystander, rng.int(300, 3300)));
  events.sort((a, b) => a.atSec - b.atSec);
  const own = faults.find((f) => f.instrumentation)?.instrumentation;
  const sampled = own || pools.sample.length === 0 ? null : rng.chance(0.3) ? rng.pick(pools.sample) : null;
  const instrumentation = own ?? (sampled ? { [sampled]: { sdkSampleRate: 0.1, ebpfSpans: rng.chance(0.5) } } : undefined);
  const fleet: FleetDef = { instances: Object.assign({}, ...faults.map((f) => f.instances ?? {})) as Record<string, number> };
  return {
    name: `random-${seed}`,
    kind,
    story: `Random draw ${seed}: ${kind}${culprits.length ? ` on ${culprits.join(' and ')}` : ''}${sampled ? `; ${sampled}'s SDK samples 10%` : ''}${topology ? `; a random topology of ${topology.services.length} services` : ''}.`,
    seed,
    ratePerSec: 0.95,
    flags,
    events,
    fleet,
    ...(topology ? { topology: { seed } } : {}),
    ...(instrumentation ? { instrumentation } : {}),
    truth: {
      culprits,
      symptom: faults[0]?.symptom ?? 'none',
      startSec: faults.length ? startSec : null,
      affected: culprits.map((service) => ({ service })),
      summary: `${kind}${culprits.length ? ` on ${culprits.join(' and ')}` : ': no incident'}.`,
    },
  };
}
