/**
 * The colony on ClickHouse beside DuckDB, in the same run: porcelain tool P50 on the largest demo
 * scenario and on a synthetic colony (BENCH_CH_SPANS spans, default 1,000,000), in embedded
 * ClickHouse (chdb, from .cache/chdb or CORAL_CHDB_PATH) and in DuckDB. Target: ClickHouse within 2x.
 * DuckDB runs as users get it (coral's default worker threads, DEFAULT_THREADS); chdb with its own
 * defaults (max_threads = cores). No result cache on either side (use_query_cache stays off); ClickHouse's
 * query condition cache, on by default, made no measurable difference to these queries.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Colony } from '../src/colony/store/colony.js';
import { ColonyStore } from '../src/colony/store/store.js';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_THREADS } from '../src/colony/store/db.js';
import { ClickHouseStore } from '../src/colony/store/clickhouse/store.js';
import type { IngestBatch } from '../src/colony/store/rows.js';
import { loadScenario } from '../src/demo/load.js';
import { listScenarios } from '../src/demo/files.js';
import { toolByName } from '../src/colony/tools/index.js';
import { runTool } from '../src/colony/tools/run.js';
import { createToolContext } from '../src/colony/tools/types.js';
import type { Nanos } from '../src/core/time.js';
import { END, populate, porcelainCases } from './synthetic.js';
import { report, timeRuns } from './report.js';

const RUNS = Number(process.env.BENCH_CH_RUNS ?? 7);
const SPANS = Number(process.env.BENCH_CH_SPANS ?? 1_000_000);
process.env.CORAL_CHDB_PATH ??= resolve(import.meta.dirname, '../.cache/chdb/node_modules');
if (!existsSync(join(process.env.CORAL_CHDB_PATH, 'chdb'))) {
  console.error(`chdb is not installed under ${process.env.CORAL_CHDB_PATH}: npm install --no-save --prefix .cache/chdb chdb@3.4.0`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'coral-ch-bench-'));

/** Both backends fed from one decoding. */
const both = (a: Colony, b: Colony) => ({ write: (batch: IngestBatch) => Promise.all([a.write(batch), b.write(batch)]).then(() => undefined) });

async function compare(label: string, duck: Colony, ch: Colony, now: () => Nanos, service: string, spans: number): Promise<void> {
  for (const [tool, args] of porcelainCases(service)) {
    const def = toolByName(tool);
    if (!def) throw new Error(tool);
    const time = (store: Colony) => timeRuns(() => runTool(def, createToolContext(store, now), args), RUNS);
    const d = await time(duck);
    const c = await time(ch);
    const ratio = c.p50 / d.p50;
    const ms = (x: number) => Number(x.toFixed(1));
    report({
      bench: `clickhouse_porcelain_${label}`, tool, args, spans,
      duckdb_p50_ms: ms(d.p50), clickhouse_p50_ms: ms(c.p50), duckdb_cpu_p50_ms: ms(d.cpuP50), clickhouse_cpu_p50_ms: ms(c.cpuP50),
      ratio: Number(ratio.toFixed(2)), cpu_ratio: Number((c.cpuP50 / d.cpuP50).toFixed(2)), target_ratio: 2, meets_target: ratio <= 2, duckdb_threads: DEFAULT_THREADS,
    });
  }
}

try {
  const largest = listScenarios().sort((a, b) => b.counts.spans - a.counts.spans)[0];
  const end = END + 3_600_000_000_000n;
  const duck = await ColonyStore.open({ path: ':memory:', threads: DEFAULT_THREADS, memoryLimit: DEFAULT_MEMORY_LIMIT });
  const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir, database: 'demo' }, create: true });
  let t = performance.now();
  await loadScenario(both(duck, ch), largest.name, { endAtNs: end });
  report({ bench: 'clickhouse_load_demo', scenario: largest.name, spans: largest.counts.spans, both_backends_ms: Math.round(performance.now() - t) });
  await compare('demo', duck, ch, () => end, 'checkout', largest.counts.spans);
  await duck.close();
  await ch.close();

  if (SPANS > 0) {
    const bigDuck = await ColonyStore.open({ path: ':memory:', threads: DEFAULT_THREADS, memoryLimit: '8GB' });
    const bigCh = await ClickHouseStore.open({ target: { kind: 'chdb', dir, database: 'synthetic' }, create: true });
    t = performance.now();
    await populate(both(bigDuck, bigCh), SPANS, 200_000);
    report({ bench: 'clickhouse_load_synthetic', spans: SPANS, both_backends_ms: Math.round(performance.now() - t) });
    await compare('synthetic', bigDuck, bigCh, () => END, 'svc-3', SPANS);
    await bigDuck.close();
    await bigCh.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
