import { createHash } from 'node:crypto';
import type { CallNode } from './calls.js';
import { Instrumenter, type LogOut, type Published, type SpanOut } from './instrument.js';
import { HistogramAccumulator, type MetricPoint, gauge } from './metrics.js';
import { type KeyValue, attributes, nanos } from './otlp-json.js';
import { Random } from '../core/random.js';
import { edgeRequest } from './requests.js';
import { SCENARIO_BASE_NS, SCENARIO_SECONDS, type ScenarioDef, conditionsAt } from './scenarios.js';
import { SERVICES, type ServiceDef, hasSdk, service } from './world.js';

/** One line of a scenario file: an OTLP/JSON export request and when (ms into the scenario) it is sent. */
export interface ExportLine {
  offsetMs: number;
  signal: 'traces' | 'metrics' | 'logs';
  body: Record<string, unknown>;
}

export interface GeneratedScenario {
  lines: ExportLine[];
  counts: { spans: number; metricPoints: number; logs: number; events: number; exports: number };
}

const SLICE_MS = 30_000;
const METRIC_INTERVAL_MS = 60_000;
const SEVERITY = { INFO: 9, WARN: 13, ERROR: 17 } as const;
export const GENERATOR_VERSION = 1;

type Source = 'sdk' | 'ebpf';

/** Resource attributes per (service, source), made once so every export of a process agrees. */
class Resources {
  private readonly cache = new Map<string, KeyValue[]>();

  constructor(private readonly rng: Random) {}

  get(svc: ServiceDef, source: Source): KeyValue[] {
    const key = `${svc.name}|${source}`;
    let r = this.cache.get(key);
    if (!r) {
      const pod = `${svc.name}-${this.rng.hex(4).slice(0, 6)}-${this.rng.hex(3).slice(0, 5)}`;
      const common = { 'service.name': svc.name, 'service.namespace': 'opentelemetry-demo', 'service.instance.id': `${this.rng.hex(4)}-${this.rng.hex(2)}-${this.rng.hex(2)}`, 'host.name': pod, 'k8s.namespace.name': 'otel-demo', 'k8s.pod.name': pod };
      r = attributes(source === 'ebpf'
        ? { ...common, 'telemetry.sdk.name': 'beyla', 'telemetry.sdk.language': svc.language, 'telemetry.sdk.version': '2.5.1', 'k8s.deployment.name': svc.name }
        : {
          ...common,
          'service.version': svc.version,
          'telemetry.sdk.name': 'opentelemetry',
          'telemetry.sdk.language': svc.language === 'kotlin' ? 'java' : svc.language,
          'telemetry.sdk.version': '1.38.0',
          ...(svc.legacyNames ? { 'deployment.environment': 'demo' } : { 'deployment.environment.name': 'demo' }),
        });
      this.cache.set(key, r);
    }
    return r;
  }
}

/** Groups items by resource then scope, in first-seen order (deterministic), as OTLP requests nest them. */
class Grouped<T> {
  readonly groups = new Map<string, { svc: ServiceDef; source: Source; scopes: Map<string, T[]> }>();

  add(svc: ServiceDef, source: Source, scope: string, item: T): void {
    const key = `${svc.name}|${source}`;
    let g = this.groups.get(key);
    if (!g) {
      g = { svc, source, scopes: new Map() };
      this.groups.set(key, g);
    }
    let list = g.scopes.get(scope);
    if (!list) {
      list = [];
      g.scopes.set(scope, list);
    }
    list.push(item);
  }

  get size(): number {
    return this.groups.size;
  }

  body(resources: Resources, rootKey: string, scopeKey: string, itemKey: string): Record<string, unknown> {
    return {
      [rootKey]: [...this.groups.values()].map((g) => ({
        resource: { attributes: resources.get(g.svc, g.source) },
        [scopeKey]: [...g.scopes].map(([name, items]) => ({ scope: { name }, [itemKey]: items })),
      })),
    };
  }
}

/** Requests per second at `sec`: a morning ramp with slower waves and noise, never below half the mean. */
function rateAt(def: ScenarioDef, sec: number): number {
  const shape = 0.85 + 0.3 * (sec / SCENARIO_SECONDS) + 0.12 * Math.sin((2 * Math.PI * sec) / 1200) + 0.05 * Math.sin((2 * Math.PI * sec) / 173);
  return def.ratePerSec * Math.max(0.5, shape);
}

