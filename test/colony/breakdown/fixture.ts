import type { SpanRow, Source } from '../../../src/colony/store/rows.js';
import type { Attributes } from '../../../src/colony/otlp/model.js';
import { spanHotAttributes } from '../../../src/colony/otlp/semconv.js';

/**
 * Service `api` on five pods for two 10-minute windows. In the current window pod `api-7f9c` serves
 * every request in 240 ms, the other four in 40..70 ms; in the window before, every pod is fast. The
 * failing requests (status ERROR) are spread evenly over the pods but all hit route /cart/{id}.
 * Every third span is eBPF's (Beyla), the rest the SDK's; each pod keeps one resource per source.
 */
export const T0 = 1_764_671_400_000_000_000n;
export const MIN = 60_000_000_000n;
export const WINDOW = { fromNs: T0, toNs: T0 + 10n * MIN };
export const BEFORE = { fromNs: T0 - 10n * MIN, toNs: T0 };
/** What a tool call sees as now: the end of the window. */
export const NOW = WINDOW.toNs;
export const PODS = ['api-1a2b', 'api-3c4d', 'api-5e6f', 'api-7f9c', 'api-8a0b'];
export const SLOW_POD = 'api-7f9c';
/** Requests per pod and window. */
export const PER_POD = 60;
const BEYLA = 'github.com/grafana/beyla';

function resource(pod: string, source: Source): string {
  const base = { 'service.name': 'api', 'service.instance.id': `${pod}-${source}`, 'k8s.pod.name': pod, 'host.name': pod, 'k8s.node.name': pod === SLOW_POD ? 'node-b' : 'node-a', 'cloud.region': 'eu-west-1' };
  return JSON.stringify(source === 'ebpf' ? { ...base, 'telemetry.sdk.name': 'beyla' } : { ...base, 'service.version': '1.4.2', 'telemetry.sdk.name': 'opentelemetry' });
}

function span(n: number, pod: string, startNs: bigint, durationMs: number, route: string, failed: boolean): SpanRow {
  const source: Source = n % 3 === 0 ? 'ebpf' : 'otlp';
  const attrs: Attributes = {
    'http.request.method': n % 4 === 0 ? 'POST' : 'GET', 'http.route': route, 'http.response.status_code': failed ? 500 : 200,
    'user_agent.original': n % 2 === 0 ? 'curl/8.5' : 'Mozilla/5.0',
  };
  return {
    ...spanHotAttributes(attrs, `GET ${route}`),
    traceId: n.toString(16).padStart(32, '0'),
    spanId: n.toString(16).padStart(16, '0'),
    parentSpanId: '',
    traceState: '',
    name: `GET ${route}`,
    kind: 'SERVER',
    serviceName: 'api',
    source,
    scopeName: source === 'ebpf' ? BEYLA : '@opentelemetry/instrumentation-http',
    scopeVersion: '',
    startNs,
    endNs: startNs + BigInt(Math.round(durationMs * 1e6)),
    statusCode: failed ? 'ERROR' : 'UNSET',
    statusMessage: '',
    attributes: JSON.stringify(attrs),
    resourceAttributes: resource(pod, source),
    events: '[]',
    links: '[]',
  };
}

/** The spans of both windows (and one of another service in each, which no answer may count). */
export function breakdownSpans(): SpanRow[] {
  const out: SpanRow[] = [];
  let n = 0;
  for (const [w, range] of [BEFORE, WINDOW].entries()) {
    PODS.forEach((pod) => {
      for (let i = 0; i < PER_POD; i++) {
        n++;
        const startNs = range.fromNs + 1n + BigInt(i) * 9_000_000_000n + BigInt(PODS.indexOf(pod)) * 1_000_000n;
        const slow = w === 1 && pod === SLOW_POD;
        const durationMs = slow ? 240 : 40 + ((i * 7) % 31);
        // The current window's failures: every 10th request, all on /cart/{id}.
        const failed = w === 1 && i % 10 === 0;
        const route = failed || i % 3 === 0 ? '/cart/{id}' : '/products';
        out.push(span(n, pod, startNs, durationMs, route, failed));
      }
    });
  }
  for (const range of [BEFORE, WINDOW]) out.push({ ...span(++n, 'other-1', range.fromNs + 5n, 900, '/x', true), serviceName: 'other' });
  return out;
}

/**
 * More of `api`'s spans for the parity test: every key under its older name too (db.name,
 * net.peer.name, http.user_agent, deployment.environment), database calls and consumed messages.
 */
export function variedSpans(): SpanRow[] {
  const out: SpanRow[] = [];
  for (let i = 0; i < 40; i++) {
    const n = 10_000 + i; // clear of breakdownSpans' ids
    const startNs = WINDOW.fromNs + BigInt(i + 1) * 7_000_000_000n;
    const base = span(n, PODS[i % 5], startNs, 5 + (i % 9) * 11, '/x', i % 7 === 0);
    const legacy = i % 2 === 0;
    const dbAttrs: Attributes = legacy
      ? { 'db.system': 'postgresql', 'db.name': 'shop', 'db.operation': 'SELECT', 'db.sql.table': 'orders', 'net.peer.name': 'pg-1', 'http.user_agent': 'pgx' }
      : { 'db.system.name': 'postgresql', 'db.namespace': 'shop', 'db.operation.name': 'SELECT', 'db.collection.name': 'orders', 'server.address': 'pg-2' };
    const msgAttrs: Attributes = legacy ? { 'messaging.system': 'kafka', 'messaging.destination': 'orders' } : { 'messaging.system': 'kafka', 'messaging.destination.name': 'payments', 'peer.service': 'kafka' };
    const attrs = i % 3 === 0 ? msgAttrs : dbAttrs;
    const resource = JSON.parse(base.resourceAttributes) as Record<string, string>;
    out.push({
      ...base, ...spanHotAttributes(attrs, 'SELECT orders'),
      kind: i % 3 === 0 ? 'CONSUMER' : 'CLIENT', name: i % 3 === 0 ? 'orders process' : 'SELECT orders', attributes: JSON.stringify(attrs),
      resourceAttributes: JSON.stringify({ ...resource, ...(legacy ? { 'deployment.environment': 'prod' } : { 'deployment.environment.name': 'prod', 'cloud.availability_zone': `eu-west-1${'abc'[i % 3]}` }) }),
    });
  }
  return out;
}
