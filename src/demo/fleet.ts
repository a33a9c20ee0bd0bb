import { Random } from '../core/random.js';
import type { Conditions } from './conditions.js';
import { SERVICES, type ServiceDef } from './world.js';

/**
 * Several instances per service, as a Kubernetes fleet runs them: each has a stable instance id, a
 * pod and the node it runs on, and the nodes are shared between services (what a noisy neighbour
 * needs). Scenarios opt in (`ScenarioDef.fleet`); without it every service is one process, as the
 * committed scenario files were generated.
 */
export interface Instance {
  index: number;
  id: string;
  pod: string;
  node: string;
}

export interface FleetDef {
  /** Instances of these services (1..8); the others get 1-5, drawn from the seed. */
  instances?: Record<string, number>;
}

/** Four nodes for ~40 pods: every node hosts several services. */
const NODES = ['ip-10-0-1-17.ec2.internal', 'ip-10-0-2-88.ec2.internal', 'ip-10-0-3-41.ec2.internal', 'ip-10-0-4-203.ec2.internal'];

/** A slow instance gets this weight against its siblings' 1: least-request balancing sends it little. */
const SLOW_INSTANCE_WEIGHT = 0.15;

export class Fleet {
  private readonly byService = new Map<string, Instance[]>();
  /** Load-balancing picks draw from their own stream. */
  private readonly picks: Random;

  constructor(seed: number, def: FleetDef = {}, services: readonly ServiceDef[] = SERVICES) {
    const rng = new Random(seed ^ 0x1b873593);
    this.picks = new Random(seed ^ 0x27d4eb2f);
    for (const svc of services) {
      const n = Math.max(1, Math.min(8, def.instances?.[svc.name] ?? rng.int(1, 5)));
      const replicaSet = rng.hex(4).slice(0, 8);
      this.byService.set(svc.name, Array.from({ length: n }, (_, index) => ({
        index,
        id: `${rng.hex(4)}-${rng.hex(2)}-${rng.hex(2)}-${rng.hex(2)}-${rng.hex(6)}`,
        pod: `${svc.name}-${replicaSet}-${rng.hex(3).slice(0, 5)}`,
        node: rng.pick(NODES),
      })));
    }
  }

  instances(service: string): readonly Instance[] {
    return this.byService.get(service) ?? [];
  }

  instance(service: string, index: number): Instance {
    const list = this.instances(service);
    return list[Math.min(index, list.length - 1)];
  }

  /** Which instance serves a request: round robin, except that a slow instance (`slowpod:`) is avoided. */
  pick(service: string, cond: Conditions): number | undefined {
    const list = this.byService.get(service);
    if (!list) return undefined;
    if (list.length === 1) return 0;
    const slow = cond[`slowpod:${service}`] !== undefined;
    return this.picks.weighted(list.map((inst) => [inst.index, slow && inst.index === SLOW_INDEX ? SLOW_INSTANCE_WEIGHT : 1] as const));
  }

  /** The node a noisy neighbour (`noisy:<service>`, its instance 0) hogs, and how hard; null when none. */
  noisyNode(cond: Conditions): { node: string; service: string; level: number } | null {
    for (const [flag, level] of Object.entries(cond)) {
      if (!flag.startsWith('noisy:') || level === undefined) continue;
      const service = flag.slice('noisy:'.length);
      const list = this.byService.get(service);
      if (list) return { node: list[SLOW_INDEX].node, service, level };
    }
    return null;
  }

  /** Instances of other services on the same node as `service`'s instance 0 (a noisy neighbour's victims). */
  neighbours(service: string): { service: string; index: number }[] {
    const node = this.instances(service)[SLOW_INDEX]?.node;
    const out: { service: string; index: number }[] = [];
    for (const [name, list] of this.byService) {
      if (name === service) continue;
      for (const inst of list) if (inst.node === node) out.push({ service: name, index: inst.index });
    }
    return out;
  }

  /** Resource attributes of one instance as its SDK or Beyla reports them. */
  resource(svc: ServiceDef, index: number, source: 'sdk' | 'ebpf'): Record<string, string> {
    const inst = this.instance(svc.name, index);
    return {
      'service.name': svc.name,
      'service.namespace': 'opentelemetry-demo',
      // Beyla names the instance by pod and container; the SDK by a UUID of the process.
      'service.instance.id': source === 'ebpf' ? `${inst.pod}:${svc.name}` : inst.id,
      'host.name': inst.node,
      'k8s.namespace.name': 'otel-demo',
      'k8s.pod.name': inst.pod,
      'k8s.node.name': inst.node,
      'k8s.deployment.name': svc.name,
    };
  }
}

/** The instance that a per-instance fault (`slowpod:`, `noisy:`) hits. */
export const SLOW_INDEX = 0;
