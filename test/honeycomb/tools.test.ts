import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { HoneycombApiError, HoneycombClient } from '../../src/honeycomb/api.js';
import { demoEnvironment } from '../../src/honeycomb/fake/environments.js';
import { type FakeHoneycomb, startFakeHoneycomb } from '../../src/honeycomb/fake/server.js';
import { searchColumns } from '../../src/honeycomb/search.js';
import { environmentSummary } from '../../src/honeycomb/summary.js';
import { createHoneycombServer } from '../../src/honeycomb/tools.js';

const KEY = 'test-key';
let fake: FakeHoneycomb;
const client = (o: Partial<ConstructorParameters<typeof HoneycombClient>[0]> = {}) => new HoneycombClient({ apiKey: KEY, baseUrl: fake.url, ...o });

beforeAll(async () => {
  fake = await startFakeHoneycomb({ env: demoEnvironment(), apiKey: KEY });
});
afterAll(async () => fake.close());

describe('honeycomb_search_columns', () => {
  it('scores, orders by score then dataset and column order, and reports every dataset searched', async () => {
    const r = await searchColumns(client(), { query: 'latency' });
    expect(r.results.map((c) => [c.column, c.dataset, c.similarity])).toEqual([
      ['latency', 'legacy-checkout', 1.0],
      ['latency_bucket', '__environment__', 0.9],
      ['sli.latency_bucket', '__environment__', 0.8],
    ]);
    expect(r.datasets_searched).toBe(12);
    expect(r.results[0]).toMatchObject({ type: 'float', description: 'Request latency (ms)', last_written: '>60 days ago', is_derived: false, derived_expression: null });
    expect(r.results[1]).toMatchObject({ is_derived: true, last_written: null, derived_expression: 'IF(LTE($duration_ms, 250), "ok", "slow")' });
  });

  it("keeps scores strictly above 0.3: statuscode matches the specification Python's 32 (33 with >=)", async () => {
    expect((await searchColumns(client(), { query: 'statuscode', limit: 1000 })).total_matches).toBe(32);
    expect((await searchColumns(client(), { query: 'lat9999', limit: 1000 })).total_matches).toBe(0);
  });

  it('paginates with limit and offset, and says whether there is more', async () => {
    const c = client();
    const all = await searchColumns(c, { query: 'trace', limit: 1000 });
    expect(all.total_matches).toBeGreaterThan(20);
    const page1 = await searchColumns(c, { query: 'trace', limit: 10, offset: 0 });
    const page2 = await searchColumns(c, { query: 'trace', limit: 10, offset: 10 });
    const ids = (list: typeof all.results) => list.map((c) => `${c.dataset}/${c.column}/${c.similarity}`);
    expect(ids(page1.results)).toEqual(ids(all.results.slice(0, 10)));
    expect(ids(page2.results)).toEqual(ids(all.results.slice(10, 20)));
    expect(page1.has_more).toBe(true);
    const last = await searchColumns(c, { query: 'trace', limit: 10, offset: all.total_matches - 3 });
    expect(last.results).toHaveLength(3);
    expect(last.has_more).toBe(false);
  });

  it('includes derived columns at both levels, each environment-wide alias once', async () => {
    const r = await searchColumns(client(), { query: 'charge_failed' });
    expect(r.results[0]).toMatchObject({ column: 'charge_failed', dataset: 'payment', is_derived: true, type: 'boolean' });
    const env = await searchColumns(client(), { query: 'sli.availability' });
    expect(env.results.filter((c) => c.column === 'sli.availability')).toEqual([expect.objectContaining({ dataset: '__environment__' })]);
  });

  it('finds related derived columns through the tokenizer, quoted names and environment-wide ones included', async () => {
    const r = await searchColumns(client(), { query: 'duration_ms', limit: 5 });
    const related = r.related_derived_columns.map((d) => [d.column, d.dataset, d.similarity]);
    expect(related).toContainEqual(['is_slow_request', '__environment__', 0]);
    expect(related).toContainEqual(['slow_query', 'product-catalog', 0]);
    // route_label only mentions "$not_a_column" inside a string literal.
    const route = await searchColumns(client(), { query: 'not_a_column' });
    expect(route.related_derived_columns).toEqual([]);
    const http = await searchColumns(client(), { query: 'http.route', limit: 3 });
    expect(http.related_derived_columns.map((d) => d.column)).toContain('route_label');
  });

  it('reports a dataset that fails instead of dropping it silently', async () => {
    fake.set({ failingDatasets: ['payment'] });
    try {
      const r = await searchColumns(client(), { query: 'charge' });
      expect(r.datasets_searched).toBe(11);
      expect(r.datasets_failed).toEqual([{ dataset: 'payment', reason: expect.stringMatching(/500.*internal error reading dataset/) }]);
    } finally {
      fake.set({ failingDatasets: [] });
    }
  });

  // The demo data has no tie the token rule reorders; search-edges.test.ts has one that it does.
  it('keeps the specified scores and the same results with the token tie-break on', async () => {
    const stable = await searchColumns(client(), { query: 'duration', limit: 1000 });
    const tokens = await searchColumns(client(), { query: 'duration', limit: 1000, tieBreak: 'tokens' });
    const key = (r: typeof stable) => r.results.map((c) => `${c.dataset}/${c.column}=${c.similarity}`).sort();
    expect(key(tokens)).toEqual(key(stable));
    expect(tokens.results.map((c) => c.similarity)).toEqual(stable.results.map((c) => c.similarity));
  });
});