export function generateScenario(def: ScenarioDef): GeneratedScenario {
  const rng = new Random(def.seed);
  const baseNs = SCENARIO_BASE_NS;
  const endMs = SCENARIO_SECONDS * 1000;
  const slices = Math.ceil(endMs / SLICE_MS);
  const spans = Array.from({ length: slices }, () => new Grouped<Record<string, unknown>>());
  const logs = Array.from({ length: slices }, () => new Grouped<Record<string, unknown>>());
  const sliceOf = (ms: number) => Math.min(slices - 1, Math.max(0, Math.floor(ms / SLICE_MS)));
  const histograms = new HistogramAccumulator(baseNs, -rng.int(3_600_000, 7_200_000));
  const resources = new Resources(new Random(def.seed ^ 0x5bd1e995));
  const requestsPerMinute = new Map<string, number[]>();
  const counts = { spans: 0, metricPoints: 0, logs: 0, events: 0, exports: 0 };

  const logRecord = (l: LogOut, eventName?: string) => ({
    timeUnixNano: nanos(baseNs, l.atMs),
    observedTimeUnixNano: nanos(baseNs, l.atMs + 3),
    severityNumber: SEVERITY[l.severity],
    severityText: l.severity,
    body: { stringValue: l.body },
    attributes: attributes(l.attributes),
    ...(l.traceId ? { traceId: l.traceId, spanId: l.spanId } : {}),
    ...(eventName ? { eventName } : {}),
  });

  const sampler = def.instrumentation ? new Random(def.seed ^ 0x2545f491) : null;
  const instrumenter = new Instrumenter(rng, baseNs, {
    span: (s: SpanOut) => {
      spans[sliceOf(s.endMs)].add(s.service, s.source, s.scope, s.span);
      counts.spans++;
      if ((s.span.kind === 2 || s.span.kind === 5) && (s.source === 'sdk' || !hasSdk(s.service))) {
        const perMinute = requestsPerMinute.get(s.service.name) ?? new Array<number>(SCENARIO_SECONDS / 60).fill(0);
        perMinute[Math.min(perMinute.length - 1, Math.floor(s.endMs / 60_000))]++;
        requestsPerMinute.set(s.service.name, perMinute);
      }
    },
    observe: (o) => histograms.observe(o),
    log: (l) => {
      logs[sliceOf(l.atMs)].add(l.service, 'sdk', `${l.service.name}-logger`, logRecord(l));
      counts.logs++;
    },
  }, def.instrumentation ?? {}, sampler);

  // Edge traffic: a Poisson process whose rate follows the traffic shape.
  for (let t = rng.exponential(rateAt(def, 0)); t < SCENARIO_SECONDS - 2; t += rng.exponential(rateAt(def, t))) {
    const root: CallNode = edgeRequest(rng, conditionsAt(def, t), t * 1000);
    instrumenter.request(root);
  }

  const lag = consumeOrders(def, rng, instrumenter, endMs);

  for (const e of def.events) {
    const svc = service(e.service);
    logs[sliceOf(e.atSec * 1000)].add(svc, 'sdk', 'coral.events', logRecord({ service: svc, atMs: e.atSec * 1000, severity: 'INFO', body: e.title, traceId: '', spanId: '', attributes: e.attributes }, e.kind));
    counts.events++;
  }

  const lines: ExportLine[] = [];
  for (let i = 0; i < slices; i++) {
    const sliceEnd = (i + 1) * SLICE_MS;
    if (spans[i].size > 0) lines.push({ offsetMs: sliceEnd, signal: 'traces', body: spans[i].body(resources, 'resourceSpans', 'scopeSpans', 'spans') });
    if (logs[i].size > 0) lines.push({ offsetMs: sliceEnd, signal: 'logs', body: logs[i].body(resources, 'resourceLogs', 'scopeLogs', 'logRecords') });
    if (sliceEnd % METRIC_INTERVAL_MS === 0) {
      const metrics = new Grouped<Record<string, unknown>>();
      for (const p of histograms.exportAt(sliceEnd)) metrics.add(p.service, p.source, p.scope, p.metric);
      for (const g of runtimeGauges(def, rng, baseNs, sliceEnd, requestsPerMinute, lag)) metrics.add(g.service, 'sdk', g.scope, g.metric);
      for (const g of metrics.groups.values()) for (const list of g.scopes.values()) counts.metricPoints += list.length;
      lines.push({ offsetMs: sliceEnd, signal: 'metrics', body: metrics.body(resources, 'resourceMetrics', 'scopeMetrics', 'metrics') });
    }
  }
  counts.exports = lines.length;
  return { lines, counts };
}

