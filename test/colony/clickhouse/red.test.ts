import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { type HistogramPointRow, type SpanRow, type Source, emptyBatch } from '../../../src/colony/store/rows.js';
import { PROTOCOLS, type RedQuery } from '../../../src/colony/store/queries/red.js';
import type { HistogramOperationRow } from '../../../src/colony/store/queries/operations.js';
import type { Attributes } from '../../../src/colony/otlp/model.js';
import { hotAttributes, spanHotAttributes } from '../../../src/colony/otlp/semconv.js';
import { firstDifference } from './parity.js';

/**
 * Span RED on ClickHouse asks every protocol of a tick in one pass (one row per span and protocol,
 * each protocol with its own group key and errors), and histogram reads on a large table skip the
 * points older than the series' last ones before the window: the answers must be DuckDB's.
 */
const DIR = join(tmpdir(), `coral-ch-red-${process.pid}`);
const T0 = 1_764_671_400_000_000_000n;
const RANGE = { fromNs: T0 - 1n, toNs: T0 + 3_600_000_000_000n };
const BEYLA = 'github.com/grafana/beyla';

function span(i: number, kind: string, name: string, attrs: Attributes, o: { source?: Source; status?: string } = {}): SpanRow {
  const source = o.source ?? (i % 3 === 0 ? 'ebpf' : 'otlp');
  const startNs = T0 + BigInt(i) * 1_000_000_000n;
  return {
    ...spanHotAttributes(attrs, name),
    traceId: i.toString(16).padStart(32, '0'),
    spanId: i.toString(16).padStart(16, '0'),
    parentSpanId: '',
    traceState: '',
    name,
    kind,
    serviceName: 'shop',
    source,
    scopeName: source === 'ebpf' ? BEYLA : 'shop-sdk',
    scopeVersion: '',
    startNs,
    endNs: startNs + BigInt(1_000_000 * (1 + ((i * 37) % 97))),
    statusCode: o.status ?? 'UNSET',
    statusMessage: '',
    attributes: JSON.stringify(attrs),
    resourceAttributes: JSON.stringify({ 'service.name': 'shop' }),
    events: '[]',
    links: '[]',
  };
}

/** HTTP with and without a route, gRPC by attribute and by Beyla's path name, SQL with and without a table, one span both HTTP and gRPC. */
function spans(): SpanRow[] {
  const out: SpanRow[] = [];
  for (let i = 0; i < 240; i++) {
    switch (i % 8) {
      case 0:
        out.push(span(i, 'SERVER', 'GET /cart', { 'http.request.method': 'GET', 'http.route': '/cart', 'http.response.status_code': i % 5 === 0 ? 500 : 200 }));
        break;
      case 1:
        out.push(span(i, 'SERVER', 'POST', { 'http.request.method': 'POST', 'http.response.status_code': i % 7 === 1 ? 404 : 201 }, { status: i % 3 === 1 ? 'ERROR' : 'UNSET' }));
        break;
      case 2:
        out.push(span(i, 'SERVER', 'GET', { 'http.method': 'GET' }, { status: i % 4 === 2 ? 'ERROR' : 'UNSET' }));
        break;
      case 3:
        out.push(span(i, 'SERVER', 'shop.Cart/Get', { 'rpc.system': 'grpc', 'rpc.service': 'shop.Cart', 'rpc.method': 'Get', 'rpc.grpc.status_code': i % 6 === 3 ? 14 : 0 }));
        break;
      case 4:
        out.push(span(i, 'SERVER', '/shop.Cart/Put', { 'rpc.system': 'grpc', 'rpc.grpc.status_code': i % 5 === 4 ? 'NOT_FOUND' : 'UNAVAILABLE' }, { source: 'ebpf' }));
        break;
      case 5:
        out.push(span(i, 'CLIENT', 'SELECT shop.items', { 'db.system': 'postgresql', 'db.operation': 'SELECT', 'db.sql.table': 'items' }, { status: i % 10 === 5 ? 'ERROR' : 'UNSET' }));
        break;
      case 6:
        out.push(span(i, 'CLIENT', 'BEGIN', { 'db.system.name': 'postgresql', 'db.operation.name': 'BEGIN' }));
        break;
      default:
        out.push(span(i, 'SERVER', 'POST /shop.Cart/Add', { 'http.request.method': 'POST', 'http.response.status_code': 200, 'rpc.system': 'grpc', 'rpc.method': '/shop.Cart/Add', 'rpc.grpc.status_code': i % 4 === 3 ? 2 : 0 }));
    }
  }
  return out;
}

const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5];
const MINUTE = 60_000_000_000n;

/**
 * Cumulative duration histograms a minute apart, from an hour before the window to its end: series
 * that report throughout, one that stopped before the window, one that started inside it, one silent
 * for a while (its last point before a window lies further back than the others'); and one delta series.
 */
