import { createHash } from 'node:crypto';
import type { CallNode } from './calls.js';
import { consumeOrders } from './consumers.js';
import { Fleet } from './fleet.js';
import { Instrumenter, type LogOut, type SpanOut } from './instrument.js';
import { HistogramAccumulator } from './metrics.js';
import { type KeyValue, attributes, nanos } from './otlp-json.js';
import { Random } from '../core/random.js';
import { edgeRequest } from './requests.js';
import { instanceKey, runtimeGauges } from './runtime-gauges.js';
import { SCENARIO_BASE_NS, SCENARIO_SECONDS, type ScenarioDef, conditionsAt } from './scenarios.js';
import { SERVICES, type ServiceDef, hasSdk, service } from './world.js';
import { randomTopology, topologyRequest } from './topology.js';

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

/**
 * Resource attributes per (service, source), made once so every export of a process agrees. With a
 * fleet, per instance; what belongs to no instance (the events) is the deployment's.
 */
class Resources {
  private readonly cache = new Map<string, KeyValue[]>();

  constructor(
    private readonly rng: Random,
    private readonly fleet: Fleet | null,
  ) {}

  private common(svc: ServiceDef, source: Source, instance: number | undefined): Record<string, string> {
    if (this.fleet) {
      return instance === undefined
        ? { 'service.name': svc.name, 'service.namespace': 'opentelemetry-demo', 'k8s.namespace.name': 'otel-demo', 'k8s.deployment.name': svc.name }
        : this.fleet.resource(svc, instance, source);
    }
    const pod = `${svc.name}-${this.rng.hex(4).slice(0, 6)}-${this.rng.hex(3).slice(0, 5)}`;
    return { 'service.name': svc.name, 'service.namespace': 'opentelemetry-demo', 'service.instance.id': `${this.rng.hex(4)}-${this.rng.hex(2)}-${this.rng.hex(2)}`, 'host.name': pod, 'k8s.namespace.name': 'otel-demo', 'k8s.pod.name': pod };
  }

  get(svc: ServiceDef, source: Source, instance?: number): KeyValue[] {
    const key = instanceKey(`${svc.name}|${source}`, instance);
    let r = this.cache.get(key);
    if (!r) {
      const common = this.common(svc, source, instance);
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
  readonly groups = new Map<string, { svc: ServiceDef; source: Source; instance?: number; scopes: Map<string, T[]> }>();

  add(svc: ServiceDef, source: Source, scope: string, item: T, instance?: number): void {
    const key = instanceKey(`${svc.name}|${source}`, instance);
    let g = this.groups.get(key);
    if (!g) {
      g = { svc, source, instance, scopes: new Map() };
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
        resource: { attributes: resources.get(g.svc, g.source, g.instance) },
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
  const topology = def.topology ? randomTopology(def.topology.seed) : null;
  const services = topology?.services ?? SERVICES;
  const byName = new Map(services.map((s) => [s.name, s]));
  const lookup = topology ? (name: string) => byName.get(name) ?? service(name) : service;
  const fleet = def.fleet ? new Fleet(def.seed, def.fleet, services) : null;
  const resources = new Resources(new Random(def.seed ^ 0x5bd1e995), fleet);
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
      spans[sliceOf(s.endMs)].add(s.service, s.source, s.scope, s.span, s.instance);
      counts.spans++;
      if ((s.span.kind === 2 || s.span.kind === 5) && (s.source === 'sdk' || !hasSdk(s.service))) {
        const key = instanceKey(s.service.name, s.instance);
        const perMinute = requestsPerMinute.get(key) ?? new Array<number>(SCENARIO_SECONDS / 60).fill(0);
        perMinute[Math.min(perMinute.length - 1, Math.floor(s.endMs / 60_000))]++;
        requestsPerMinute.set(key, perMinute);
      }
    },
    observe: (o) => histograms.observe(o),
    log: (l) => {
      logs[sliceOf(l.atMs)].add(l.service, 'sdk', `${l.service.name}-logger`, logRecord(l), l.instance);
      counts.logs++;
    },
  }, def.instrumentation ?? {}, sampler, lookup);

  // Edge traffic: a Poisson process whose rate follows the traffic shape.
  for (let t = rng.exponential(rateAt(def, 0)); t < SCENARIO_SECONDS - 2; t += rng.exponential(rateAt(def, t))) {
    const cond = conditionsAt(def, t);
    const root: CallNode = topology ? topologyRequest(rng, topology, cond, t * 1000, fleet) : edgeRequest(rng, cond, t * 1000, fleet);
    instrumenter.request(root);
  }

  const groups = topology ? topology.consumers.map(lookup) : [service('accounting'), service('fraud-detection')];
  const lag = consumeOrders(def, rng, instrumenter, endMs, fleet, groups);

  for (const e of def.events) {
    const svc = lookup(e.service);
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
      // A service that went dark (dark:<service>) exports nothing, its histograms included.
      const dark = conditionsAt(def, sliceEnd / 1000);
      for (const p of histograms.exportAt(sliceEnd)) if (dark[`dark:${p.service.name}`] === undefined) metrics.add(p.service, p.source, p.scope, p.metric, p.instance);
      for (const g of runtimeGauges(def, services, rng, baseNs, sliceEnd, requestsPerMinute, lag, fleet)) metrics.add(g.service, 'sdk', g.scope, g.metric, g.instance);
      for (const g of metrics.groups.values()) for (const list of g.scopes.values()) counts.metricPoints += list.length;
      lines.push({ offsetMs: sliceEnd, signal: 'metrics', body: metrics.body(resources, 'resourceMetrics', 'scopeMetrics', 'metrics') });
    }
  }
  counts.exports = lines.length;
  return { lines, counts };
}

/** The file's content: one JSON export per line, and its digest (what "same seed, same bytes" checks). */
export function serialize(g: GeneratedScenario): { text: string; sha256: string } {
  const text = g.lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  return { text, sha256: createHash('sha256').update(text).digest('hex') };
}
