import type { CallError, CallNode, Operation } from './calls.js';
import { Cursor, failed, grpc, http } from './cursor.js';
import { failureMessage } from './faults.js';
import type { Fleet } from './fleet.js';
import { Random } from '../core/random.js';
import type { Conditions } from './conditions.js';
import type { Instrumentation, ServiceDef } from './world.js';

/**
 * A random service graph, so an evaluation is not tuned to the Astronomy Shop: random names, depth
 * (2-5 levels below a gateway), fan-out, languages, gRPC or HTTP per service, SDK, Beyla or both,
 * old or new semantic conventions, sometimes a Kafka topic with consumer groups. Drawn from a seed,
 * so a scenario names its topology by that seed alone.
 */
export interface TopoCall {
  /** Index of the called operation in `Topology.ops`, or a peer (database, cache) or a publish. */
  to: number | 'sql' | 'cache' | 'publish';
}

export interface TopoOp {
  service: string;
  op: Operation;
  /** Median milliseconds of the operation's own work. */
  selfMs: number;
  calls: TopoCall[];
}

export interface Topology {
  services: ServiceDef[];
  /** Operation index and weight of each entry route (the gateway's). */
  entries: (readonly [number, number])[];
  ops: TopoOp[];
  /** Consumer groups of the topic some operation publishes to (the demo's topic name, `orders`). */
  consumers: string[];
  /** Services by depth: [0] is the gateway. */
  levels: string[][];
}

const NOUNS = ['ledger', 'billing', 'inventory', 'search', 'profile', 'pricing', 'session', 'notify', 'auth', 'geo', 'media', 'review', 'tax', 'stock', 'rating', 'routing', 'wallet', 'loyalty', 'fulfil', 'invoice', 'identity', 'catalogue', 'basket', 'promo', 'audit', 'pay', 'risk', 'rank', 'feed', 'label'];
const SUFFIXES = ['svc', 'api', 'service', 'core', 'backend', 'engine'];
const LANGUAGES = ['go', 'java', 'nodejs', 'python', 'dotnet', 'rust', 'ruby', 'php', 'cpp', 'kotlin'];
const VERBS = ['Get', 'List', 'Resolve', 'Validate', 'Compute', 'Lookup', 'Update', 'Reserve'];

const pascal = (s: string) => s.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join('');

export function randomTopology(seed: number): Topology {
  const rng = new Random(seed ^ 0x68e31da4);
  const used = new Set<string>();
  const name = (suffix?: string): string => {
    for (;;) {
      const n = `${rng.pick(NOUNS)}-${suffix ?? rng.pick(SUFFIXES)}`;
      if (!used.has(n)) {
        used.add(n);
        return n;
      }
    }
  };
  const services: ServiceDef[] = [];
  const ops: TopoOp[] = [];
  const opsOf = new Map<string, number[]>();
  const define = (svcName: string, instrumentation: Instrumentation, protocol: 'grpc' | 'http', count: number, entry = false): void => {
    const noun = svcName.split('-')[0];
    services.push({
      name: svcName, language: rng.pick(LANGUAGES), version: `${rng.int(1, 4)}.${rng.int(0, 20)}.${rng.int(0, 9)}`, instrumentation,
      legacyNames: rng.chance(0.35), newBeyla: rng.chance(0.3), memoryBytes: rng.int(20, 400) * 1e6,
    });
    const list: number[] = [];
    for (let i = 0; i < count; i++) {
      const verb = VERBS[(rng.int(0, VERBS.length - 1) + i) % VERBS.length];
      const route = entry ? `/api/${noun}${i === 0 ? '' : `/${verb.toLowerCase()}`}` : `/${verb.toLowerCase()}-${noun}`;
      const op = protocol === 'grpc'
        ? grpc(`${noun}.v${rng.int(1, 3)}.${pascal(noun)}Service`, `${verb}${pascal(noun)}`)
        : rng.chance(0.5)
          ? http(rng.chance(0.7) ? 'GET' : 'POST', `${route}/{id}`, `${route}/*`, `${route}/${rng.hex(4)}`)
          : http('POST', route, route, route);
      list.push(ops.length);
      ops.push({ service: svcName, op, selfMs: 0.3 + rng.next() * 4, calls: [] });
    }
    opsOf.set(svcName, list);
  };
  const gateway = name('gateway');
  define(gateway, rng.pick(['sdk', 'both'] as const), 'http', rng.int(2, 5), true);
  const levels: string[][] = [[gateway]];
  const depth = rng.int(2, 5);
  for (let d = 1; d <= depth; d++) {
    const level: string[] = [];
    for (let i = rng.int(1, d === depth ? 3 : 4); i > 0; i--) {
      const svc = name();
      define(svc, rng.weighted([['both', 3], ['sdk', 3], ['ebpf', 2]] as const), rng.chance(0.6) ? 'grpc' : 'http', rng.int(1, 3));
      level.push(svc);
      // Each new operation is called by an operation one level up, so every service gets traffic.
      for (const opIndex of opsOf.get(svc) ?? []) {
        const callers = levels[d - 1].flatMap((s) => opsOf.get(s) ?? []);
        ops[rng.pick(callers)].calls.push({ to: opIndex });
      }
    }
    levels.push(level);
  }
  // Extra fan-out towards any deeper operation, and the databases the leaves read.
  for (let d = 0; d < levels.length; d++) {
    for (const opIndex of levels[d].flatMap((s) => opsOf.get(s) ?? [])) {
      const deeper = levels.slice(d + 1).flat().flatMap((s) => opsOf.get(s) ?? []);
      if (deeper.length > 0 && rng.chance(0.4)) ops[opIndex].calls.push({ to: rng.pick(deeper) });
      if (d > 0 && rng.chance(d === depth ? 0.8 : 0.3)) ops[opIndex].calls.push({ to: rng.chance(0.7) ? 'sql' : 'cache' });
    }
  }
  const consumers: string[] = [];
  if (rng.chance(0.6)) {
    // The producer's SDK records the publish the consumers link to.
    const producers = levels.slice(1, 3).flat().filter((s) => services.find((d) => d.name === s)?.instrumentation !== 'ebpf').flatMap((s) => opsOf.get(s) ?? []);
    if (producers.length > 0) ops[rng.pick(producers)].calls.push({ to: 'publish' });
    for (let i = producers.length > 0 ? rng.int(1, 2) : 0; i > 0; i--) {
      const group = name(rng.pick(['worker', 'consumer', 'indexer']));
      // A consumer's spans come from its SDK (Beyla does not trace Kafka consumers here).
      services.push({ name: group, language: rng.pick(LANGUAGES), version: '1.0.0', instrumentation: 'sdk', legacyNames: rng.chance(0.35), memoryBytes: rng.int(50, 300) * 1e6 });
      consumers.push(group);
    }
  }
  const entries = (opsOf.get(gateway) ?? []).map((i) => [i, rng.int(1, 10)] as const);
  return { services, entries, ops, consumers, levels };
}