describe('honeycomb_get_environment_summary', () => {
  it('summarises every dataset with groups, custom columns, samples, staleness and environment derived columns', async () => {
    const r = await environmentSummary(client(), { sampleColumnCount: 5 });
    expect(r.environment).toBe('demo');
    expect(r.dataset_count).toBe(12);
    const payment = r.datasets.find((d) => d.name === 'payment');
    expect(payment).toMatchObject({ column_count: 31, derived_column_count: 1, last_written: '12 seconds ago', is_stale: false });
    expect(payment?.semantic_groups).toMatchObject({ has_otel_traces: true, has_rpc: true, has_logs: true, has_http: false });
    // The specification's extract_custom_columns, run in Python over demo.json, gives exactly this list.
    expect(payment?.custom_columns).toEqual(['status_code', 'status_message', 'error', 'meta.signal_type', 'meta.annotation_type', 'telemetry.sdk.language', 'telemetry.sdk.name', 'host.name', 'app.payment.card_type', 'app.payment.amount', 'app.loyalty.level', 'app.payment.charged']);
    expect(payment?.app_columns).toEqual(['status_code', 'status_message', 'host.name', 'app.payment.card_type', 'app.payment.amount', 'app.loyalty.level', 'app.payment.charged']);
    expect(payment?.derived_columns).toEqual([{ alias: 'charge_failed', expression: 'AND(EQUALS($rpc.method, "Charge"), $error)', description: expect.anything() }]);
    expect(r.datasets.find((d) => d.name === 'otel-demo-metrics')?.custom_columns).toEqual(['kafka.consumer.records_lag_max', 'meta.signal_type']);
    expect(payment?.sample_columns).toHaveLength(5);
    expect(r.datasets.find((d) => d.name === 'legacy-checkout')).toMatchObject({ is_stale: true, last_written: '>60 days ago' });
    expect(r.environment_derived_columns?.map((d) => d.alias)).toContain('sli.availability');
    expect((await environmentSummary(client(), { includeSampleColumns: false })).datasets[0].sample_columns).toBeUndefined();
  });
});

