import { Random } from '../core/random.js';
import type { ServiceFault } from './requests.js';
import type { DemoEvent, FlagWindow, GroundTruth, ScenarioDef } from './scenarios.js';

/**
 * Random incidents on the demo world (so an evaluation cannot be passed by tuning to a few stories):
 * a fault type, its service, strength and onset, plus random SDK sampling, a chronic background fault
 * and unrelated deploys, all drawn from one seed. Each draw carries its ground truth.
 */
export type FaultKind = 'leaf-latency' | 'service-errors' | 'operation-bug' | 'memory-leak' | 'two-faults' | 'none';

const SLOWABLE = ['currency', 'payment', 'quote', 'email', 'ad', 'cart', 'product-catalog', 'shipping'];
const FAILABLE = ['checkout', 'cart', 'product-catalog', 'payment', 'shipping', 'recommendation', 'ad'];
const SAMPLEABLE = ['payment', 'checkout', 'cart', 'product-catalog', 'ad', 'shipping'];
const DEPLOYABLE = ['frontend', 'ad', 'cart', 'checkout', 'currency', 'payment', 'shipping', 'recommendation'];

interface Fault {
  culprit: string;
  symptom: GroundTruth['symptom'];
  flags: FlagWindow[];
}

function draw(rng: Random, kind: Exclude<FaultKind, 'two-faults' | 'none'>, startSec: number, not: string[] = []): Fault {
  const pick = (list: string[]) => rng.pick(list.filter((s) => !not.includes(s)));
  switch (kind) {
    case 'leaf-latency': {
      const svc = pick(SLOWABLE);
      return { culprit: svc, symptom: 'latency', flags: [{ flag: `slow:${svc}` as ServiceFault, startSec, level: 0.3 + 0.7 * rng.next() }] };
    }
    case 'service-errors': {
      const svc = pick(FAILABLE);
      return { culprit: svc, symptom: 'errors', flags: [{ flag: `fail:${svc}` as ServiceFault, startSec, level: 0.1 + 0.3 * rng.next() }] };
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
  }
}

export function randomScenario(seed: number): ScenarioDef {
  const rng = new Random(seed);
  const kind = rng.weighted<FaultKind>([['leaf-latency', 3], ['service-errors', 3], ['operation-bug', 2], ['memory-leak', 1], ['two-faults', 1], ['none', 2]]);
  const startSec = rng.int(1860, 2400);
  const faults: Fault[] = [];
  if (kind === 'two-faults') {
    const first = draw(rng, rng.pick(['leaf-latency', 'service-errors'] as const), startSec);
    faults.push(first, draw(rng, rng.pick(['leaf-latency', 'service-errors'] as const), startSec + rng.int(0, 300), [first.culprit]));
  } else if (kind !== 'none') faults.push(draw(rng, kind, startSec));
  const culprits = [...new Set(faults.map((f) => f.culprit))];
  const flags = faults.flatMap((f) => f.flags);
  // A chronic fault all hour, on a service that is not a culprit.
  if (!culprits.includes('cart') && rng.chance(0.3)) flags.push({ flag: 'cartWriteFailure', startSec: 0, level: 0.03 + 0.04 * rng.next() });
  const events: DemoEvent[] = [];
  const deploy = (service: string, atSec: number): DemoEvent => ({ atSec, service, kind: 'deploy', title: `${service} 2.${rng.int(1, 9)}.${rng.int(0, 9)} rolled out`, attributes: {} });
  if (faults[0] && rng.chance(0.5)) events.push(deploy(faults[0].culprit, startSec - rng.int(30, 180)));
  const bystander = rng.pick(DEPLOYABLE.filter((s) => !culprits.includes(s)));
  events.push(deploy(bystander, rng.int(300, 3300)));
  events.sort((a, b) => a.atSec - b.atSec);
  const sampled = rng.chance(0.3) ? rng.pick(SAMPLEABLE) : null;
  return {
    name: `random-${seed}`,
    story: `Random draw ${seed}: ${kind}${culprits.length ? ` on ${culprits.join(' and ')}` : ''}${sampled ? `; ${sampled}'s SDK samples 10%` : ''}.`,
    seed,
    ratePerSec: 0.95,
    flags,
    events,
    ...(sampled ? { instrumentation: { [sampled]: { sdkSampleRate: 0.1, ebpfSpans: rng.chance(0.5) } } } : {}),
    truth: {
      culprits,
      symptom: faults[0]?.symptom ?? 'none',
      startSec: faults.length ? startSec : null,
      affected: culprits.map((service) => ({ service })),
      summary: `${kind}${culprits.length ? ` on ${culprits.join(' and ')}` : ': no incident'}.`,
    },
  };
}