function histogramPoints(): HistogramPointRow[] {
  const out: HistogramPointRow[] = [];
  const series: [Attributes, string, bigint, bigint, ((m: bigint) => boolean)?][] = [
    [{ 'http.request.method': 'GET', 'http.route': '/cart', 'http.response.status_code': 200 }, 'http.server.request.duration', -60n, 60n],
    [{ 'http.request.method': 'GET', 'http.route': '/cart', 'http.response.status_code': 503 }, 'http.server.request.duration', -60n, 60n],
    [{ 'http.request.method': 'POST', 'http.route': '/old', 'http.response.status_code': 200 }, 'http.server.request.duration', -60n, -20n],
    [{ 'rpc.system': 'grpc', 'rpc.method': 'shop.Cart/Get', 'rpc.grpc.status_code': 0 }, 'rpc.server.call.duration', 10n, 60n],
    [{ 'http.request.method': 'PUT', 'http.route': '/gap', 'http.response.status_code': 200 }, 'http.server.request.duration', -60n, 60n, (m) => m < -45n || m > 10n],
    [{ 'http.request.method': 'GET', 'http.route': '/delta', 'http.response.status_code': 200 }, 'http.server.request.duration', -50n, 50n],
  ];
  series.forEach(([attrs, metric, first, last, reports], k) => {
    const delta = k === 5;
    const counts = BOUNDS.map(() => 0).concat(0);
    for (let m = first; m <= last; m++) {
      if (reports && !reports(m)) continue;
      if (delta) counts.fill(0);
      counts[Number((m + 61n * BigInt(k)) % BigInt(counts.length))] += 1 + k;
      out.push({
        ...hotAttributes(attrs),
        seriesKey: `series-${k}`,
        metricName: metric,
        description: '',
        unit: 's',
        serviceName: 'shop',
        source: 'ebpf',
        scopeName: BEYLA,
        startNs: T0 + (delta ? m - 1n : first) * MINUTE,
        timeNs: T0 + m * MINUTE,
        attributes: JSON.stringify(attrs),
        resourceAttributes: JSON.stringify({ 'service.name': 'shop' }),
        temporality: delta ? 'delta' : 'cumulative',
        count: counts.reduce((a, b) => a + b, 0),
        sum: null,
        min: null,
        max: null,
        bounds: BOUNDS,
        bucketCounts: [...counts],
      });
    }
  });
  return out;
}

/** Every protocol asked in one tick, as coral_query_metrics asks. */
const allProtocols = (store: Colony, q: Omit<RedQuery, 'protocol'>) => Promise.all(PROTOCOLS.map((protocol) => store.redFromSpans({ ...q, protocol })));

let duck: ColonyStore;
let ch: ClickHouseStore;
/** The same tables, read as a large table is: the history before the series' last points skipped. */
let chSkipping: ClickHouseStore;
beforeAll(async () => {
  if (!HAVE_CHDB) return;
  duck = await ColonyStore.open({ path: ':memory:' });
  ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'red' }, create: true });
  chSkipping = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'red' }, skipHistoryMinRows: 0 });
  const batch = emptyBatch();
  batch.spans.push(...spans());
  batch.histogramPoints.push(...histogramPoints());
  await duck.write(batch);
  await ch.write(batch);
});
afterAll(async () => {
  await duck?.close();
  await ch?.close();
  await chSkipping?.close();
  rmSync(DIR, { recursive: true, force: true });
});

