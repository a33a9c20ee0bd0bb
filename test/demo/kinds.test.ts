import { describe, expect, it } from 'vitest';
import { type ExportLine, generateScenario } from '../../src/demo/generate.js';
import { SLOW_INDEX } from '../../src/demo/fleet.js';
import { scenarioByName, type FlagWindow, type ScenarioDef } from '../../src/demo/scenarios.js';

/** One span as the tests read it, with its resource flattened. */
interface Span {
  service: string;
  instanceId: string;
  pod: string;
  node: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attrs: Record<string, string | number>;
  statusCode: number;
  statusMessage: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  links: { traceId: string; spanId: string }[];
  ebpf: boolean;
}

type Kv = { key: string; value: { stringValue?: string; intValue?: string; doubleValue?: number } };
const flat = (kvs: Kv[]) => Object.fromEntries(kvs.map((a) => [a.key, a.value.stringValue ?? (a.value.intValue !== undefined ? Number(a.value.intValue) : a.value.doubleValue ?? '')]));
const BASE_NS = BigInt(Date.parse('2025-03-04T09:00:00.000Z')) * 1_000_000n;
const ms = (ns: string) => Number(BigInt(ns) - BASE_NS) / 1e6;

function spansOf(lines: ExportLine[]): Span[] {
  const out: Span[] = [];
  for (const l of lines) {
    if (l.signal !== 'traces') continue;
    for (const rs of l.body.resourceSpans as { resource: { attributes: Kv[] }; scopeSpans: { spans: Record<string, unknown>[] }[] }[]) {
      const res = flat(rs.resource.attributes);
      for (const ss of rs.scopeSpans) {
        for (const s of ss.spans) {
          const status = s.status as { code?: number; message?: string };
          out.push({
            service: String(res['service.name']), instanceId: String(res['service.instance.id']), pod: String(res['k8s.pod.name']), node: String(res['k8s.node.name']), ebpf: res['telemetry.sdk.name'] === 'beyla',
            name: String(s.name), kind: Number(s.kind), startMs: ms(String(s.startTimeUnixNano)), endMs: ms(String(s.endTimeUnixNano)),
            attrs: flat(s.attributes as Kv[]), statusCode: status.code ?? 0, statusMessage: status.message ?? '',
            traceId: String(s.traceId), spanId: String(s.spanId), parentSpanId: String(s.parentSpanId ?? ''), links: (s.links ?? []) as Span['links'],
          });
        }
      }
    }
  }
  return out;
}

/** Gauge points per (metric, service, pod): [minute, value]. */
function gauges(lines: ExportLine[], metric: string): { service: string; pod: string; node: string; atMs: number; value: number }[] {
  const out: { service: string; pod: string; node: string; atMs: number; value: number }[] = [];
  for (const l of lines) {
    if (l.signal !== 'metrics') continue;
    for (const rm of l.body.resourceMetrics as { resource: { attributes: Kv[] }; scopeMetrics: { metrics: { name: string; gauge?: { dataPoints: { timeUnixNano: string; asInt?: string; asDouble?: number }[] } }[] }[] }[]) {
      const res = flat(rm.resource.attributes);
      for (const sm of rm.scopeMetrics) {
        for (const m of sm.metrics) {
          if (m.name !== metric || !m.gauge) continue;
          for (const p of m.gauge.dataPoints) out.push({ service: String(res['service.name']), pod: String(res['k8s.pod.name']), node: String(res['k8s.node.name']), atMs: ms(p.timeUnixNano), value: p.asInt !== undefined ? Number(p.asInt) : Number(p.asDouble) });
        }
      }
    }
  }
  return out;
}

const p = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const server = (spans: Span[], service: string, ebpf = false) => spans.filter((s) => s.service === service && s.kind === 2 && s.ebpf === ebpf);

/** A short scenario of one fault with a fleet, generated once per test file. */
function draw(name: string, flags: FlagWindow[], extra: Partial<ScenarioDef> = {}): ScenarioDef {
  return { name, kind: 'none', story: name, seed: 4242, ratePerSec: 0.95, flags, events: [], fleet: {}, truth: { culprits: [], symptom: 'none', startSec: null, affected: [], summary: '' }, ...extra };
}

const ONSET = 1800_000;

describe('a fleet', () => {
  const spans = spansOf(generateScenario(draw('fleet', [])).lines);
  it('runs 1-5 pods per service on shared nodes, each with its own instance id, for SDK and Beyla data alike', () => {
    const pods = new Map<string, Set<string>>();
    for (const s of spans) pods.set(s.service, (pods.get(s.service) ?? new Set()).add(s.pod));
    for (const [svc, set] of pods) expect(set.size, svc).toBeGreaterThanOrEqual(1);
    for (const [svc, set] of pods) expect(set.size, svc).toBeLessThanOrEqual(5);
    expect([...pods.values()].some((set) => set.size >= 3)).toBe(true);
    const nodes = new Set(spans.map((s) => s.node));
    expect(nodes.size).toBeGreaterThan(1);
    expect(nodes.size).toBeLessThan(pods.size);
    const ids = new Map<string, Set<string>>();
    for (const s of spans) ids.set(`${s.pod}|${s.ebpf}`, (ids.get(`${s.pod}|${s.ebpf}`) ?? new Set()).add(s.instanceId));
    expect([...ids.values()].every((set) => set.size === 1)).toBe(true);
    expect(new Set(spans.map((s) => s.instanceId)).size).toBe(ids.size);
    expect(spans.some((s) => s.ebpf && s.pod !== 'undefined')).toBe(true);
  });
});

