/**
 * A large synthetic colony for benchmarks: 20 services x 10 routes x 5 status codes, server spans
 * spread over a day and Beyla-style cumulative histograms at a 60 s interval. Deterministic.
 */
import type { ColonyWriter } from '../src/colony/store/colony.js';
import { type HistogramPointRow, type HotAttributes, type SpanRow, emptyBatch } from '../src/colony/store/rows.js';

const SERVICES = 20;
const ROUTES = 10;
const CODES = [200, 201, 404, 500, 503];
const BOUNDS = [0, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
export const SEC = 1_000_000_000n;
/** The synthetic day ends here (2025-12-02T10:30:00Z). */
export const END = 1_764_671_400_000_000_000n;

/** A small deterministic generator, so runs are comparable. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

// Object.assign rather than spread: spreading this into each row is several times slower.
const hot: HotAttributes = {
  httpMethod: null, httpRoute: null, httpStatusCode: null, rpcSystem: null, rpcService: null, rpcMethod: null,
  rpcStatusCode: null, dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null, serverAddress: null,
};

/**
 * The attributes the promoted columns were taken from, as a normalised row carries them: the DuckDB
 * colony reads the promoted columns, the ClickHouse colony derives them from these (one per route
 * and status, made once).
 */
const attributesOf = (() => {
  const made = new Map<string, string>();
  return (route: number, code: number) => {
    const key = `${route}/${code}`;
    let json = made.get(key);
    if (json === undefined) {
      json = JSON.stringify({ 'http.request.method': 'GET', 'http.route': `/api/r${route}`, 'http.response.status_code': code });
      made.set(key, json);
    }
    return json;
  };
})();

/** Options of a synthetic colony; the defaults are the colony every other bench measures. */
export interface SyntheticShape {
  /** Services the spans are spread over (default 20). */
  services?: number;
  /** Pods per service, each with its own resource (instance id, pod, host); the first one 4x slower. Default 0: a resource names the service only. */
  pods?: number;
  /** The instant the day of spans ends (END by default; a served colony's benches use now, which its tools read back from). */
  end?: bigint;
}

/** A resource per (service, pod), made once. */
function resourceOf(svc: number, pod: number, pods: number): string {
  if (pods === 0) return `{"service.name":"svc-${svc}"}`;
  const name = `svc-${svc}-pod-${pod}`;
  return JSON.stringify({ 'service.name': `svc-${svc}`, 'service.instance.id': `${name}-1`, 'k8s.pod.name': name, 'host.name': `node-${pod % 3}` });
}

/** Fills a store with `spans` server spans over one day and `points` cumulative histogram points, the day ending at `shape.end`. */
export async function populate(store: ColonyWriter, SPANS: number, POINTS: number, shape: SyntheticShape = {}): Promise<void> {
  const end = shape.end ?? END;
  const services = shape.services ?? SERVICES;
  const pods = shape.pods ?? 0;
  const resources = Array.from({ length: services }, (_, svc) => Array.from({ length: Math.max(1, pods) }, (_, pod) => resourceOf(svc, pod, pods)));
  const rand = rng(42);
  const spanWindowNs = 24n * 3600n * SEC; // one day of spans
  for (let done = 0; done < SPANS; ) {
    const batch = emptyBatch();
    for (let i = 0; i < 50_000 && done < SPANS; i++, done++) {
      const svc = done % services;
      const pod = pods === 0 ? 0 : Math.floor(done / services) % pods;
      const route = Math.floor(rand() * ROUTES);
      const code = CODES[Math.floor(rand() * rand() * CODES.length)];
      const start = end - spanWindowNs + (BigInt(done) * spanWindowNs) / BigInt(SPANS);
      const durNs = BigInt(Math.floor(1e6 * (2 + 50 * rand() ** 3) * (pods > 0 && pod === 0 ? 4 : 1)));
      const row: SpanRow = Object.assign<Omit<SpanRow, keyof typeof hot>, typeof hot>({
        traceId: done.toString(16).padStart(32, '0'),
        spanId: done.toString(16).padStart(16, '0'),
        parentSpanId: '',
        traceState: '',
        name: `GET /api/r${route}`,
        kind: 'SERVER',
        serviceName: `svc-${svc}`,
        source: done % 2 === 0 ? 'ebpf' : 'otlp',
        scopeName: done % 2 === 0 ? 'github.com/grafana/beyla' : '',
        scopeVersion: '',
        startNs: start,
        endNs: start + durNs,
        statusCode: code >= 500 ? 'ERROR' : 'UNSET',
        statusMessage: '',
        attributes: attributesOf(route, code),
        resourceAttributes: resources[svc][pod],
        events: '[]',
        links: '[]',
      }, hot);
      row.httpMethod = 'GET';
      row.httpRoute = `/api/r${route}`;
      row.httpStatusCode = code;
      batch.spans.push(row);
    }
    await store.write(batch);
  }
  const series = SERVICES * ROUTES * CODES.length;
  const perSeries = Math.ceil(POINTS / series);
  let written = 0;
  for (let s = 0; s < series && written < POINTS; s++) {
    const batch = emptyBatch();
    const svc = s % SERVICES;
    const route = Math.floor(s / SERVICES) % ROUTES;
    const code = CODES[Math.floor(s / (SERVICES * ROUTES))];
    const counts = new Array<number>(BOUNDS.length + 1).fill(0);
    for (let p = 0; p < perSeries && written < POINTS; p++, written++) {
      for (let k = 0; k < 5; k++) counts[Math.min(BOUNDS.length, Math.floor(rand() * 9))]++;
      const row: HistogramPointRow = Object.assign<Omit<HistogramPointRow, keyof typeof hot>, typeof hot>({
        seriesKey: `series-${s}`,
        metricName: 'http.server.request.duration',
        description: '',
        unit: 's',
        serviceName: `svc-${svc}`,
        source: 'ebpf',
        scopeName: 'github.com/grafana/beyla',
        startNs: end - BigInt(perSeries) * 60n * SEC,
        timeNs: end - BigInt(perSeries - p) * 60n * SEC,
        attributes: attributesOf(route, code),
        resourceAttributes: '{}',
        temporality: 'cumulative',
        count: counts.reduce((a, b) => a + b, 0),
        sum: null,
        min: null,
        max: null,
        bounds: BOUNDS,
        bucketCounts: [...counts],
      }, hot);
      row.httpMethod = 'GET';
      row.httpRoute = `/api/r${route}`;
      row.httpStatusCode = code;
      batch.histogramPoints.push(row);
    }
    await store.write(batch);
  }
}

/** The porcelain calls the latency benches time, for one service: the same list on every backend. */
export function porcelainCases(service: string): [string, Record<string, unknown>][] {
  return [
    ['coral_query_summary', {}],
    ['coral_query_metrics', { service }],
    ['coral_query_traces', { service }],
    ['coral_query_traces', { service, min_duration_ms: 20 }],
  ];
}
