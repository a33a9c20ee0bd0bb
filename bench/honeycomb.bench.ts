/**
 * Honeycomb tools against the fake API with the `large` environment (64 datasets, several with
 * 2,000+ columns). Warm search: target <= 50 ms. Cold search and cold summary with 50 ms latency per
 * request and a 100 requests/minute limit: the time, and proof that no 429 went unhandled.
 */
import { HoneycombClient } from '../src/honeycomb/api.js';
import { largeEnvironment } from '../src/honeycomb/fake/environments.js';
import { startFakeHoneycomb } from '../src/honeycomb/fake/server.js';
import { searchColumns } from '../src/honeycomb/search.js';
import { environmentSummary } from '../src/honeycomb/summary.js';
import { report } from './report.js';

const KEY = 'bench-key';
const env = largeEnvironment();
const columns = env.datasets.reduce((n, d) => n + d.columns.length, 0);

// Warm: everything cached, so this measures scoring and ordering across the environment.
{
  const fake = await startFakeHoneycomb({ env, apiKey: KEY });
  const client = new HoneycombClient({ apiKey: KEY, baseUrl: fake.url, concurrency: 8 });
  await searchColumns(client, { query: 'latency' });
  for (const query of ['latency', 'http.status', 'memroy', 'cpu util']) {
    const ms: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      await searchColumns(client, { query });
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    report({ bench: 'honeycomb_search_warm', query, datasets: env.datasets.length, columns, p50_ms: Number(ms[7].toFixed(1)), max_ms: Number(ms[14].toFixed(1)), target_ms: 50, meets_target: ms[7] <= 50 });
  }
  await fake.close();
}

// Cold, slow and rate-limited: a fresh client (empty cache) per run.
for (const what of ['search', 'summary'] as const) {
  const fake = await startFakeHoneycomb({ env, apiKey: KEY, latencyMs: 50, rateLimitPerMinute: 100 });
  const client = new HoneycombClient({ apiKey: KEY, baseUrl: fake.url });
  const t = performance.now();
  let error: string | null = null;
  try {
    if (what === 'search') await searchColumns(client, { query: 'latency' });
    else await environmentSummary(client);
  } catch (err) {
    error = (err as Error).message;
  }
  report({
    bench: `honeycomb_${what}_cold`,
    datasets: env.datasets.length,
    latency_ms_per_request: 50,
    rate_limit_per_minute: 100,
    requests_sent: client.requestsSent,
    answered_429: fake.rateLimited(),
    elapsed_ms: Math.round(performance.now() - t),
    unhandled_429: error !== null && /429|rate/.test(error) ? 1 : 0,
    error,
  });
  await fake.close();
}