describe('incident kinds in the generator', () => {
  it('bad-pod: the slow pod answers ~240 ms while its siblings stay fast, and takes a small share of the calls', () => {
    const def = scenarioByName('bad-pod');
    if (!def) throw new Error('bad-pod missing');
    const spans = spansOf(generateScenario(def).lines);
    const bad = def.truth.affected[0].pod;
    const after = server(spans, 'cart').filter((s) => s.startMs > 2100_000);
    const badMs = after.filter((s) => s.pod === bad).map((s) => s.endMs - s.startMs);
    const others = after.filter((s) => s.pod !== bad).map((s) => s.endMs - s.startMs);
    expect(new Set(after.map((s) => s.pod)).size).toBe(5);
    expect(p(badMs, 0.5)).toBeGreaterThan(150);
    expect(p(others, 0.95)).toBeLessThan(20);
    expect(badMs.length / after.length).toBeLessThan(0.06);
    // The service's P95 barely moves: the slow pod is below 5% of the calls.
    expect(p([...badMs, ...others], 0.95)).toBeLessThan(20);
    const before = server(spans, 'cart').filter((s) => s.startMs < 2000_000 && s.pod === bad).map((s) => s.endMs - s.startMs);
    expect(p(before, 0.5)).toBeLessThan(20);
  }, 60_000);

  it('config-push-4xx: the culprit answers INVALID_ARGUMENT without server errors; callers fail 5xx naming it', () => {
    const def = scenarioByName('config-push-4xx');
    if (!def) throw new Error('config-push-4xx missing');
    const g = generateScenario(def);
    const spans = spansOf(g.lines);
    const pc = server(spans, 'product-catalog').filter((s) => s.startMs > 2160_000);
    const rejected = pc.filter((s) => s.attrs['rpc.grpc.status_code'] === 3);
    expect(rejected.length / pc.length).toBeGreaterThan(0.2);
    expect(rejected.length / pc.length).toBeLessThan(0.4);
    expect(pc.filter((s) => s.statusCode === 2)).toEqual([]);
    expect(server(spans, 'product-catalog').filter((s) => s.startMs < 2100_000 && s.attrs['rpc.grpc.status_code'] !== 0)).toEqual([]);
    const frontend = server(spans, 'frontend').filter((s) => s.startMs > 2160_000 && s.attrs['http.route'] === '/api/products/[productId]');
    const failed = frontend.filter((s) => s.attrs['http.response.status_code'] === 500);
    expect(failed.length / frontend.length).toBeGreaterThan(0.2);
    expect(failed[0].statusMessage).toMatch(/InvalidArgument desc = product-catalog: invalid argument/);
    const checkout = server(spans, 'checkout').filter((s) => s.statusCode === 2);
    expect(checkout.length).toBeGreaterThan(0);
    expect(checkout.every((s) => s.startMs > 2100_000 && /product-catalog/.test(s.statusMessage))).toBe(true);
    const change = g.lines.filter((l) => l.signal === 'logs').flatMap((l) => JSON.stringify(l.body).match(/config rev 2025-03-04\.2 pushed/g) ?? []);
    expect(change.length).toBe(1);
  }, 60_000);

  it('consumer-lag: consumer spans keep their duration, publish-to-process grows to minutes through the link, the lag gauge climbs', () => {
    const def = scenarioByName('consumer-lag');
    if (!def) throw new Error('consumer-lag missing');
    const g = generateScenario(def);
    const spans = spansOf(g.lines);
    const producers = new Map(spans.filter((s) => s.kind === 4).map((s) => [s.spanId, s]));
    const consumers = spans.filter((s) => s.kind === 5 && s.service === 'fraud-detection');
    expect(consumers.every((c) => c.links.length === 1 && producers.has(c.links[0].spanId))).toBe(true);
    const delay = (c: Span) => c.startMs - (producers.get(c.links[0].spanId) as Span).endMs;
    const early = consumers.filter((c) => c.startMs < 1900_000);
    const late = consumers.filter((c) => c.startMs > 3300_000);
    expect(p(early.map(delay), 0.95)).toBeLessThan(100);
    expect(p(late.map(delay), 0.5)).toBeGreaterThan(4 * 60_000);
    expect(p(late.map(delay), 0.5)).toBeLessThan(10 * 60_000);
    const dur = (xs: Span[]) => p(xs.map((c) => c.endMs - c.startMs), 0.5);
    expect(dur(late)).toBeLessThan(2 * dur(early));
    const lag = gauges(g.lines, 'messaging.kafka.consumer.lag').filter((x) => x.service === 'fraud-detection');
    expect(Math.max(...lag.filter((x) => x.atMs <= 1980_000).map((x) => x.value))).toBeLessThan(5);
    expect(lag.at(-1)?.value).toBeGreaterThan(15);
    const accounting = gauges(g.lines, 'messaging.kafka.consumer.lag').filter((x) => x.service === 'accounting');
    expect(Math.max(...accounting.map((x) => x.value))).toBeLessThan(5);
  }, 60_000);

  it('noisy neighbour: pods on the culprit\'s node slow down, the same services elsewhere do not, its own CPU doubles', () => {
    const probe = draw('noisy', [{ flag: 'noisy:checkout', startSec: 1800, level: 1 }]);
    const g = generateScenario(probe);
    const spans = spansOf(g.lines);
    const cpu = gauges(g.lines, 'process.cpu.utilization').filter((x) => x.service === 'checkout');
    const node = spans.find((s) => s.service === 'checkout' && s.pod === cpu[SLOW_INDEX].pod)?.node;
    const culpritPod = cpu[SLOW_INDEX].pod;
    const cpuOf = (from: number, to: number) => p(cpu.filter((x) => x.pod === culpritPod && x.atMs > from && x.atMs <= to).map((x) => x.value), 0.5);
    expect(cpuOf(ONSET + 60_000, 3600_000)).toBeGreaterThan(2 * cpuOf(0, ONSET));
    const victims = spans.filter((s) => s.kind === 2 && !s.ebpf && s.service !== 'checkout' && s.service !== 'frontend-proxy' && s.startMs > ONSET);
    const onNode = victims.filter((s) => s.node === node).map((s) => s.endMs - s.startMs);
    const offNode = victims.filter((s) => s.node !== node && new Set(victims.filter((v) => v.node === node).map((v) => v.service)).has(s.service)).map((s) => s.endMs - s.startMs);
    expect(onNode.length).toBeGreaterThan(100);
    expect(p(onNode, 0.5)).toBeGreaterThan(20);
    expect(p(offNode, 0.5)).toBeLessThan(10);
  }, 60_000);

  it('error cascade: the leaf answers 503, most calls to it are refused by the callers\' breaker and never reach it', () => {
    const g = generateScenario(draw('cascade', [{ flag: 'cascade:payment', startSec: 1800, level: 1 }]));
    const spans = spansOf(g.lines).filter((s) => s.startMs > ONSET);
    const clients = spans.filter((s) => s.service === 'checkout' && s.kind === 3 && s.name === 'oteldemo.PaymentService/Charge');
    const refused = clients.filter((s) => /circuit breaker open for payment/.test(s.statusMessage));
    expect(refused.length / clients.length).toBeGreaterThan(0.7);
    expect(refused.length / clients.length).toBeLessThan(0.95);
    const leaf = server(spans, 'payment');
    expect(leaf.length).toBeLessThan(clients.length - refused.length + 1);
    expect(leaf.every((s) => s.statusCode === 2 && /503/.test(s.statusMessage))).toBe(true);
    // The refused calls have no server span anywhere: the deepest failing span is the leaf's.
    const childOf = new Set(spans.map((s) => s.parentSpanId));
    expect(refused.some((s) => childOf.has(s.spanId))).toBe(false);
  }, 60_000);

  it('silent callee: after the onset cart sends nothing and its callers\' client spans fail UNAVAILABLE', () => {
    const g = generateScenario(draw('dark', [{ flag: 'dark:cart', startSec: 1800, level: 1 }]));
    const spans = spansOf(g.lines);
    expect(spans.filter((s) => s.service === 'cart' && s.startMs > ONSET)).toEqual([]);
    expect(spans.filter((s) => s.service === 'cart' && s.startMs < ONSET).length).toBeGreaterThan(100);
    const calls = spans.filter((s) => s.kind === 3 && s.attrs['rpc.service'] === 'oteldemo.CartService' && s.startMs > ONSET && !s.ebpf);
    expect(calls.length).toBeGreaterThan(50);
    expect(calls.every((s) => s.attrs['rpc.grpc.status_code'] === 14 && /cart: connection refused/.test(s.statusMessage))).toBe(true);
    expect(gauges(g.lines, 'process.cpu.utilization').filter((x) => x.service === 'cart' && x.atMs > ONSET + 60_000)).toEqual([]);
  }, 60_000);

  it('a seconds-slow method with 10% SDK sampling: every call is in the histogram, few spans exist', () => {
    const g = generateScenario(draw('stall', [{ flag: 'stall:payment', startSec: 1800, level: 1 }], { instrumentation: { payment: { sdkSampleRate: 0.1, ebpfSpans: false } } }));
    const spans = server(spansOf(g.lines), 'payment').filter((s) => s.startMs > ONSET);
    const text = g.lines.filter((l) => l.signal === 'metrics').map((l) => JSON.stringify(l.body)).at(-1) ?? '';
    const counts = [...text.matchAll(/"name":"rpc.server.duration".*?"count":"(\d+)"/g)].map((m) => Number(m[1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(5 * spans.length);
    expect(p(spans.map((s) => s.endMs - s.startMs), 0.5)).toBeGreaterThan(1000);
  }, 60_000);
});
