import type { Lag } from './consumers.js';
import { type Fleet, SLOW_INDEX } from './fleet.js';
import { gauge } from './metrics.js';
import type { Random } from '../core/random.js';
import { type ScenarioDef, conditionsAt } from './scenarios.js';
import { type ServiceDef, hasSdk } from './world.js';

/** Requests per minute, keyed by `instanceKey`. */
export type PerMinute = Map<string, number[]>;

/** A per-process key: the service's name, with the instance's index in scenarios with a fleet. */
export const instanceKey = (name: string, instance: number | undefined) => (instance === undefined ? name : `${name}#${instance}`);

export interface RuntimeGauge {
  service: ServiceDef;
  instance?: number;
  scope: string;
  metric: Record<string, unknown>;
}

/** SDK runtime metrics: memory and CPU per process, and Kafka consumer lag. */
export function runtimeGauges(def: ScenarioDef, services: readonly ServiceDef[], rng: Random, baseNs: bigint, atMs: number, perMinute: PerMinute, lag: Lag, fleet: Fleet | null): RuntimeGauge[] {
  const minute = atMs / 60_000 - 1;
  const cond = conditionsAt(def, atMs / 1000);
  const out: RuntimeGauge[] = [];
  for (const svc of services) {
    if (!hasSdk(svc) || cond[`dark:${svc.name}`] !== undefined) continue;
    const instances = fleet ? fleet.instances(svc.name).map((i) => i.index) : [undefined];
    for (const instance of instances) {
      const requests = perMinute.get(instanceKey(svc.name, instance))?.[minute] ?? 0;
      const cache = cond.recommendationCacheFailure;
      const heap = svc.name === 'ad' ? cond.adMemoryLeak : undefined;
      const leak = svc.name === 'recommendation' && cache !== undefined ? 1 + 2.5 * cache : heap !== undefined ? 1 + 3 * heap : 1;
      const memory = Math.round(svc.memoryBytes * leak * (1 + 0.02 * rng.normal()));
      // Rendering the cart item by item (cartViewN1) costs the frontend CPU.
      const n1 = svc.name === 'frontend' && cond.cartViewN1 !== undefined ? 2.5 : 1;
      let cpu = Math.min(0.98, (0.03 + requests / 4000) * n1 * (svc.name === 'recommendation' && cache !== undefined ? 1 + 8 * cache : 1) * (1 + 0.1 * Math.abs(rng.normal())));
      // noisy:<service>: its instance on the shared node runs a CPU-heavy job (the neighbours slow down).
      const noisy = cond[`noisy:${svc.name}`];
      if (noisy !== undefined && instance === SLOW_INDEX) cpu = Math.min(0.98, 2 * cpu + 0.45 * noisy);
      const at = { service: svc, instance, scope: 'runtime' };
      out.push({ ...at, metric: gauge('process.memory.usage', 'By', baseNs, atMs, memory) });
      out.push({ ...at, metric: gauge('process.cpu.utilization', '1', baseNs, atMs, cpu) });
      // A consumer group's lag is reported once, by its first consumer.
      const groupLag = lag.get(svc.name);
      if (groupLag && (instance ?? 0) === 0) out.push({ service: svc, instance, scope: 'kafka-consumer', metric: gauge('messaging.kafka.consumer.lag', '{message}', baseNs, atMs, groupLag[minute], { 'messaging.destination.name': 'orders', 'messaging.consumer.group.name': svc.name }) });
    }
  }
  return out;
}