/** Consumer lag per group at each minute: messages published minus messages consumed so far. */
type Lag = Map<string, number[]>;

/**
 * accounting and fraud-detection consume every order from Kafka in their own traces, one record
 * at a time: a slow consumer builds a backlog, which the lag gauge shows.
 */
function consumeOrders(def: ScenarioDef, rng: Random, ins: Instrumenter, endMs: number): Lag {
  const minutes = SCENARIO_SECONDS / 60;
  const lag: Lag = new Map();
  const messages = [...ins.published].sort((a, b) => a.atMs - b.atMs);
  for (const group of ['accounting', 'fraud-detection']) {
    const svc = service(group);
    const consumedAt: number[] = [];
    let freeAt = 0;
    for (const m of messages) {
      const start = Math.max(m.atMs + rng.lognormal(4, 0.5), freeAt);
      const slow = group === 'fraud-detection' && conditionsAt(def, start / 1000).kafkaQueueProblems !== undefined;
      const duration = slow ? 1000 + rng.lognormal(15, 0.5) : rng.lognormal(group === 'accounting' ? 6 : 9, 0.5);
      const end = start + duration;
      if (end > endMs) break;
      freeAt = end + 0.2;
      consumedAt.push(end);
      consume(ins, rng, svc, m, start, end);
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

function consume(ins: Instrumenter, rng: Random, svc: ServiceDef, m: Published, start: number, end: number): void {
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
  });
}

/** SDK runtime metrics: memory and CPU per process, and Kafka consumer lag. */
function runtimeGauges(def: ScenarioDef, rng: Random, baseNs: bigint, atMs: number, perMinute: Map<string, number[]>, lag: Lag) {
  const minute = atMs / 60_000 - 1;
  const out: { service: ServiceDef; scope: string; metric: Record<string, unknown> }[] = [];
  for (const svc of SERVICES) {
    if (!hasSdk(svc)) continue;
    const requests = perMinute.get(svc.name)?.[minute] ?? 0;
    const cache = conditionsAt(def, atMs / 1000).recommendationCacheFailure;
    const heap = svc.name === 'ad' ? conditionsAt(def, atMs / 1000).adMemoryLeak : undefined;
    const leak = svc.name === 'recommendation' && cache !== undefined ? 1 + 2.5 * cache : heap !== undefined ? 1 + 3 * heap : 1;
    const memory = Math.round(svc.memoryBytes * leak * (1 + 0.02 * rng.normal()));
    // Rendering the cart item by item (cartViewN1) costs the frontend CPU.
    const n1 = svc.name === 'frontend' && conditionsAt(def, atMs / 1000).cartViewN1 !== undefined ? 2.5 : 1;
    const cpu = Math.min(0.98, (0.03 + requests / 4000) * n1 * (svc.name === 'recommendation' && cache !== undefined ? 1 + 8 * cache : 1) * (1 + 0.1 * Math.abs(rng.normal())));
    out.push({ service: svc, scope: 'runtime', metric: gauge('process.memory.usage', 'By', baseNs, atMs, memory) });
    out.push({ service: svc, scope: 'runtime', metric: gauge('process.cpu.utilization', '1', baseNs, atMs, cpu) });
    const groupLag = lag.get(svc.name);
    if (groupLag) out.push({ service: svc, scope: 'kafka-consumer', metric: gauge('messaging.kafka.consumer.lag', '{message}', baseNs, atMs, groupLag[minute], { 'messaging.destination.name': 'orders', 'messaging.consumer.group.name': svc.name }) });
  }
  return out;
}

/** The file's content: one JSON export per line, and its digest (what "same seed, same bytes" checks). */
export function serialize(g: GeneratedScenario): { text: string; sha256: string } {
  const text = g.lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  return { text, sha256: createHash('sha256').update(text).digest('hex') };
}
