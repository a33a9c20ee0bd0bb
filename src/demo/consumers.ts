import type { Fleet } from './fleet.js';
import type { Instrumenter, Published } from './instrument.js';
import type { Random } from '../core/random.js';
import { SCENARIO_SECONDS, type ScenarioDef, conditionsAt } from './scenarios.js';
import type { ServiceDef } from './world.js';

/** Consumer lag per group at each minute: messages published minus messages consumed so far. */
export type Lag = Map<string, number[]>;

/**
 * accounting and fraud-detection consume every order from Kafka in their own traces, one record
 * at a time: a slow consumer builds a backlog, which the lag gauge shows.
 */
export function consumeOrders(def: ScenarioDef, rng: Random, ins: Instrumenter, endMs: number, fleet: Fleet | null, groups: readonly ServiceDef[]): Lag {
  const minutes = SCENARIO_SECONDS / 60;
  const lag: Lag = new Map();
  const messages = [...ins.published].sort((a, b) => a.atMs - b.atMs);
  const meanGapMs = endMs / Math.max(1, messages.length);
  for (const svc of groups) {
    const group = svc.name;
    const consumedAt: number[] = [];
    let freeAt = 0;
    for (const m of messages) {
      const start = Math.max(m.atMs + rng.lognormal(4, 0.5), freeAt);
      const cond = conditionsAt(def, start / 1000);
      const slow = group === 'fraud-detection' && cond.kafkaQueueProblems !== undefined;
      const duration = slow ? 1000 + rng.lognormal(15, 0.5) : rng.lognormal(group === 'accounting' ? 6 : 9, 0.5);
      const end = start + duration;
      if (end > endMs) break;
      // lag:<group>: the consumer polls too rarely (its records take as long as ever, between them it
      // waits), so messages arrive faster than it takes them and each waits longer than the last.
      const stalled = cond[`lag:${group}`];
      freeAt = end + 0.2 + (stalled ? 1.3 * meanGapMs * stalled : 0);
      consumedAt.push(end);
      consume(ins, rng, svc, m, start, end, fleet?.pick(group, cond));
    }
    const perMinute = new Array<number>(minutes).fill(0);
    for (let i = 0; i < minutes; i++) {
      const t = (i + 1) * 60_000;
      const published = messages.filter((m) => m.atMs <= t).length;
      const consumed = consumedAt.filter((c) => c <= t).length;
      perMinute[i] = published - consumed;
    }
    lag.set(group, perMinute);
  }
  return lag;
}

function consume(ins: Instrumenter, rng: Random, svc: ServiceDef, m: Published, start: number, end: number, instance: number | undefined): void {
  ins.consumer(svc, m, start, end, (ids) => {
    if (svc.name !== 'accounting') return;
    const insertStart = start + (end - start) * 0.4;
    ins.consumerCall(svc, ids, {
      caller: svc.name,
      callee: 'postgres',
      op: { protocol: 'sql', dbSystem: 'postgresql', dbOperation: 'INSERT', dbTable: 'orders', statement: 'INSERT INTO orders (order_id, currency, total) VALUES ($1, $2, $3)' },
      startMs: insertStart,
      endMs: insertStart + rng.lognormal(1.5, 0.4),
      queueMs: 0,
      attributes: {},
      children: [],
    });
  }, instance);
}
