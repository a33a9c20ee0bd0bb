import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { emptyBatch } from '../../../src/colony/store/rows.js';
import { type CallResult, inMemoryClient } from '../../support/mcp.js';
import { NOW, PER_POD, PODS, SLOW_POD, breakdownSpans } from '../breakdown/fixture.js';

let store: ColonyStore;
let mcp: Awaited<ReturnType<typeof inMemoryClient>>;
const W = { time_range: '10m' };

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 1 });
  const batch = emptyBatch();
  batch.spans.push(...breakdownSpans());
  await store.write(batch);
  mcp = await inMemoryClient(store, () => NOW);
});
afterAll(async () => {
  await mcp.close();
  await store.close();
});

type Key = { key: string; values: number; top: { value: string; sources: string[]; anomalyShare: number; baselineShare: number; p95Ms: number; othersP95Ms: number }[] };
const keys = (r: CallResult) => r.structured.keys as Key[];

describe('coral_query_breakdown', () => {
  it('slow: the one slow pod of five ranks first, with its P95 against its siblings\'', async () => {
    const r = await mcp.call('coral_query_breakdown', { service: 'api', compare: 'slow', ...W });
    expect(r.isError).toBe(false);
    if (process.env.SHOW) console.log(r.text);
    expect(r.structured.windowSpans).toBe(PODS.length * PER_POD);
    // Every request of the slow pod is slower than the threshold, and nothing else is.
    expect([r.structured.anomalySpans, r.structured.baselineSpans]).toEqual([PER_POD, 4 * PER_POD]);
    const [first] = keys(r);
    expect(first.key).toBe('k8s.pod.name');
    expect(first.values).toBe(5);
    expect(first.top.map((v) => [v.value, v.anomalyShare, v.baselineShare])).toEqual([[SLOW_POD, 1, 0]]);
    expect(first.top[0].sources).toEqual(['ebpf', 'otlp']);
    expect(first.top[0].p95Ms).toBeGreaterThan(215);
    expect(first.top[0].othersP95Ms).toBeLessThan(2 ** (25 / 4)); // the bucket holding 70 ms
    // The node the slow pod runs on is as over-represented; the region every pod shares is not.
    expect(keys(r).map((k) => k.key)).toContain('k8s.node.name');
    expect(keys(r).map((k) => k.key)).not.toContain('cloud.region');
    expect(r.text).toMatch(/^Breakdown of api, last 10m: 300 spans, 10\.0% failing, P95 \d+ms\.$/m);
    expect(r.text).toMatch(/Comparing the spans slower than \d+ms \(60\) with the rest \(240\)\./);
    expect(r.text).toMatch(/^ {2}1\. pod \(k8s\.pod\.name\), 5 values: api-7f9c \[eBPF\]\[OTLP\]: 100\.0% of slow vs 0\.0% of the rest; 60 spans, P95 \d+ms vs \d+ms, 10\.0% errors vs 10\.0% for the other pods \(the same spans: host api-7f9c, node node-b\)$/m);
    // The instance ids differ per source: each source's id of the slow pod, its share of the slow spans.
    expect(r.text).toMatch(/^ {2}2\. instance \(service\.instance\.id\), 10 values: api-7f9c-otlp \[OTLP\]: 66\.7% of slow/m);
    expect(r.text).toMatch(/Instances that stand out from their siblings: 1 of 5 pods: api-7f9c \(P95 \d+ms vs \d+ms\)\./);
    expect(r.structured.instanceLine).toMatch(/^1 of 5 pods: api-7f9c/);
    expect(r.text.trimEnd().split('\n').at(-1)).toMatch(/^Next: coral_query_traces \{"service": "api", "min_duration_ms": \d+, "order": "duration"\}/);
  });

  it('auto picks errors when failures are material: the route they all hit ranks first, not the pod', async () => {
    const r = await mcp.call('coral_query_breakdown', { service: 'api', ...W });
    expect([r.structured.compare, r.structured.auto]).toEqual(['errors', true]);
    expect([r.structured.anomalySpans, r.structured.windowErrors]).toEqual([30, 30]);
    expect(keys(r)[0].key).toBe('http.route');
    expect(keys(r)[0].top[0].value).toBe('/cart/{id}');
    expect(keys(r).map((k) => k.key)).not.toContain('k8s.pod.name');
    expect(r.text).toMatch(/\(auto: failures are material\)/);
    expect(r.text).toMatch(/Next: coral_query_traces \{"service": "api"\}/);
  });

  it('window: against the window before; an operation narrows the spans', async () => {
    const r = await mcp.call('coral_query_breakdown', { service: 'api', compare: 'window', ...W });
    expect([r.structured.anomalySpans, r.structured.baselineSpans]).toEqual([300, 300]);
    expect(r.structured.baselineFrom).toBe(new Date(Number((NOW - 20n * 60_000_000_000n) / 1_000_000n)).toISOString());
    const op = await mcp.call('coral_query_breakdown', { service: 'api', operation: 'GET /products', compare: 'slow', ...W });
    const cart = (await mcp.call('coral_query_breakdown', { service: 'api', operation: '/cart/{id}', compare: 'slow', ...W })).structured.windowSpans as number;
    expect((op.structured.windowSpans as number) + cart).toBe(300);
    expect(cart).toBeGreaterThan(0);
    // Only api's: the other service's spans on /x are not counted.
    const other = await mcp.call('coral_query_breakdown', { service: 'api', operation: '/x', ...W });
    expect(other.structured.windowSpans).toBe(0);
    expect(other.text).toMatch(/^No spans for api \(\/x\) in the last 10m\.\nHint: widen time_range, or drop operation/);
  });

  it('an unknown service says so and names the known ones; bad input is refused with what is accepted', async () => {
    const r = await mcp.call('coral_query_breakdown', { service: 'apii', ...W });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/No server or consumer spans for apii in the last 10m\.\nNo service in this colony is named "apii"\. Known services, closest first: api/);
    const bad = await mcp.call('coral_query_breakdown', { service: 'api', compare: 'fast' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/compare must be one of: auto, errors, slow, window/);
    expect((await mcp.call('coral_query_breakdown', {})).isError).toBe(true);
  });
});