describe.skipIf(!HAVE_CHDB)(`ClickHouse span RED, every protocol in one pass${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, { timeout: 120_000 }, () => {
  it('answers each protocol as DuckDB does: its own keys, order and errors, a span speaking two protocols counted under both', async () => {
    const [http, grpc, sql] = await allProtocols(ch, { service: 'shop', range: RANGE });
    expect(firstDifference([http, grpc, sql], await allProtocols(duck, { service: 'shop', range: RANGE }))).toBeNull();
    // Not two empty answers alike: a route-less span is keyed by its name, Beyla's path is split, a table may be absent.
    expect(http.map((r) => `${r.source} ${r.httpMethod} ${r.httpRoute}`)).toContain('otlp POST POST');
    expect(grpc.map((r) => `${r.source} ${r.rpcService}/${r.rpcMethod}`)).toEqual(expect.arrayContaining(['ebpf shop.Cart/Put', 'otlp shop.Cart/Add']));
    expect(sql.map((r) => `${r.dbOperation} ${r.dbTable}`)).toEqual(expect.arrayContaining(['SELECT items', 'BEGIN null']));
    const add = http.filter((r) => r.httpRoute === 'POST /shop.Cart/Add').reduce((n, r) => n + r.requests, 0);
    expect(add).toBe(30);
    expect(grpc.filter((r) => r.rpcMethod === 'Add').reduce((n, r) => n + r.requests, 0)).toBe(add);
    expect(grpc.filter((r) => r.rpcMethod === 'Put').every((r) => r.errors === r.requests - 6)).toBe(true);
  });

  it('answers RED and operations from histograms as DuckDB does, reading the whole history or skipping what no snapshot needs', async () => {
    // Windows whose last point before them lies at different depths: inside the data, before every series, after one stopped.
    const windows = [RANGE, { fromNs: T0 - 30n * MINUTE, toNs: T0 + 5n * MINUTE }, { fromNs: T0 - 90n * MINUTE, toNs: T0 - 30n * MINUTE }, { fromNs: T0 + 30n * MINUTE, toNs: T0 + 90n * MINUTE }];
    for (const [i, range] of windows.entries()) {
      const red = (store: Colony) => Promise.all(PROTOCOLS.map((protocol) => store.redFromHistograms({ service: 'shop', protocol, range })));
      const want = await red(duck);
      expect(want.flat().length, `window ${i}`).toBeGreaterThan(0);
      expect(firstDifference(await red(ch), want), `window ${i}`).toBeNull();
      expect(firstDifference(await red(chSkipping), want), `window ${i}, skipping`).toBeNull();
      // In no particular order on either backend (the summary orders what it shows).
      const ops = async (store: Colony) => (await store.operationHistograms(range)).sort((a, b) => `${a.operation} ${a.failed}`.localeCompare(`${b.operation} ${b.failed}`));
      const wantOps = await ops(duck);
      expect(firstDifference(await ops(ch), wantOps), `window ${i}`).toBeNull();
      expect(firstDifference(await ops(chSkipping), wantOps), `window ${i}, skipping`).toBeNull();
    }
  });

  it('answers histogram operations for several windows asked at once (one pass over the points) as DuckDB does for each', async () => {
    // Overlapping, adjacent, apart, and one asked twice: their boundaries cut time into uneven segments.
    const windows = [RANGE, { fromNs: T0 - 30n * MINUTE, toNs: T0 + 5n * MINUTE }, { fromNs: T0 - 90n * MINUTE, toNs: T0 - 30n * MINUTE },
      { fromNs: T0 + 30n * MINUTE, toNs: T0 + 90n * MINUTE }, { fromNs: T0 - 30n * MINUTE, toNs: T0 + 5n * MINUTE }, { fromNs: T0 - 5n * MINUTE, toNs: T0 + 25n * MINUTE }];
    const sorted = (rows: HistogramOperationRow[]) => rows.sort((a, b) => `${a.operation} ${a.failed}`.localeCompare(`${b.operation} ${b.failed}`));
    const want: HistogramOperationRow[][] = [];
    for (const range of windows) want.push(sorted(await duck.operationHistograms(range)));
    expect(want.filter((w) => w.length > 0).length).toBeGreaterThan(3);
    expect(want.flat().some((r) => r.operation === 'GET /delta')).toBe(true);
    for (const [label, store] of [['whole history', ch], ['skipping', chSkipping]] as const) {
      const got = await Promise.all(windows.map((range) => store.operationHistograms(range)));
      expect(firstDifference(got.map(sorted), want), label).toBeNull();
    }
  });

  it('answers span operations and self-time samples for several windows asked at once as DuckDB does for each, the sample limit per window', async () => {
    const SEC = 1_000_000_000n;
    const windows = [{ fromNs: T0 - 1n, toNs: T0 + 60n * SEC }, { fromNs: T0 + 60n * SEC, toNs: T0 + 120n * SEC }, { fromNs: T0 + 30n * SEC, toNs: T0 + 200n * SEC },
      { fromNs: T0 + 60n * SEC, toNs: T0 + 120n * SEC }, { fromNs: T0 + 300n * SEC, toNs: T0 + 400n * SEC }];
    // Fewer than a window's root traces: each window's own sample, as a separate call would take it.
    const LIMIT = 7;
    const want = { buckets: [] as unknown[], calls: [] as unknown[] };
    for (const range of windows) {
      want.buckets.push(await duck.operationSpanBuckets(range));
      want.calls.push(await duck.callSpans(range, LIMIT));
    }
    expect(want.calls.map((c) => new Set((c as { traceId: string }[]).map((x) => x.traceId)).size)).toEqual([LIMIT, LIMIT, LIMIT, LIMIT, 0]);
    const [buckets, calls] = await Promise.all([
      Promise.all(windows.map((range) => ch.operationSpanBuckets(range))),
      Promise.all(windows.map((range) => ch.callSpans(range, LIMIT))),
    ]);
    expect(firstDifference(buckets, want.buckets)).toBeNull();
    expect(firstDifference(calls, want.calls)).toBeNull();
  });

  it('applies filters and a source to every protocol alike', async () => {
    const asked: [string, Partial<RedQuery>][] = [
      ['eBPF only', { source: 'ebpf' }],
      ['5xx', { statusCodeRange: '5xx' }],
      ['one gRPC method', { grpcMethod: '/shop.Cart/Get' }],
      ['one SQL operation and table', { sqlOperation: 'select', tableName: 'items' }],
    ];
    for (const [label, filters] of asked) {
      const q = { service: 'shop', range: RANGE, ...filters };
      const answer = await allProtocols(ch, q);
      expect(firstDifference(answer, await allProtocols(duck, q)), label).toBeNull();
      expect(answer.flat().length, label).toBeGreaterThan(0);
    }
  });
});