/** Services whose operations have no further service calls. */
export function leaves(t: Topology): string[] {
  return t.levels.slice(1).flat().filter((s) => t.ops.every((o) => o.service !== s || o.calls.every((c) => typeof c.to !== 'number')));
}

/** One request through the topology: the gateway receives it, every call waits for the one before. */
export function topologyRequest(rng: Random, t: Topology, cond: Conditions, startMs: number, fleet: Fleet | null): CallNode {
  return callOp(rng, t, cond, fleet, null, rng.weighted(t.entries), startMs);
}

function callOp(rng: Random, t: Topology, cond: Conditions, fleet: Fleet | null, caller: string | null, index: number, start: number): CallNode {
  const o = t.ops[index];
  const c = new Cursor(rng, caller, o.service, o.op, start, {}, cond, fleet);
  c.work(rng.lognormal(o.selfMs, 0.5));
  for (const call of o.calls) {
    if (call.to === 'sql' || call.to === 'cache') {
      const table = o.service.split('-')[0];
      const op: Operation = call.to === 'sql'
        ? { protocol: 'sql', dbSystem: 'postgresql', dbOperation: 'SELECT', dbTable: table, statement: `SELECT * FROM ${table} WHERE id = $1` }
        : { protocol: 'cache', dbSystem: 'redis', dbOperation: 'GET' };
      c.call((s) => new Cursor(rng, o.service, call.to === 'sql' ? 'postgres' : 'valkey', op, s).work(rng.lognormal(call.to === 'sql' ? 1.2 : 0.4, 0.5)).end());
    } else if (call.to === 'publish') {
      if (t.consumers.length > 0) c.call((s) => new Cursor(rng, o.service, 'kafka', { protocol: 'kafka', topic: 'orders' }, s, { 'app.order.id': rng.hex(16) }).work(rng.lognormal(1.5, 0.4)).end());
    } else {
      const to = call.to;
      const child = c.call((s) => callOp(rng, t, cond, fleet, o.service, to, s));
      if (failed(child)) return c.work(0.3).end(failure(o, child));
    }
  }
  c.work(rng.lognormal(o.selfMs / 3, 0.5));
  return c.end(undefined, o.op.protocol === 'http' ? 200 : undefined);
}

function failure(o: TopoOp, child: CallNode): CallError {
  const what = o.op.protocol === 'grpc' ? o.op.rpcMethod : o.op.route;
  const message = `${what} failed: ${failureMessage(child, `call to ${child.callee} failed: ${(child.clientError ?? child.error)?.message ?? ''}`)}`;
  return o.op.protocol === 'grpc' ? { grpcCode: 13, message } : { httpStatus: 500, message };
}