describe('API client', () => {
  it('serves repeated questions from its cache, proven by the fake\'s request count', async () => {
    const c = client();
    const before = fake.totalRequests();
    await searchColumns(c, { query: 'error' });
    const cold = fake.totalRequests() - before;
    expect(cold).toBe(1 + 12 * 2 + 1);
    await searchColumns(c, { query: 'latency' });
    await environmentSummary(c);
    expect(fake.totalRequests() - before).toBe(cold + 1); // only /1/auth was new
    expect(c.requestsSent).toBe(cold + 1);
  });

  it('expires the cache after its TTL', async () => {
    let now = 1_000_000;
    const c = client({ cacheTtlMs: 1000, now: () => now });
    await c.datasets();
    await c.datasets();
    expect(c.requestsSent).toBe(1);
    now += 1001;
    await c.datasets();
    expect(c.requestsSent).toBe(2);
  });

  it.each(['http-date', 'seconds', 'iso'] as const)('waits out a 429 whose Retry-After is a %s, then succeeds', async (format) => {
    const limited = await startFakeHoneycomb({ env: demoEnvironment(), apiKey: KEY, rateLimitPerMinute: 3, rateWindowMs: 1500, retryAfterFormat: format });
    try {
      const c = new HoneycombClient({ apiKey: KEY, baseUrl: limited.url });
      const results = await Promise.all([c.auth(), c.datasets(), c.columns('payment'), c.columns('cart'), c.derivedColumns()]);
      expect(results.every((r) => r !== undefined)).toBe(true);
      expect(limited.rateLimited()).toBeGreaterThan(0);
      expect(c.requestsSent).toBeGreaterThan(5);
    } finally {
      await limited.close();
    }
  }, 30_000);

  it('explains 401 and 404 with what to check', async () => {
    const bad = new HoneycombClient({ apiKey: 'wrong', baseUrl: fake.url });
    await expect(bad.datasets()).rejects.toThrow(/Honeycomb rejected the API key \(401: unknown API key - check your credentials\)/);
    await expect(bad.datasets()).rejects.toBeInstanceOf(HoneycombApiError);
    const err = await client().columns('nope').catch((e: HoneycombApiError) => e);
    expect(err).toBeInstanceOf(HoneycombApiError);
    expect((err as HoneycombApiError).status).toBe(404);
    expect((err as HoneycombApiError).hint).toMatch(/honeycomb_get_environment_summary lists them/);
  });
});

describe('MCP tools', () => {
  let mcp: Client;
  beforeAll(async () => {
    const server = createHoneycombServer(client());
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    mcp = new Client({ name: 't', version: '1' });
    await mcp.connect(b);
  });
  afterAll(async () => mcp.close());

  it('answers with the specified JSON and validates limit and offset', async () => {
    expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(['honeycomb_search_columns', 'honeycomb_get_environment_summary']);
    const r = await mcp.callTool({ name: 'honeycomb_search_columns', arguments: { query: 'status', limit: 2 } });
    const body = JSON.parse((r.content as { text: string }[])[0].text);
    expect(Object.keys(body)).toEqual(['results', 'related_derived_columns', 'total_matches', 'datasets_searched', 'has_more', 'datasets_failed']);
    expect(body.results).toHaveLength(2);
    expect(r.structuredContent).toEqual(body);
    for (const [args, msg] of [
      [{ query: 'x', limit: 0 }, /limit must be from 1 to 1000/],
      [{ query: 'x', limit: 1001 }, /limit must be from 1 to 1000/],
      [{ query: 'x', offset: -1 }, /offset must be 0 or more/],
      [{ query: '  ' }, /query must not be empty/],
    ] as const) {
      const e = await mcp.callTool({ name: 'honeycomb_search_columns', arguments: args });
      expect(e.isError).toBe(true);
      expect((e.content as { text: string }[])[0].text).toMatch(msg);
    }
    const s = await mcp.callTool({ name: 'honeycomb_get_environment_summary', arguments: { sample_column_count: 51 } });
    expect((s.content as { text: string }[])[0].text).toMatch(/sample_column_count must be from 1 to 50/);
  });
});
