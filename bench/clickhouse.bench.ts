/**
 * The colony on ClickHouse beside DuckDB, in the same run: porcelain tool P50 on the largest demo
 * scenario and on a synthetic colony (BENCH_CH_SPANS spans, default 1,000,000), in embedded
 * ClickHouse (chdb, from .cache/chdb or CORAL_CHDB_PATH) and in DuckDB. Target: ClickHouse within 2x.
 *
 * DuckDB is measured in the three configurations users get, each fed the same data (one line per
 * configuration and tool, ClickHouse's figure repeated on each, the ratio against that configuration):
 * - `memory`: ':memory:' as opened without `compact` (`coral demo eval`, `--db :memory:`); its rows
 *   stay uncompressed, since its write-ahead threshold (db.ts CHECKPOINT_THRESHOLD) is never reached.
 * - `compact`: ':memory:' with `compact: true`, compressed after the load (ColonyStore.compact()), as
 *   the console and `coral ask --demo` open a demo (agent/setup.ts).
 * - `file`: a colony file written, closed (checkpointed, i.e. compressed) and reopened, as
 *   `coral colony serve` leaves it and `coral ask`/`coral query --db FILE` read it.
 * DuckDB runs with coral's default worker threads (DEFAULT_THREADS); chdb with its own defaults
 * (max_threads = cores). No result cache on either side (use_query_cache stays off); ClickHouse's
 * query condition cache, on by default, made no measurable difference to these queries.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Colony, ColonyWriter } from '../src/colony/store/colony.js';
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

type DuckConfig = 'memory' | 'compact' | 'file';
const CONFIGS: Record<DuckConfig, string> = {
  memory: "':memory:' uncompressed (coral demo eval, --db :memory:)",
  compact: "':memory:' compact, compressed after load (console and coral ask --demo)",
  file: 'colony file written, closed and reopened (coral colony serve, then coral ask/query --db FILE)',
};

/** Every writer fed from one decoding. */
const all = (stores: ColonyWriter[]) => ({ write: (batch: IngestBatch) => Promise.all(stores.map((s) => s.write(batch))).then(() => undefined) });

/** The three DuckDB configurations, loaded by `load`, ready to read. */
async function duckdbs(name: string, memoryLimit: string, load: (w: ColonyWriter[]) => Promise<void>, ch: Colony): Promise<Record<DuckConfig, ColonyStore>> {
  const file = join(dir, `${name}.duckdb`);
  const memory = await ColonyStore.open({ path: ':memory:', threads: DEFAULT_THREADS, memoryLimit });
  const compact = await ColonyStore.open({ path: ':memory:', threads: DEFAULT_THREADS, memoryLimit, compact: true });
  const writing = await ColonyStore.open({ path: file, threads: DEFAULT_THREADS, memoryLimit });
  await load([memory, compact, writing, ch]);
  await compact.compact();
  await writing.close();
  return { memory, compact, file: await ColonyStore.open({ path: file, threads: DEFAULT_THREADS, memoryLimit }) };
}

async function compare(label: string, ducks: Record<DuckConfig, ColonyStore>, ch: Colony, now: () => Nanos, service: string, spans: number): Promise<void> {
  const ms = (x: number) => Number(x.toFixed(1));
  for (const [tool, args] of porcelainCases(service)) {
    const def = toolByName(tool);
    if (!def) throw new Error(tool);
    const time = (store: Colony) => timeRuns(() => runTool(def, createToolContext(store, now), args), RUNS);
    const c = await time(ch);
    for (const config of Object.keys(CONFIGS) as DuckConfig[]) {
      const d = await time(ducks[config]);
      const ratio = c.p50 / d.p50;
      report({
        bench: `clickhouse_porcelain_${label}`, tool, args, spans, duckdb_config: config,
        duckdb_p50_ms: ms(d.p50), clickhouse_p50_ms: ms(c.p50), duckdb_cpu_p50_ms: ms(d.cpuP50), clickhouse_cpu_p50_ms: ms(c.cpuP50),
        ratio: Number(ratio.toFixed(2)), cpu_ratio: Number((c.cpuP50 / d.cpuP50).toFixed(2)), target_ratio: 2, meets_target: ratio <= 2, duckdb_threads: DEFAULT_THREADS,
      });
    }
  }
}

const closeAll = async (ducks: Record<DuckConfig, ColonyStore>, ch: Colony) => {
  for (const d of Object.values(ducks)) await d.close();
  await ch.close();
};

try {
  report({ bench: 'clickhouse_duckdb_configs', ...CONFIGS });
  const largest = listScenarios().sort((a, b) => b.counts.spans - a.counts.spans)[0];
  const end = END + 3_600_000_000_000n;
  const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir, database: 'demo' }, create: true });
  let t = performance.now();
  const ducks = await duckdbs('demo', DEFAULT_MEMORY_LIMIT, (w) => loadScenario(all(w), largest.name, { endAtNs: end }).then(() => undefined), ch);
  report({ bench: 'clickhouse_load_demo', scenario: largest.name, spans: largest.counts.spans, all_stores_ms: Math.round(performance.now() - t) });
  await compare('demo', ducks, ch, () => end, 'checkout', largest.counts.spans);
  await closeAll(ducks, ch);

  if (SPANS > 0) {
    const bigCh = await ClickHouseStore.open({ target: { kind: 'chdb', dir, database: 'synthetic' }, create: true });
    t = performance.now();
    const bigDucks = await duckdbs('synthetic', '8GB', (w) => populate(all(w), SPANS, 200_000), bigCh);
    report({ bench: 'clickhouse_load_synthetic', spans: SPANS, all_stores_ms: Math.round(performance.now() - t) });
    await compare('synthetic', bigDucks, bigCh, () => END, 'svc-3', SPANS);
    await closeAll(bigDucks, bigCh);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
